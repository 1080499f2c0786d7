// The members of an organization: list, change role, remove. The OWNER is
// exactly one, and can be neither demoted nor removed.
import type { Member as MemberRow, User } from "@/generated/prisma/client";
import { assertCan, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import type { Member } from "./schemas";

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
    where: { organizationId: actor.organizationId, ...args.where },
    include: withUser,
  });
  return toPage(rows, page, toMember);
}

async function findMember(actor: Actor, memberId: string) {
  const member = await db.member.findFirst({ where: { id: memberId, organizationId: actor.organizationId }, include: withUser });
  if (!member) throw notFound("Member");
  return member;
}

export async function updateMemberRole(actor: Actor, memberId: string, role: "ADMIN" | "MEMBER"): Promise<Member> {
  assertCan(actor, "admin");
  const member = await findMember(actor, memberId);
  if (member.role === "OWNER") throw new AppError("invalid_state", "The owner's role cannot be changed");
  if (member.role === role) return toMember(member);
  const updated = await db.member.update({ where: { id: member.id }, data: { role }, include: withUser });
  return toMember(updated);
}

/** Removes a member; their open sessions lose the organization on their next request. */
export async function removeMember(actor: Actor, memberId: string): Promise<void> {
  assertCan(actor, "admin");
  const member = await findMember(actor, memberId);
  if (member.role === "OWNER") throw new AppError("invalid_state", "The owner cannot be removed");
  await db.member.deleteMany({ where: { id: member.id, organizationId: actor.organizationId } });
}
