// The audit log on the real database: written in the change's own
// transaction (a rollback leaves nothing), append-only in the database itself
// (UPDATE, DELETE and TRUNCATE refused; only prune_audit_log removes old
// entries; an organization's erasure takes its log with it), one entry per
// change under concurrency, and read only by the organization's owner and
// admins — never another organization's.
import { describe, expect, it } from "vitest";
import { ListAuditLogsQuery } from "@/lib/schemas/audit";
import { CreateApiKeyInput } from "@/lib/schemas/api-keys";
import { createApiKey, revokeApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { JOBS } from "@/server/jobs/kinds";
import { updateMemberRole } from "@/server/team/members";
import { addMember, codeOf, ownerWithOrganization } from "@/test/fixtures";
import { audit, withAuditContext } from "./record";
import { auditRetentionJob, pruneAuditLog } from "./retention";
import { listAuditLogs } from "./service";

const list = (actor: Parameters<typeof listAuditLogs>[0], q: Record<string, unknown> = {}) =>
  listAuditLogs(actor, ListAuditLogsQuery.parse(q));

describe("audit log", () => {
  it("records a key's creation and revocation and a role change with who did it, from where", async () => {
    const { actor, org, user } = await ownerWithOrganization();
    const { user: admin, actor: adminActor } = await addMember(org.id, "ADMIN");
    const { actor: memberActor } = await addMember(org.id, "MEMBER");
    const who = { actorType: "user" as const, actorId: user.id, actorLabel: user.email, ipAddress: "203.0.113.7", requestId: "req_test" };
    const key = await withAuditContext(who, () => createApiKey(actor, CreateApiKeyInput.parse({ name: "CI", permissions: ["read"] })));
    await withAuditContext(who, () => revokeApiKey(actor, key.id));
    const member = await db.member.findFirstOrThrow({ where: { organizationId: org.id, userId: admin.id } });
    await updateMemberRole(actor, member.id, "MEMBER"); // no context: the system

    const page = await list(adminActor);
    expect(page.data.map((e) => e.action)).toEqual([
      "member.role_changed",
      "api_key.revoked",
      "api_key.created",
      "organization.created",
    ]);
    expect(page.data[2]).toMatchObject({
      actor: { type: "user", id: user.id, label: user.email },
      resource: { type: "api_key", id: key.id },
      details: { name: "CI", mode: "live", permissions: ["read"], prefix: key.prefix },
      ipAddress: "203.0.113.7",
      requestId: "req_test",
      livemode: true,
    });
    expect(JSON.stringify(page.data)).not.toContain(key.key); // the secret never
    expect(page.data[0]).toMatchObject({ actor: { type: "system" }, details: { from: "ADMIN", to: "MEMBER" } });
    // Made outside any request (as at sign-up): by the user who owns it.
    expect(page.data[3]).toMatchObject({
      actor: { type: "user", id: user.id, label: user.email },
      resource: { type: "organization", id: org.id },
      details: { name: org.name, currency: "NGN", owner: user.id },
    });
    expect((await list(adminActor, { action: "api_key." })).data).toHaveLength(2);
    expect((await list(adminActor, { action: "api_key.revoked" })).data).toHaveLength(1);
    // A member does not read it; another organization sees nothing of it.
    expect(await codeOf(list(memberActor))).toBe("forbidden");
    const other = await ownerWithOrganization();
    expect((await list(other.actor)).data).toMatchObject([{ action: "organization.created", resource: { id: other.org.id } }]);
  });

  it("is append-only: UPDATE, DELETE and TRUNCATE refused; prune removes only what is older; erasure takes it along", async () => {
    const { org } = await ownerWithOrganization();
    await db.$transaction((tx) => audit(tx, org.id, { action: "test.done", resourceType: "test" }));
    const row = await db.auditLog.findFirstOrThrow({ where: { organizationId: org.id, action: "test.done" } });
    await expect(db.$executeRaw`UPDATE audit_log SET action = 'x' WHERE id = ${row.id}`).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`DELETE FROM audit_log WHERE id = ${row.id}`).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
    expect(await db.auditLog.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ action: "test.done" });
    const [pruned] = await db.$queryRaw<{ gone: bigint }[]>`SELECT prune_audit_log('2000-01-01') AS gone`;
    expect(Number(pruned!.gone)).toBe(0);
    expect(await db.auditLog.count({ where: { id: row.id } })).toBe(1);
    await db.organization.delete({ where: { id: org.id } });
    expect(await db.auditLog.count({ where: { id: row.id } })).toBe(0);
  });

  it("a change that rolls back leaves no entry; 50 concurrent changes leave 50", async () => {
    const { org } = await ownerWithOrganization();
    await expect(
      db.$transaction(async (tx) => {
        await audit(tx, org.id, { action: "test.rolled_back", resourceType: "test" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await db.auditLog.count({ where: { organizationId: org.id, action: "test.rolled_back" } })).toBe(0);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => db.$transaction((tx) => audit(tx, org.id, { action: "test.concurrent", resourceType: "test", resourceId: String(i) }))),
    );
    expect(await db.auditLog.count({ where: { organizationId: org.id, action: "test.concurrent" } })).toBe(50);
  });

  it("retention: the daily job prunes entries older than AUDIT_RETENTION_DAYS and keeps the rest; UPDATE and DELETE stay refused", async () => {
    const { org } = await ownerWithOrganization();
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    // Backdated entries can only be inserted so (an entry is never updated).
    const write = (action: string, createdAt: Date) =>
      db.auditLog.create({
        data: {
          organizationId: org.id,
          actorType: "system",
          actorId: "system",
          actorLabel: "Coverdesk",
          action,
          resourceType: "test",
          createdAt,
        },
      });
    const left = async () =>
      (
        await db.auditLog.findMany({ where: { organizationId: org.id, resourceType: "test" }, orderBy: { createdAt: "asc" } })
      ).map((e) => e.action);
    await write("test.ancient", daysAgo(3000));
    await write("test.old", daysAgo(731));
    await write("test.kept", daysAgo(729));
    await write("test.recent", now);

    expect(env.AUDIT_RETENTION_DAYS).toBe(730); // the default
    expect(await pruneAuditLog(now)).toBeGreaterThanOrEqual(2);
    expect(await left()).toEqual(["test.kept", "test.recent"]);
    expect(await db.auditLog.count({ where: { organizationId: org.id, action: "organization.created" } })).toBe(1);
    // A shorter retention takes the 729-day-old entry too; nothing newer.
    expect(await pruneAuditLog(now, 30)).toBeGreaterThanOrEqual(1);
    expect(await left()).toEqual(["test.recent"]);

    // The job: declared with the others, run once a day, doing the same.
    expect(JOBS).toContain(auditRetentionJob);
    expect(auditRetentionJob).toMatchObject({ type: "pass", kind: "audit.retention", everyMs: 86_400_000 });
    await write("test.old_again", daysAgo(800));
    expect(await auditRetentionJob.run()).toBeGreaterThanOrEqual(1);
    expect(await left()).toEqual(["test.recent"]);

    // Pruning opens no door: after it, even in its own transaction, UPDATE and DELETE are refused.
    const kept = await db.auditLog.findFirstOrThrow({ where: { organizationId: org.id, action: "test.recent" } });
    await expect(
      db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT prune_audit_log('2000-01-01')`;
        await tx.$executeRaw`DELETE FROM audit_log WHERE id = ${kept.id}`;
      }),
    ).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`UPDATE audit_log SET "createdAt" = '2000-01-01' WHERE id = ${kept.id}`).rejects.toThrow(
      /append-only/,
    );
    await expect(db.$executeRaw`DELETE FROM audit_log WHERE id = ${kept.id}`).rejects.toThrow(/append-only/);
    expect(await left()).toEqual(["test.recent"]);
  });
});
