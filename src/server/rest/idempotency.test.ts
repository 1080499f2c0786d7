// An Idempotency-Key claim is a lease: a process killed between claiming a key
// and storing its answer must not leave the key answering 409 for 24 h.
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/api-keys/service";
import { connectDatabase, db } from "@/server/db/client";
import { ownerWithOrganization } from "@/test/fixtures";
import { handleRestRequest } from "./handler";
import { claimIdempotencyKey, completeIdempotencyKey, requestHash } from "./idempotency";

const PATH = "/api/v1/business/api-keys";
const BODY = JSON.stringify({ name: "Retried key", permissions: ["read"] });
const HASH = requestHash("POST", PATH, BODY);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

describe("Idempotency-Key lease", () => {
  beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

  it("a claim left by a dead process runs again once its lease is over, then replays", async () => {
    const { org, key } = await orgWithKey();
    // The first process claims the key and dies before answering.
    await claimIdempotencyKey(org.id, "crashed-1", HASH, { leaseMs: 50 });
    await sleep(100);

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
    await claimIdempotencyKey(org.id, "running-1", HASH);

    const retry = await post(key, "running-1");
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as { code: string }).code).toBe("idempotency_in_progress");
    expect(await created(org.id)).toBe(0);
  });

  it("only one of several retries after the lease takes the key over", async () => {
    const { org, key } = await orgWithKey();
    await claimIdempotencyKey(org.id, "crashed-2", HASH, { leaseMs: 50 });
    await sleep(100);

    const responses = await Promise.all(Array.from({ length: 4 }, () => post(key, "crashed-2")));
    const ran = responses.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(ran).toHaveLength(1);
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await created(org.id)).toBe(1);
  });

  it("a key whose answer was stored replays it, however old its lease", async () => {
    const { org, key } = await orgWithKey();
    await claimIdempotencyKey(org.id, "done-1", HASH, { leaseMs: 50 });
    await completeIdempotencyKey(org.id, "done-1", 201, JSON.stringify({ id: "ak_stored" }));
    await sleep(100);

    const retry = await post(key, "done-1");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.json()).toEqual({ id: "ak_stored" });
    expect(await created(org.id)).toBe(0);
  });

  it("another body under an expired claim is still 422 idempotency_key_reused", async () => {
    const { org, key } = await orgWithKey();
    await claimIdempotencyKey(org.id, "crashed-3", requestHash("POST", PATH, "{}"), { leaseMs: 50 });
    await sleep(100);

    const retry = await post(key, "crashed-3");
    expect(retry.status).toBe(422);
    expect(await created(org.id)).toBe(0);
  });
});
