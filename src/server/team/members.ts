// The members of an organization: list, change role, remove. The OWNER is
// exactly one, and can be neither demoted nor removed.
import { audit } from "@/server/audit/record";
import type { Member as MemberRow, User } from "@/generated/prisma/client";
import { accountOf, assertCan, type Actor } from "@/server/actor";
import type { ApiKey } from "@/lib/schemas/api-keys";
import { forgetApiKeys, toApiKey } from "@/server/api-keys/service";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { logger } from "@/server/logger";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import type { Member } from "@/lib/schemas/team";

const toMember = (m: MemberRow & { user: Pick<User, "name" | "email"> }): Member => ({
  id: m.id,
  userId: m.userId,
  name: m.user.name,
  email: m.user.email,
  role: m.role,
  joinedAt: m.createdAt.toISOString(),
});

const withUser = { user: { select: { name: true, email: true } } } as const;

export async function listMembers(actor: Actor, page: PageQuery): Promise<Page<Member>> {
  assertCan(actor, "admin-read");
  const args = pageArgs(page);
  const rows = await db.member.findMany({
    ...args,
    where: { organizationId: accountOf(actor), ...args.where },
    include: withUser,
  });
  return toPage(rows, page, toMember);
}

async function findMember(actor: Actor, memberId: string) {
  const member = await db.member.findFirst({ where: { id: memberId, organizationId: accountOf(actor) }, include: withUser });
  if (!member) throw notFound("Member");
  return member;
}

export async function updateMemberRole(actor: Actor, memberId: string, role: "ADMIN" | "MEMBER"): Promise<Member> {
  assertCan(actor, "account");
  const member = await findMember(actor, memberId);
  if (member.role === "OWNER") throw new AppError("invalid_state", "The owner's role cannot be changed");
  if (member.role === role) return toMember(member);
  // Only while the member is still there (a removal may land in between: then 404, not a failed update).
  const count = await db.$transaction(async (tx) => {
    const changed = await tx.member.updateMany({
      where: { id: member.id, organizationId: accountOf(actor), role: { not: "OWNER" } },
      data: { role },
    });
    if (changed.count > 0)
      await audit(tx, accountOf(actor), {
        action: "member.role_changed",
        resourceType: "member",
        resourceId: member.id,
        details: { email: member.user.email, from: member.role, to: role },
      });
    return changed.count;
  });
  if (count === 0) {
    const now = await findMember(actor, memberId); // 404 once removed
    if (now.role === "OWNER") throw new AppError("invalid_state", "The owner's role cannot be changed");
    return toMember(now);
  }
  forgetApiKeys();
  return toMember(await findMember(actor, memberId));
}

/** The member's active API keys of this organization (newest 100): what removing them would revoke. */
export async function activeApiKeysOfMember(actor: Actor, memberId: string): Promise<ApiKey[]> {
  assertCan(actor, "admin-read");
  const member = await findMember(actor, memberId);
  const rows = await db.apiKey.findMany({
    where: { organizationId: accountOf(actor), createdById: member.userId, status: "active" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  return rows.map(toApiKey);
}

/**
 * Removes a member; their open sessions lose the organization on their next
 * request, and their active API keys of this organization are revoked in the
 * same transaction (a key never does more than its creator may do now).
 * Answers the keys it revoked.
 */
export async function removeMember(actor: Actor, memberId: string): Promise<{ revokedApiKeys: ApiKey[] }> {
  assertCan(actor, "account");
  const member = await findMember(actor, memberId);
  if (member.role === "OWNER") throw new AppError("invalid_state", "The owner cannot be removed");
  const revoked = await db.$transaction(async (tx) => {
    const { count } = await tx.member.deleteMany({ where: { id: member.id, organizationId: accountOf(actor) } });
    if (count === 0) throw notFound("Member");
    const keys = await tx.apiKey.updateManyAndReturn({
      where: { organizationId: accountOf(actor), createdById: member.userId, status: "active" },
      data: { status: "revoked", revokedAt: new Date() },
    });
    await audit(tx, accountOf(actor), {
      action: "member.removed",
      resourceType: "member",
      resourceId: member.id,
      details: { email: member.user.email, role: member.role, revokedApiKeys: keys.map((k) => k.id) },
    });
    return keys;
  });
  forgetApiKeys();
  if (revoked.length > 0) {
    logger.info(
      { organizationId: accountOf(actor), removedUserId: member.userId, revokedApiKeyIds: revoked.map((k) => k.id) },
      "member removed: their API keys were revoked",
    );
  }
  return { revokedApiKeys: revoked.map(toApiKey) };
}
