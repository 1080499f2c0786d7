// API keys against a real database: lifecycle, secrets, tenancy, roles, pages.
import crypto from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { can, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError, type ErrorCode } from "@/server/errors";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { generateApiKey, hashApiKey, looksLikeApiKey, sameHash } from "./secret";
import { updateSettings } from "@/server/settings/service";
import { removeMember, updateMemberRole } from "@/server/team/members";
import {
  authenticateApiKey,
  createApiKey,
  forgetApiKeys,
  keyActor,
  listApiKeys,
  regenerateApiKey,
  REGENERATE_GAP_MS,
  revokeApiKey,
  updateApiKey,
} from "./service";

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("hex");

async function expectAppError(promise: Promise<unknown>, code: ErrorCode) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
}

const rowOf = (id: string) => db.apiKey.findUniqueOrThrow({ where: { id } });

describe("secret (pure)", () => {
  it("generates cd_live_ (default) or cd_test_ + 32 base62 characters, different every time", () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const k of keys) expect(k).toMatch(/^cd_live_[0-9A-Za-z]{32}$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(generateApiKey("test")).toMatch(/^cd_test_[0-9A-Za-z]{32}$/);
    expect(looksLikeApiKey(generateApiKey("test"))).toBe(true);
  });

  it("recognises only well-formed keys", () => {
    expect(looksLikeApiKey(generateApiKey())).toBe(true);
    for (const bad of [
      "",
      "cd_live_",
      `cd_prod_${"a".repeat(32)}`,
      `cd_live_${"a".repeat(31)}`,
      `cd_live_${"a".repeat(33)}`,
      `cd_live_${"a".repeat(31)}-`,
    ]) {
      expect(looksLikeApiKey(bad), bad).toBe(false);
    }
  });

  it("hashes with SHA-256 (hex) and compares digests", () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(sha256(key));
    expect(sameHash(hashApiKey(key), sha256(key))).toBe(true);
    expect(sameHash(hashApiKey(key), hashApiKey(generateApiKey()))).toBe(false);
    expect(sameHash(hashApiKey(key), hashApiKey(key).slice(0, 32))).toBe(false);
  });
});

describe("createApiKey", () => {
  it("returns the secret once and stores only its SHA-256 hash", async () => {
    const { actor, user, org } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Server", permissions: ["write", "read"] });

    expect(created.key).toMatch(/^cd_live_[0-9A-Za-z]{32}$/);
    expect(created).toMatchObject({
      name: "Server",
      permissions: ["read", "write"], // normalised order
      prefix: created.key.slice(0, 12),
      status: "active",
      lastUsedAt: null,
    });

    const row = await rowOf(created.id);
    expect(row.organizationId).toBe(org.id);
    expect(row.createdById).toBe(user.id);
    expect(row.keyHash).toBe(sha256(created.key));
    const secretPart = created.key.slice("cd_live_".length);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(secretPart);

    // Listing never shows the secret again.
    const page = await listApiKeys(actor, { limit: 20 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).not.toHaveProperty("key");
    expect(JSON.stringify(page)).not.toContain(secretPart);
  });
});

describe("authenticateApiKey", () => {
  it("answers the key's organization, creator, permissions and the org's rate limit", async () => {
    const { actor, user, org } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Reader", permissions: ["read"] });
    await expect(authenticateApiKey(created.key)).resolves.toEqual({
      id: created.id,
      organizationId: org.id,
      accountId: org.id,
      mode: "live",
      createdById: user.id,
      creatorRole: "OWNER",
      permissions: ["read"],
      rateLimit: 600,
    });
  });

  it.each([
    ["malformed", "not-a-key"],
    ["well-formed but unknown", generateApiKey()],
  ])("rejects a %s key with invalid_api_key", async (_, presented) => {
    await expectAppError(authenticateApiKey(presented), "invalid_api_key");
  });

  it("sets lastUsedAt (asynchronously) after a successful check", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Used", permissions: ["read"] });
    expect((await rowOf(created.id)).lastUsedAt).toBeNull();

    const before = Date.now();
    await authenticateApiKey(created.key);
    let lastUsedAt: Date | null = null;
    for (let i = 0; i < 50 && !lastUsedAt; i++) {
      lastUsedAt = (await rowOf(created.id)).lastUsedAt;
      if (!lastUsedAt) await new Promise((r) => setTimeout(r, 100));
    }
    expect(lastUsedAt).not.toBeNull();
    expect(lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(lastUsedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const [listed] = (await listApiKeys(actor, { limit: 20 })).data;
    expect(listed!.lastUsedAt).toBe(lastUsedAt!.toISOString());
  });
});

describe("a key never does more than its creator may do now", () => {
  const membership = (organizationId: string, userId: string) => ({ organizationId_userId: { organizationId, userId } });

  it("acts with its creator's current role: an ADMIN's key demoted to MEMBER is refused admin actions (forbidden)", async () => {
    const { org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const created = await createApiKey(admin.actor, { name: "Admin's key", permissions: ["read", "write"] });
    const before = keyActor(await authenticateApiKey(created.key));
    expect(before).toEqual({
      organizationId: org.id,
      accountId: org.id,
      livemode: true,
      userId: admin.user.id,
      role: "ADMIN",
      apiKey: { id: created.id, permissions: ["read", "write"] },
    });
    await createApiKey(before, { name: "Allowed while admin", permissions: ["read"] });

    // Changed behind this instance's back (another instance): seen once its cache entry expires.
    await db.member.update({ where: membership(org.id, admin.user.id), data: { role: "MEMBER" } });
    forgetApiKeys();
    const after = keyActor(await authenticateApiKey(created.key));
    expect(after.role).toBe("MEMBER");
    await expectAppError(createApiKey(after, { name: "Refused", permissions: ["read"] }), "forbidden");
    await expectAppError(revokeApiKey(after, created.id), "forbidden");
    expect(can(after, "manage")).toBe(true); // policies and claims, like any MEMBER
    expect((await rowOf(created.id)).status).toBe("active");
  });

  it("a key whose creator is no longer a member (however it happened) acts as nobody: forbidden", async () => {
    const { org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const created = await createApiKey(admin.actor, { name: "Orphan", permissions: ["read", "write"] });
    await db.member.delete({ where: membership(org.id, admin.user.id) });

    const key = await authenticateApiKey(created.key, 0);
    expect(key.creatorRole).toBeNull();
    const err = (() => {
      try {
        keyActor(key);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("forbidden");
  });

  it("a deleted creator's keys are gone with them: invalid_api_key", async () => {
    const { org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const created = await createApiKey(admin.actor, { name: "Gone", permissions: ["read", "write"] });
    await db.user.delete({ where: { id: admin.user.id } });
    await expectAppError(authenticateApiKey(created.key), "invalid_api_key");
  });
});

describe("the instance's key cache", () => {
  afterEach(() => vi.useRealTimers());

  it("a change made elsewhere shows once the entry expires; unknown keys are remembered as unknown", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Cached", permissions: ["read"] });
    // The cache's clock is Date.now(): stopped here and moved on by hand (timers and the database stay real).
    vi.useFakeTimers({ toFake: ["Date"] });
    expect((await authenticateApiKey(created.key, 300)).id).toBe(created.id);
    // Revoked by another instance (straight in the database): this one still trusts its entry…
    await db.apiKey.update({ where: { id: created.id }, data: { status: "revoked", revokedAt: new Date() } });
    vi.setSystemTime(Date.now() + 299);
    expect((await authenticateApiKey(created.key, 300)).id).toBe(created.id);
    // …until it expires.
    vi.setSystemTime(Date.now() + 51);
    await expectAppError(authenticateApiKey(created.key, 300), "revoked_api_key");
    const unknown = generateApiKey();
    await expectAppError(authenticateApiKey(unknown, 300), "invalid_api_key");
    await expectAppError(authenticateApiKey(unknown, 300), "invalid_api_key");
  });

  it("a change made through this instance shows at once: revoke, regenerate, permissions, role, removal, rate limit", async () => {
    const long = 60_000;
    const { org, actor } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");

    const revoked = await createApiKey(actor, { name: "Revoked", permissions: ["read"] });
    await authenticateApiKey(revoked.key, long);
    await revokeApiKey(actor, revoked.id);
    await expectAppError(authenticateApiKey(revoked.key, long), "revoked_api_key");

    const regenerated = await createApiKey(actor, { name: "Regenerated", permissions: ["read"] });
    await authenticateApiKey(regenerated.key, long);
    await regenerateApiKey(actor, regenerated.id);
    await expectAppError(authenticateApiKey(regenerated.key, long), "invalid_api_key");

    const narrowed = await createApiKey(actor, { name: "Narrowed", permissions: ["read", "write"] });
    await authenticateApiKey(narrowed.key, long);
    await updateApiKey(actor, narrowed.id, { permissions: ["read"] });
    expect((await authenticateApiKey(narrowed.key, long)).permissions).toEqual(["read"]);

    const adminKey = await createApiKey(admin.actor, { name: "Admin's", permissions: ["read", "write"] });
    expect((await authenticateApiKey(adminKey.key, long)).creatorRole).toBe("ADMIN");
    const member = await db.member.findUniqueOrThrow({
      where: { organizationId_userId: { organizationId: org.id, userId: admin.user.id } },
    });
    await updateMemberRole(actor, member.id, "MEMBER");
    expect((await authenticateApiKey(adminKey.key, long)).creatorRole).toBe("MEMBER");

    await updateSettings(actor, { api: { rateLimit: 42 } });
    expect((await authenticateApiKey(adminKey.key, long)).rateLimit).toBe(42);

    await removeMember(actor, member.id);
    await expectAppError(authenticateApiKey(adminKey.key, long), "revoked_api_key");
  });

  it("a look-up that read the key before a change is not remembered after it (the change would be forgotten)", async () => {
    const long = 60_000;
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Raced", permissions: ["read"] });
    // The look-up is in flight (it read the key active) when a change lands and this instance forgets its keys…
    const inFlight = authenticateApiKey(created.key, long);
    forgetApiKeys();
    expect((await inFlight).id).toBe(created.id);
    // …so the next use reads the database again and sees the change (made behind the cache's back here).
    await db.apiKey.update({ where: { id: created.id }, data: { status: "revoked", revokedAt: new Date() } });
    await expectAppError(authenticateApiKey(created.key, long), "revoked_api_key");
  });
});

describe("key lifecycle", () => {
  it("updates name and permissions, keeping the secret", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Old", permissions: ["read"] });
    const renamed = await updateApiKey(actor, created.id, { name: "New" });
    expect(renamed).toMatchObject({ id: created.id, name: "New", permissions: ["read"] });
    const widened = await updateApiKey(actor, created.id, { permissions: ["write", "read"] });
    expect(widened).toMatchObject({ name: "New", permissions: ["read", "write"] });
    expect((await authenticateApiKey(created.key)).permissions).toEqual(["read", "write"]);
  });

  it("regenerate issues a new secret for the same record and rejects the old one at once", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Rotating", permissions: ["read", "write"] });
    const regenerated = await regenerateApiKey(actor, created.id);

    expect(regenerated.key).toMatch(/^cd_live_[0-9A-Za-z]{32}$/);
    expect(regenerated.key).not.toBe(created.key);
    expect(regenerated).toMatchObject({
      id: created.id,
      name: "Rotating",
      permissions: ["read", "write"],
      status: "active",
      prefix: regenerated.key.slice(0, 12),
    });
    expect((await rowOf(created.id)).keyHash).toBe(sha256(regenerated.key));

    await expectAppError(authenticateApiKey(created.key), "invalid_api_key");
    expect((await authenticateApiKey(regenerated.key)).id).toBe(created.id);
  });

  it("revoke makes the key answer revoked_api_key and keeps the record listed", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Doomed", permissions: ["read"] });
    const revoked = await revokeApiKey(actor, created.id);
    expect(revoked).toMatchObject({ id: created.id, status: "revoked" });

    await expectAppError(authenticateApiKey(created.key), "revoked_api_key");
    const listed = (await listApiKeys(actor, { limit: 20 })).data;
    expect(listed.map((k) => [k.id, k.status])).toEqual([[created.id, "revoked"]]);

    // Revoking again answers the same record without touching it.
    const revokedAt = (await rowOf(created.id)).revokedAt;
    expect(revokedAt).not.toBeNull();
    await expect(revokeApiKey(actor, created.id)).resolves.toMatchObject({ status: "revoked" });
    expect((await rowOf(created.id)).revokedAt).toEqual(revokedAt);
  });

  it("refuses to update or regenerate a revoked key (invalid_state)", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Gone", permissions: ["read"] });
    await revokeApiKey(actor, created.id);
    const before = await rowOf(created.id);
    await expectAppError(updateApiKey(actor, created.id, { name: "Back" }), "invalid_state");
    await expectAppError(regenerateApiKey(actor, created.id), "invalid_state");
    expect(await rowOf(created.id)).toEqual(before);
  });
});

describe("concurrent changes of one key", () => {
  it("10 regenerates at once: exactly one new value (200), the other 9 → 409 conflict; only that value works", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Rotated at once", permissions: ["read"] });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => regenerateApiKey(actor, created.id)));
    const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("conflict");
    expect((await rowOf(created.id)).keyHash).toBe(sha256(won[0]!.key));
    expect((await authenticateApiKey(won[0]!.key, 0)).id).toBe(created.id);
    await expectAppError(authenticateApiKey(created.key, 0), "invalid_api_key");
  });

  it("one after another: a key regenerated less than REGENERATE_GAP_MS ago → 409 conflict, after it → a new secret", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Rotated twice", permissions: ["read"] });
    const first = await regenerateApiKey(actor, created.id);
    const before = await rowOf(created.id);
    await expectAppError(regenerateApiKey(actor, created.id), "conflict");
    expect(await rowOf(created.id)).toEqual(before);
    // As if the second request came REGENERATE_GAP_MS later.
    const later = new Date(before.regeneratedAt!.getTime() + REGENERATE_GAP_MS);
    const second = await regenerateApiKey(actor, created.id, later);
    expect(second.key).not.toBe(first.key);
    expect((await authenticateApiKey(second.key, 0)).id).toBe(created.id);
  });

  it("a rename does not hold back a regenerate right after it", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Renamed", permissions: ["read"] });
    await updateApiKey(actor, created.id, { name: "Renamed again" });
    const regenerated = await regenerateApiKey(actor, created.id);
    expect(regenerated.name).toBe("Renamed again");
    expect((await authenticateApiKey(regenerated.key, 0)).id).toBe(created.id);
  });

  it("a regenerate racing a revoke never answers a working secret for a revoked key", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createApiKey(actor, { name: "Raced", permissions: ["read"] });
    const [regenerated, revoked] = await Promise.allSettled([
      regenerateApiKey(actor, created.id),
      revokeApiKey(actor, created.id),
    ]);
    expect(revoked).toMatchObject({ status: "fulfilled", value: { status: "revoked" } });
    if (regenerated.status === "rejected") expect((regenerated.reason as AppError).code).toBe("invalid_state");
    else await expectAppError(authenticateApiKey(regenerated.value.key, 0), "revoked_api_key");
    expect((await rowOf(created.id)).status).toBe("revoked");
  });
});

describe("keys of both modes (a live key manages both, a test key only test keys)", () => {
  const actorOf = async (key: string) => keyActor(await authenticateApiKey(key, 0));

  it("a test key gets 404 on a live key for rename, regenerate and revoke; the live key is unchanged", async () => {
    const { actor } = await ownerWithOrganization();
    const live = await createApiKey(actor, { name: "Live", permissions: ["read", "write"] });
    const test = await createApiKey(actor, { name: "Test", permissions: ["read", "write"], mode: "test" });
    const testActor = await actorOf(test.key);
    const before = await rowOf(live.id);
    await expectAppError(updateApiKey(testActor, live.id, { name: "Hijacked", permissions: ["read"] }), "not_found");
    await expectAppError(regenerateApiKey(testActor, live.id), "not_found");
    await expectAppError(revokeApiKey(testActor, live.id), "not_found");
    expect(await rowOf(live.id)).toEqual(before);
    expect((await authenticateApiKey(live.key, 0)).id).toBe(live.id);
    // Its own test keys it manages.
    expect(await updateApiKey(testActor, test.id, { name: "Renamed by itself" })).toMatchObject({ name: "Renamed by itself" });
  });

  it("a live key regenerates, renames and revokes a test key", async () => {
    const { actor } = await ownerWithOrganization();
    const live = await createApiKey(actor, { name: "Live", permissions: ["read", "write"] });
    const test = await createApiKey(actor, { name: "Test", permissions: ["read"], mode: "test" });
    const liveActor = await actorOf(live.key);
    const regenerated = await regenerateApiKey(liveActor, test.id);
    expect(regenerated.key).toMatch(/^cd_test_/);
    expect((await authenticateApiKey(regenerated.key, 0)).mode).toBe("test");
    expect(await updateApiKey(liveActor, test.id, { name: "Renamed" })).toMatchObject({
      id: test.id,
      mode: "test",
      name: "Renamed",
    });
    expect(await revokeApiKey(liveActor, test.id)).toMatchObject({ id: test.id, status: "revoked" });
  });
});

describe("tenant isolation", () => {
  it("another organization's key id is not found, and the key is unchanged", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    const keyOfA = await createApiKey(a.actor, { name: "A's key", permissions: ["read"] });
    const before = await rowOf(keyOfA.id);

    await expectAppError(updateApiKey(b.actor, keyOfA.id, { name: "Hijacked", permissions: ["read", "write"] }), "not_found");
    await expectAppError(revokeApiKey(b.actor, keyOfA.id), "not_found");
    await expectAppError(regenerateApiKey(b.actor, keyOfA.id), "not_found");

    expect(await rowOf(keyOfA.id)).toEqual(before);
    expect((await authenticateApiKey(keyOfA.key)).organizationId).toBe(a.org.id);
    expect((await listApiKeys(b.actor, { limit: 100 })).data).toEqual([]);
  });

  it("an unknown id is not found", async () => {
    const { actor } = await ownerWithOrganization();
    await expectAppError(revokeApiKey(actor, "does-not-exist"), "not_found");
  });
});

describe("who may manage keys", () => {
  type Who = "OWNER" | "ADMIN" | "MEMBER" | "read key" | "write key";
  async function actorAs(who: Who): Promise<{ actor: Actor; ownerActor: Actor }> {
    const { actor: ownerActor, org } = await ownerWithOrganization();
    if (who === "OWNER") return { actor: ownerActor, ownerActor };
    if (who === "ADMIN" || who === "MEMBER") return { actor: (await addMember(org.id, who)).actor, ownerActor };
    const permissions = who === "read key" ? (["read"] as const) : (["read", "write"] as const);
    const key = await createApiKey(ownerActor, { name: who, permissions: [...permissions] });
    return {
      actor: {
        organizationId: org.id,
        userId: ownerActor.userId,
        role: "OWNER",
        apiKey: { id: key.id, permissions: [...permissions] },
      },
      ownerActor,
    };
  }

  const expected: Record<Who, ErrorCode | null> = {
    OWNER: null,
    ADMIN: null,
    "write key": null,
    MEMBER: "forbidden",
    "read key": "insufficient_permissions",
  };

  // Listing is a read: any member and any key may (SPEC §2 "MEMBER may read everything").
  it.each(Object.keys(expected) as Who[])("%s: list → allowed", async (who) => {
    const { actor } = await actorAs(who);
    await expect(listApiKeys(actor, { limit: 20 })).resolves.toMatchObject({ data: expect.any(Array) });
  });

  const operations: Record<string, (actor: Actor, targetId: string) => Promise<unknown>> = {
    create: (actor) => createApiKey(actor, { name: "New", permissions: ["read"] }),
    update: (actor, id) => updateApiKey(actor, id, { name: "Renamed" }),
    revoke: (actor, id) => revokeApiKey(actor, id),
    regenerate: (actor, id) => regenerateApiKey(actor, id),
  };

  for (const [who, code] of Object.entries(expected) as [Who, ErrorCode | null][]) {
    for (const [op, run] of Object.entries(operations)) {
      it(`${who}: ${op} → ${code ?? "allowed"}`, async () => {
        const { actor, ownerActor } = await actorAs(who);
        const target = await createApiKey(ownerActor, { name: "Target", permissions: ["read"] });
        const keysBefore = await db.apiKey.findMany({ where: { organizationId: actor.organizationId }, orderBy: { id: "asc" } });

        if (code === null) {
          await expect(run(actor, target.id)).resolves.toBeTruthy();
        } else {
          await expectAppError(run(actor, target.id), code);
          // A refusal changes nothing.
          const keysAfter = await db.apiKey.findMany({ where: { organizationId: actor.organizationId }, orderBy: { id: "asc" } });
          expect(keysAfter).toEqual(keysBefore);
        }
      });
    }
  }
});

describe("listApiKeys pagination", () => {
  it("walks 25 keys in pages of 10, newest first, without duplicates or gaps", async () => {
    const { actor } = await ownerWithOrganization();
    const created: string[] = [];
    for (let i = 0; i < 25; i++) created.push((await createApiKey(actor, { name: `Key ${i}`, permissions: ["read"] })).id);

    const pages: { ids: string[]; createdAt: string[]; nextCursor: string | null }[] = [];
    let cursor: string | undefined;
    do {
      const page = await listApiKeys(actor, { limit: 10, cursor });
      pages.push({ ids: page.data.map((k) => k.id), createdAt: page.data.map((k) => k.createdAt), nextCursor: page.nextCursor });
      cursor = page.nextCursor ?? undefined;
    } while (cursor && pages.length < 10);

    expect(pages.map((p) => p.ids.length)).toEqual([10, 10, 5]);
    expect(pages.map((p) => p.nextCursor === null)).toEqual([false, false, true]);

    const ids = pages.flatMap((p) => p.ids);
    expect(new Set(ids).size).toBe(25);
    expect([...ids].sort()).toEqual([...created].sort());

    // Newest first: the same order as the database's (createdAt desc, id desc).
    const dbOrder = await db.apiKey.findMany({
      where: { organizationId: actor.organizationId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    expect(ids).toEqual(dbOrder.map((r) => r.id));
    const times = pages.flatMap((p) => p.createdAt).map((t) => Date.parse(t));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]!);
    // Keys were created one after another, so the first created is on the last page, the last created on the first.
    expect(pages[2]!.ids).toContain(created[0]);
    expect(pages[0]!.ids).toContain(created[24]);
  });

  it("returns one short page with no cursor when everything fits", async () => {
    const { actor } = await ownerWithOrganization();
    await createApiKey(actor, { name: "Only", permissions: ["read"] });
    const page = await listApiKeys(actor, { limit: 10 });
    expect(page.data).toHaveLength(1);
    expect(page.nextCursor).toBeNull();
  });
});
