// The /organizations… endpoints' actor: the key's creator, with their role in
// the key's own organization (another id → 404; a test key reads, never
// changes). Only "not a member" is a refusal; any other failure (the
// database's) stays a failure, never a disguised 403.
import { describe, expect, it } from "vitest";
import { authenticateApiKey, createApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { assertLiveKey, creatorActor } from "./user-scope";

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
}

describe("creatorActor", () => {
  it("the creator's role in the key's own organization; any other id → 404, whatever the creator's role there", async () => {
    const { org, actor } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    // The creator is an OWNER of a second organization too: the key still does not reach it.
    await db.member.create({ data: { organizationId: other.org.id, userId: actor.userId, role: "OWNER" } });
    const key = await authenticateApiKey((await createApiKey(actor, { name: "k", permissions: ["read"] })).key);

    expect(await creatorActor(key, org.id)).toEqual({
      organizationId: org.id,
      userId: actor.userId,
      role: "OWNER",
      apiKey: { id: key.id, permissions: ["read"] },
    });
    expect(await failureOf(creatorActor(key, other.org.id))).toMatchObject({ code: "not_found", status: 404 });
    const foreign = await ownerWithOrganization();
    expect(await failureOf(creatorActor(key, foreign.org.id))).toMatchObject({ code: "not_found", status: 404 });
  });

  it("a test key reads its account but is refused a change (403), and reaches no other organization (404)", async () => {
    const { org, actor } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    await db.member.create({ data: { organizationId: other.org.id, userId: actor.userId, role: "OWNER" } });
    const key = await authenticateApiKey(
      (await createApiKey(actor, { name: "t", permissions: ["read", "write"], mode: "test" })).key,
    );
    expect((await creatorActor(key, org.id)).role).toBe("OWNER");
    expect(await failureOf(creatorActor(key, org.id, { change: true }))).toMatchObject({
      code: "forbidden",
      status: 403,
      message: "Test keys cannot change the live account",
    });
    expect(await failureOf(creatorActor(key, other.org.id, { change: true }))).toMatchObject({ code: "not_found" });
    expect(() => assertLiveKey(key)).toThrow("Test keys cannot change the live account");
  });

  it("403 forbidden once the creator has left the key's organization", async () => {
    const { org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const { key: secret } = await createApiKey(admin.actor, { name: "k", permissions: ["read"] });
    await db.member.delete({ where: { organizationId_userId: { organizationId: org.id, userId: admin.user.id } } });
    const key = await authenticateApiKey(secret);
    expect(await failureOf(creatorActor(key, org.id))).toMatchObject({ code: "forbidden", status: 403 });
  });

  it("a database failure stays a failure (500), not a 403", async () => {
    const { actor } = await ownerWithOrganization();
    const key = await authenticateApiKey((await createApiKey(actor, { name: "k", permissions: ["read"] })).key);
    // A NUL byte is a value PostgreSQL itself refuses: a real database error, not a refusal of ours.
    const broken = "org_\u0000";
    const err = await failureOf(creatorActor({ ...key, organizationId: broken, accountId: broken }, broken));
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(AppError);
  });
});
