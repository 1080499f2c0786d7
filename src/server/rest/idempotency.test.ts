// Idempotency-Key, exactly once: the request's work and its stored answer
// commit in one transaction (a crash before the commit leaves nothing, after it
// the retry replays — see e2e/api/idempotency-crash.spec.ts for the kill -9);
// a refusal keeps what the service committed before refusing, as without a
// key; a failure on our side keeps nothing. Keys left `in_progress` by the
// previous version (which claimed before running) are taken over after their
// lease.
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/api-keys/service";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { ownerWithOrganization } from "@/test/fixtures";
import { handleRestRequest } from "@/server/operations/pipeline";
import { requestHash, runIdempotently } from "./idempotency";

const PATH = "/api/v1/business/api-keys";
const BODY = JSON.stringify({ name: "Retried key", permissions: ["read"] });
const HASH = requestHash("POST", PATH, BODY);

async function orgWithKey() {
  const owner = await ownerWithOrganization();
  const created = await createApiKey(owner.actor, { name: "Test key", permissions: ["read", "write"] });
  return { org: owner.org, key: created.key };
}

function post(key: string, idem: string) {
  return handleRestRequest(
    new Request(`http://localhost${PATH}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idem },
      body: BODY,
    }),
  );
}

const created = (organizationId: string) => db.apiKey.count({ where: { organizationId, name: "Retried key" } });
const keyRow = (organizationId: string, key: string) =>
  db.idempotencyKey.findUnique({ where: { organizationId_key: { organizationId, key } } });
const orgName = async (id: string) => (await db.organization.findUniqueOrThrow({ where: { id } })).name;

/** A key claimed by the previous version of the module, whose process may have died. */
const legacyClaim = (organizationId: string, key: string, leaseUntil: Date, hash = HASH) =>
  db.idempotencyKey.create({
    data: {
      organizationId,
      key,
      requestHash: hash,
      state: "in_progress",
      expiresAt: new Date(Date.now() + 86_400_000),
      leaseUntil,
    },
  });

beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

describe("Idempotency-Key: one transaction", () => {
  it("a failure after the work rolls the work back and stores nothing; the retry runs once", async () => {
    const { org } = await ownerWithOrganization();
    const failing = runIdempotently(org.id, "dies-1", HASH, async () => {
      await db.organization.update({ where: { id: org.id }, data: { name: "Changed by the first try" } });
      await db.$transaction(async (tx) => {
        await tx.organization.update({ where: { id: org.id }, data: { address: "Also changed" } });
      });
      throw new Error("the process died here");
    });
    await expect(failing).rejects.toThrow("the process died here");
    expect(await orgName(org.id)).toBe(org.name);
    expect(await keyRow(org.id, "dies-1")).toBeNull();

    let runs = 0;
    const run = async () => {
      runs++;
      await db.organization.update({ where: { id: org.id }, data: { name: "Changed once" } });
      return { status: 200, body: '{"ok":true}' };
    };
    expect(await runIdempotently(org.id, "dies-1", HASH, run)).toEqual({ status: 200, body: '{"ok":true}', replayed: false });
    expect(await runIdempotently(org.id, "dies-1", HASH, run)).toEqual({ status: 200, body: '{"ok":true}', replayed: true });
    expect(runs).toBe(1);
    expect(await orgName(org.id)).toBe("Changed once");
    expect(await keyRow(org.id, "dies-1")).toMatchObject({ state: "completed", responseStatus: 200 });
  });

  it("a refusal keeps what the service committed before refusing, undoes its refused part, and is replayed", async () => {
    const { org } = await ownerWithOrganization();
    const refusal = { status: 409, body: '{"code":"invalid_state"}' };
    const answer = await runIdempotently(org.id, "refused-1", HASH, async () => {
      // A step that commits even though the request is refused (a failed verification attempt counts).
      await db.$transaction(async (tx) => {
        await tx.organization.update({ where: { id: org.id }, data: { name: "Counted" } });
      });
      // A step that refuses halfway: its own write is undone, as its own transaction would be.
      await db
        .$transaction(async (tx) => {
          await tx.organization.update({ where: { id: org.id }, data: { address: "Undone" } });
          throw new AppError("invalid_state");
        })
        .catch(() => {});
      return refusal;
    });
    expect(answer).toEqual({ ...refusal, replayed: false });
    const row = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(row.name).toBe("Counted");
    expect(row.address).not.toBe("Undone");
    expect(await runIdempotently(org.id, "refused-1", HASH, () => Promise.reject(new Error("must not run")))).toEqual({
      ...refusal,
      replayed: true,
    });
  });

  it("a refusal caused by a failed statement is still stored (apart from the rolled-back work)", async () => {
    const { org } = await ownerWithOrganization();
    const answer = await runIdempotently(org.id, "bad-sql-1", HASH, async () => {
      // A statement the database refuses leaves the transaction unusable.
      await db.$executeRawUnsafe("SELECT 1/0").catch(() => {});
      return { status: 422, body: '{"code":"validation_failed"}' };
    });
    expect(answer).toMatchObject({ status: 422, replayed: false });
    expect(await keyRow(org.id, "bad-sql-1")).toMatchObject({ state: "completed", responseStatus: 422 });
  });

  it("inside the request's transaction the array form runs in order, and a timer firing after it uses the plain client", async () => {
    const { org } = await ownerWithOrganization();
    let later: Promise<string> | undefined;
    await runIdempotently(org.id, "array-1", HASH, async () => {
      await db.$transaction([
        db.organization.update({ where: { id: org.id }, data: { name: "First" } }),
        db.organization.update({ where: { id: org.id }, data: { address: "Second" } }),
      ]);
      later = new Promise((resolve, reject) => setTimeout(() => orgName(org.id).then(resolve, reject), 50));
      return { status: 200, body: "{}" };
    });
    expect(await later).toBe("First");
    expect(await db.organization.findUniqueOrThrow({ where: { id: org.id } })).toMatchObject({
      name: "First",
      address: "Second",
    });
  });

  it("concurrent identical requests run once: the others replay or answer 409", async () => {
    const { org, key } = await orgWithKey();
    const responses = await Promise.all(Array.from({ length: 5 }, () => post(key, "together-1")));
    const ran = responses.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(ran).toHaveLength(1);
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await created(org.id)).toBe(1);
  });
});

describe("Idempotency-Key: keys claimed by the previous version", () => {
  it("a claim left by a dead process runs again once its lease is over, then replays", async () => {
    const { org, key } = await orgWithKey();
    await legacyClaim(org.id, "crashed-1", new Date(Date.now() - 1000));

    const retry = await post(key, "crashed-1");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    const first = await retry.json();
    expect(await created(org.id)).toBe(1);

    const again = await post(key, "crashed-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect(await created(org.id)).toBe(1);
  });

  it("within the lease a retry is still 409 idempotency_in_progress and runs nothing", async () => {
    const { org, key } = await orgWithKey();
    await legacyClaim(org.id, "running-1", new Date(Date.now() + 60_000));

    const retry = await post(key, "running-1");
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as { code: string }).code).toBe("idempotency_in_progress");
    expect(await created(org.id)).toBe(0);
  });

  it("only one of several retries after the lease takes the key over", async () => {
    const { org, key } = await orgWithKey();
    await legacyClaim(org.id, "crashed-2", new Date(Date.now() - 1000));

    const responses = await Promise.all(Array.from({ length: 4 }, () => post(key, "crashed-2")));
    const ran = responses.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(ran).toHaveLength(1);
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await created(org.id)).toBe(1);
  });

  it("another body under an expired claim is still 422 idempotency_key_reused", async () => {
    const { org, key } = await orgWithKey();
    await legacyClaim(org.id, "crashed-3", new Date(Date.now() - 1000), requestHash("POST", PATH, "{}"));

    const retry = await post(key, "crashed-3");
    expect(retry.status).toBe(422);
    expect(await created(org.id)).toBe(0);
  });
});
