// The user-scoped endpoints' actor: the key's creator, with their role in the
// organization named by the path. Only "not a member" is a refusal; any other
// failure (the database's) stays a failure, never a disguised 403.
import { describe, expect, it } from "vitest";
import { authenticateApiKey, createApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { creatorActor } from "./user-scope";

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
}

describe("creatorActor", () => {
  it("answers the creator's role in each of their organizations, 404 elsewhere", async () => {
    const { org, actor } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    await db.member.create({ data: { organizationId: other.org.id, userId: actor.userId, role: "MEMBER" } });
    const key = await authenticateApiKey((await createApiKey(actor, { name: "k", permissions: ["read"] })).key);

    expect((await creatorActor(key, org.id)).role).toBe("OWNER");
    expect(await creatorActor(key, other.org.id)).toEqual({
      organizationId: other.org.id,
      userId: actor.userId,
      role: "MEMBER",
      apiKey: { id: key.id, permissions: ["read"] },
    });
    const foreign = await ownerWithOrganization();
    expect(await failureOf(creatorActor(key, foreign.org.id))).toMatchObject({ code: "not_found", status: 404 });
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
    const err = await failureOf(creatorActor({ ...key, organizationId: broken }, broken));
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(AppError);
  });
});
