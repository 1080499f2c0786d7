// Team members against a real database: listing, role changes, removal, the
// protected OWNER, tenancy, and who may do what.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { authenticateApiKey, createApiKey, keyActor, revokeApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { AppError, type ErrorCode } from "@/server/errors";
import { actorForUser, resolveActiveMembership } from "@/server/organizations/service";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { activeApiKeysOfMember, listMembers, removeMember, updateMemberRole } from "./members";

async function expectAppError(promise: Promise<unknown>, code: ErrorCode) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

// Rows ordered by createdAt (millisecond precision) need distinct timestamps.
const tick = () => new Promise((r) => setTimeout(r, 5));

const memberRow = (organizationId: string, userId: string) =>
  db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });

const membersOf = (organizationId: string) => db.member.findMany({ where: { organizationId }, orderBy: { id: "asc" } });

describe("listMembers", () => {
  it("lists the organization's members newest first, with name, email, role and joinedAt", async () => {
    const { actor, user: owner, org } = await ownerWithOrganization();
    await tick();
    const admin = await addMember(org.id, "ADMIN");
    await tick();
    const member = await addMember(org.id, "MEMBER");

    const page = await listMembers(actor, { limit: 20 });
    expect(page.nextCursor).toBeNull();
    expect(page.data.map((m) => [m.userId, m.role])).toEqual([
      [member.user.id, "MEMBER"],
      [admin.user.id, "ADMIN"],
      [owner.id, "OWNER"],
    ]);
    const rowOfOwner = await memberRow(org.id, owner.id);
    expect(page.data[2]).toEqual({
      id: rowOfOwner!.id,
      userId: owner.id,
      name: owner.name,
      email: owner.email,
      role: "OWNER",
      joinedAt: rowOfOwner!.createdAt.toISOString(),
    });
  });

  it("pages with limit and cursor without gaps or duplicates", async () => {
    const { actor, org } = await ownerWithOrganization();
    for (let i = 0; i < 4; i++) {
      await tick();
      await addMember(org.id, i % 2 ? "ADMIN" : "MEMBER");
    }
    const first = await listMembers(actor, { limit: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listMembers(actor, { limit: 3, cursor: first.nextCursor! });
    expect(second.data).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.data, ...second.data].map((m) => m.id);
    expect(new Set(ids).size).toBe(5);
    expect(ids.sort()).toEqual((await membersOf(org.id)).map((m) => m.id).sort());
  });

  it("never shows another organization's members", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    await addMember(b.org.id, "ADMIN");
    const listed = (await listMembers(a.actor, { limit: 100 })).data;
    expect(listed.map((m) => m.userId)).toEqual([a.user.id]);
  });
});

describe("updateMemberRole", () => {
  it("moves a member ADMIN ↔ MEMBER, and the new role is what the member acts with", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { user } = await addMember(org.id, "MEMBER");
    const row = (await memberRow(org.id, user.id))!;

    const promoted = await updateMemberRole(actor, row.id, "ADMIN");
    expect(promoted).toMatchObject({ id: row.id, userId: user.id, email: user.email, role: "ADMIN" });
    expect((await memberRow(org.id, user.id))!.role).toBe("ADMIN");
    expect((await actorForUser(user.id, org.id)).role).toBe("ADMIN");

    const demoted = await updateMemberRole(actor, row.id, "MEMBER");
    expect(demoted.role).toBe("MEMBER");
    expect((await memberRow(org.id, user.id))!.role).toBe("MEMBER");
  });

  it("setting the role a member already has answers the member unchanged", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { user } = await addMember(org.id, "ADMIN");
    const before = (await memberRow(org.id, user.id))!;
    await expect(updateMemberRole(actor, before.id, "ADMIN")).resolves.toMatchObject({ id: before.id, role: "ADMIN" });
    expect(await memberRow(org.id, user.id)).toEqual(before);
  });

  it("a role change racing the member's removal answers 404, never a failure", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { user } = await addMember(org.id, "MEMBER");
    const row = (await memberRow(org.id, user.id))!;
    // The removal holds the row while the role change has already found the member: on PostgreSQL
    // the change's write waits for the lock, then finds the row gone (the embedded database runs one
    // statement at a time, so there the change simply comes after the removal).
    let held!: () => void;
    const locked = new Promise<void>((r) => (held = r));
    const removal = db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "member" WHERE id = ${row.id} FOR UPDATE`;
      held();
      await new Promise((r) => setTimeout(r, 400));
      await tx.member.delete({ where: { id: row.id } });
    });
    await locked;
    const change = updateMemberRole(actor, row.id, "ADMIN").catch((e: unknown) => e);
    await removal;
    expect(await change).toMatchObject({ code: "not_found", status: 404 });
    expect(await memberRow(org.id, user.id)).toBeNull();
  });

  it("an admin may change another admin's role", async () => {
    const { org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const other = await addMember(org.id, "ADMIN");
    const row = (await memberRow(org.id, other.user.id))!;
    await expect(updateMemberRole(admin.actor, row.id, "MEMBER")).resolves.toMatchObject({ role: "MEMBER" });
  });

  it.each(["ADMIN", "MEMBER"] as const)(
    "the OWNER cannot be demoted to %s (invalid_state), by the owner or an admin",
    async (role) => {
      const { actor, user, org } = await ownerWithOrganization();
      const admin = await addMember(org.id, "ADMIN");
      const ownerRow = (await memberRow(org.id, user.id))!;
      for (const who of [actor, admin.actor]) {
        const err = await expectAppError(updateMemberRole(who, ownerRow.id, role), "invalid_state");
        expect(err.status).toBe(409);
      }
      expect(await memberRow(org.id, user.id)).toEqual(ownerRow);
    },
  );
});

describe("removeMember", () => {
  it("deletes the membership; the removed user loses the organization at once", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { user } = await addMember(org.id, "ADMIN");
    await db.user.update({ where: { id: user.id }, data: { activeOrganizationId: org.id } });
    const row = (await memberRow(org.id, user.id))!;

    await expect(removeMember(actor, row.id)).resolves.toEqual({ revokedApiKeys: [] });

    expect(await memberRow(org.id, user.id)).toBeNull();
    expect((await listMembers(actor, { limit: 100 })).data.map((m) => m.userId)).not.toContain(user.id);
    // What every dashboard request and user-scoped API call resolves next:
    expect(await resolveActiveMembership(user.id, org.id)).toBeNull();
    await expectAppError(actorForUser(user.id, org.id), "not_found");
    // The user record itself stays.
    expect(await db.user.findUnique({ where: { id: user.id } })).not.toBeNull();
  });

  it("a removed user who owns another organization falls back to it, never to the old one", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    await db.member.create({ data: { organizationId: a.org.id, userId: b.user.id, role: "MEMBER" } });
    await db.user.update({ where: { id: b.user.id }, data: { activeOrganizationId: a.org.id } });
    const row = (await memberRow(a.org.id, b.user.id))!;

    await removeMember(a.actor, row.id);
    const resolved = await resolveActiveMembership(b.user.id, a.org.id);
    expect(resolved?.organizationId).toBe(b.org.id);
    expect(resolved?.role).toBe("OWNER");
  });

  it("the OWNER cannot be removed (invalid_state), by the owner or an admin", async () => {
    const { actor, user, org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const ownerRow = (await memberRow(org.id, user.id))!;
    for (const who of [actor, admin.actor]) await expectAppError(removeMember(who, ownerRow.id), "invalid_state");
    expect(await memberRow(org.id, user.id)).toEqual(ownerRow);
  });

  it("removing an already removed member → not_found", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { user } = await addMember(org.id, "MEMBER");
    const row = (await memberRow(org.id, user.id))!;
    await removeMember(actor, row.id);
    await expectAppError(removeMember(actor, row.id), "not_found");
  });
});

describe("removeMember revokes the member's API keys (a key never outlives its creator's access)", () => {
  const statusOf = async (id: string) => (await db.apiKey.findUniqueOrThrow({ where: { id } })).status;

  it("revokes their active keys of this organization in the removal, and says which", async () => {
    const { actor, org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const server = await createApiKey(admin.actor, { name: "Server", permissions: ["read", "write"] });
    const reader = await createApiKey(admin.actor, { name: "Reader", permissions: ["read"] });
    const old = await createApiKey(admin.actor, { name: "Old", permissions: ["read"] });
    await revokeApiKey(actor, old.id);
    const ownersKey = await createApiKey(actor, { name: "Owner's", permissions: ["read", "write"] });
    // The same user in another organization keeps that organization's keys.
    const elsewhere = await ownerWithOrganization();
    await db.member.create({ data: { organizationId: elsewhere.org.id, userId: admin.user.id, role: "ADMIN" } });
    const otherOrgKey = await createApiKey(
      { ...admin.actor, organizationId: elsewhere.org.id },
      { name: "Elsewhere", permissions: ["read"] },
    );

    // What the removal dialog shows before confirming.
    const row = (await memberRow(org.id, admin.user.id))!;
    expect((await activeApiKeysOfMember(actor, row.id)).map((k) => k.name).sort()).toEqual(["Reader", "Server"]);

    const { revokedApiKeys } = await removeMember(actor, row.id);
    expect(revokedApiKeys.map((k) => [k.name, k.status]).sort()).toEqual([
      ["Reader", "revoked"],
      ["Server", "revoked"],
    ]);
    expect(revokedApiKeys[0]).not.toHaveProperty("key");
    for (const k of [server, reader]) {
      expect(await statusOf(k.id)).toBe("revoked");
      await expectAppError(authenticateApiKey(k.key), "revoked_api_key");
    }
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: server.id } })).revokedAt).not.toBeNull();
    expect(await statusOf(ownersKey.id)).toBe("active");
    expect(await statusOf(otherOrgKey.id)).toBe("active");
    expect((await authenticateApiKey(otherOrgKey.key)).creatorRole).toBe("ADMIN");
  });

  it("a use concurrent with the removal never sees the member gone with the key still active, and is refused after", async () => {
    const { actor, org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const created = await createApiKey(admin.actor, { name: "In use", permissions: ["read", "write"] });
    const row = (await memberRow(org.id, admin.user.id))!;

    // One statement reads both rows in one snapshot, again and again, while the removal runs.
    let removed = false;
    const seen: { member: boolean; status: string }[] = [];
    const watch = (async () => {
      while (!removed) {
        const [s] = await db.$queryRaw<{ member: boolean; status: string }[]>`
          SELECT EXISTS (SELECT 1 FROM member WHERE id = ${row.id}) AS member,
                 (SELECT status::text FROM api_key WHERE id = ${created.id}) AS status`;
        seen.push(s!);
      }
    })();
    const uses = Array.from({ length: 10 }, () =>
      authenticateApiKey(created.key).then(
        (k) => keyActor(k).role,
        (e: unknown) => (e as AppError).code,
      ),
    );
    await removeMember(actor, row.id);
    removed = true;
    await watch;
    for (const outcome of await Promise.all(uses)) expect(["ADMIN", "revoked_api_key"]).toContain(outcome);
    expect(seen.filter((s) => !s.member && s.status === "active")).toEqual([]);
    await expectAppError(authenticateApiKey(created.key), "revoked_api_key");
  });

  it("only an owner or admin may list a member's keys", async () => {
    const { org } = await ownerWithOrganization();
    const admin = await addMember(org.id, "ADMIN");
    const member = await addMember(org.id, "MEMBER");
    const row = (await memberRow(org.id, admin.user.id))!;
    await expectAppError(activeApiKeysOfMember(member.actor, row.id), "forbidden");
  });
});

describe("tenant isolation", () => {
  it("another organization's member id is not found, and nothing changes", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    const { user } = await addMember(b.org.id, "MEMBER");
    const victim = (await memberRow(b.org.id, user.id))!;
    const bOwner = (await memberRow(b.org.id, b.user.id))!;
    const before = await membersOf(b.org.id);

    for (const id of [victim.id, bOwner.id]) {
      await expectAppError(updateMemberRole(a.actor, id, "ADMIN"), "not_found");
      await expectAppError(removeMember(a.actor, id), "not_found");
    }
    expect(await membersOf(b.org.id)).toEqual(before);
  });

  it("an unknown id is not found", async () => {
    const { actor } = await ownerWithOrganization();
    await expectAppError(updateMemberRole(actor, "no-such-member", "ADMIN"), "not_found");
    await expectAppError(removeMember(actor, "no-such-member"), "not_found");
  });
});

describe("who may manage members", () => {
  type Who = "OWNER" | "ADMIN" | "MEMBER" | "read key" | "write key";
  async function actorAs(who: Who): Promise<{ actor: Actor; org: { id: string } }> {
    const { actor: ownerActor, org } = await ownerWithOrganization();
    if (who === "OWNER") return { actor: ownerActor, org };
    if (who === "ADMIN" || who === "MEMBER") return { actor: (await addMember(org.id, who)).actor, org };
    const permissions: ("read" | "write")[] = who === "read key" ? ["read"] : ["read", "write"];
    const key = await createApiKey(ownerActor, { name: who, permissions });
    // A user-scoped call: the key's creator with their role, plus the key's permissions.
    return { actor: { ...ownerActor, apiKey: { id: key.id, permissions } }, org };
  }

  // [list, update role / remove]
  const expected: Record<Who, [ErrorCode | null, ErrorCode | null]> = {
    OWNER: [null, null],
    ADMIN: [null, null],
    "write key": [null, null],
    "read key": [null, "insufficient_permissions"],
    MEMBER: ["forbidden", "forbidden"],
  };

  for (const [who, [listCode, mutateCode]] of Object.entries(expected) as [Who, [ErrorCode | null, ErrorCode | null]][]) {
    it(`${who}: listMembers → ${listCode ?? "allowed"}`, async () => {
      const { actor } = await actorAs(who);
      if (listCode) await expectAppError(listMembers(actor, { limit: 20 }), listCode);
      else expect((await listMembers(actor, { limit: 20 })).data.length).toBeGreaterThanOrEqual(1);
    });

    const operations: Record<string, (actor: Actor, memberId: string) => Promise<unknown>> = {
      updateRole: (actor, id) => updateMemberRole(actor, id, "ADMIN"),
      remove: (actor, id) => removeMember(actor, id),
    };
    for (const [op, run] of Object.entries(operations)) {
      it(`${who}: ${op} → ${mutateCode ?? "allowed"}`, async () => {
        const { actor, org } = await actorAs(who);
        const target = await addMember(org.id, "MEMBER");
        const targetRow = (await memberRow(org.id, target.user.id))!;
        const before = await membersOf(org.id);
        if (mutateCode) {
          await expectAppError(run(actor, targetRow.id), mutateCode);
          expect(await membersOf(org.id)).toEqual(before);
        } else {
          await run(actor, targetRow.id);
          const after = await memberRow(org.id, target.user.id);
          if (op === "remove") expect(after).toBeNull();
          else expect(after!.role).toBe("ADMIN");
        }
      });
    }
  }
});
