// Keys are bound to their organization (SPEC §2): the /organizations… endpoints
// act as the key (its creator's current role, its mode) on the key's own
// organization only, and a test key reads the account but never changes what
// test and live share — refused by the one permission rule (`account`), so
// every service that changes the account refuses it, whatever door it came in.
import { describe, expect, it } from "vitest";
import { sessionActor } from "@/server/organizations/service";
import { authenticateApiKey, createApiKey, keyActor, revokeApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { updateOrganization } from "@/server/organizations/service";
import { getSettings, updateSettings } from "@/server/settings/service";
import { inviteMember } from "@/server/team/invitations";
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
const refusedToTestKey = { code: "forbidden", status: 403, message: "Test keys cannot change the live account" };

describe("creatorActor", () => {
  it("the key's actor on its own organization; any other id → 404, whatever the creator's role there", async () => {
    const { org, actor } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    // The creator is an OWNER of a second organization too: the key still does not reach it.
    await db.member.create({ data: { organizationId: other.org.id, userId: actor.userId, role: "OWNER" } });
    const key = await authenticateApiKey((await createApiKey(actor, { name: "k", permissions: ["read"] })).key);

    expect(creatorActor(key, org.id)).toEqual({
      organizationId: org.id,
      accountId: org.id,
      livemode: true,
      userId: actor.userId,
      role: "OWNER",
      apiKey: { id: key.id, permissions: ["read"] },
    });
    expect(() => creatorActor(key, other.org.id)).toThrow(expect.objectContaining({ code: "not_found", status: 404 }));
    const foreign = await ownerWithOrganization();
    expect(() => creatorActor(key, foreign.org.id)).toThrow(expect.objectContaining({ code: "not_found" }));
  });

  it("403 forbidden once the creator has left the key's organization", async () => {
    const { org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const { key: secret } = await createApiKey(admin.actor, { name: "k", permissions: ["read"] });
    await db.member.delete({ where: { organizationId_userId: { organizationId: org.id, userId: admin.user.id } } });
    const key = await authenticateApiKey(secret);
    expect(() => creatorActor(key, org.id)).toThrow(expect.objectContaining({ code: "forbidden", status: 403 }));
  });
});

describe("a test key and the live account", () => {
  it("reads the settings but changes neither settings, profile, team nor live keys (403); the dashboard's test view may", async () => {
    const { org, actor } = await ownerWithOrganization();
    const secret = (await createApiKey(actor, { name: "t", permissions: ["read", "write"], mode: "test" })).key;
    const testKey = await authenticateApiKey(secret);
    const liveKey = await createApiKey(actor, { name: "live", permissions: ["read"] });
    const asTestKey = keyActor(testKey);
    const before = await getSettings(actor);

    expect(await getSettings(asTestKey)).toEqual(before);
    expect(await failureOf(updateSettings(asTestKey, { api: { rateLimit: 7 } }))).toMatchObject(refusedToTestKey);
    expect(await failureOf(updateOrganization(creatorActor(testKey, org.id), { name: "Renamed" }))).toMatchObject(
      refusedToTestKey,
    );
    expect(await failureOf(inviteMember(asTestKey, { email: "x@example.com", role: "ADMIN" }))).toMatchObject(refusedToTestKey);
    expect(await failureOf(createApiKey(asTestKey, { name: "l", permissions: ["read"], mode: "live" }))).toMatchObject(
      refusedToTestKey,
    );
    // A test key does not even see live keys.
    expect(await failureOf(revokeApiKey(asTestKey, liveKey.id))).toMatchObject({ code: "not_found", status: 404 });
    expect(() => assertLiveKey(testKey)).toThrow("Test keys cannot change the live account");
    // Nothing changed.
    expect(await getSettings(actor)).toEqual(before);
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe(org.name);
    expect(await db.invitation.count({ where: { organizationId: org.id } })).toBe(0);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: liveKey.id } })).status).toBe("active");

    // A test key still manages test keys; an owner in the dashboard's test view still manages the account.
    await createApiKey(asTestKey, { name: "t2", permissions: ["read"], mode: "test" });
    const testView = await sessionActor(actor.userId, { organizationId: org.id, role: "OWNER" }, true);
    expect((await updateSettings(testView, { api: { rateLimit: 7 } })).api.rateLimit).toBe(7);
  });
});
