// Email invitations: pending → accepted / cancelled / expired (7 days).
// Tokens are single-use and stored only as hashes; resend issues a new one.
import type { Invitation as InvitationRow, Prisma, User } from "@/generated/prisma/client";
import { accountOf, assertCan, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError, notFound } from "@/server/errors";
import { layoutEmail, sendEmail } from "@/server/integrations/email";
import { logger } from "@/server/logger";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import type { Invitation, InvitationPreview, InviteMemberInput, ListInvitationsQuery } from "@/lib/schemas/team";
import { hashInvitationToken, looksLikeInvitationToken, newInvitationToken } from "./tokens";

const VALID_DAYS = 7;
export const MAX_PENDING_INVITATIONS = 100;

type Row = InvitationRow & { invitedBy: Pick<User, "id" | "name" | "email"> };
const withInviter = { invitedBy: { select: { id: true, name: true, email: true } } } as const;

const statusOf = (row: InvitationRow, now = new Date()): Invitation["status"] =>
  row.status === "pending" && row.expiresAt <= now ? "expired" : row.status;

const toInvitation = (row: Row): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  status: statusOf(row),
  expiresAt: row.expiresAt.toISOString(),
  invitedBy: { userId: row.invitedBy.id, name: row.invitedBy.name, email: row.invitedBy.email },
  createdAt: row.createdAt.toISOString(),
});

const expiry = () => new Date(Date.now() + VALID_DAYS * 86_400_000);
const inviteLink = (token: string) => `${env.APP_URL}/invite/${token}`;

function statusWhere(status: ListInvitationsQuery["status"]): Prisma.InvitationWhereInput {
  const now = new Date();
  switch (status) {
    case "pending":
      return { status: "pending", expiresAt: { gt: now } };
    case "expired":
      return { status: "pending", expiresAt: { lte: now } };
    case undefined:
      return {};
    default:
      return { status };
  }
}

export async function listInvitations(actor: Actor, query: ListInvitationsQuery): Promise<Page<Invitation>> {
  assertCan(actor, "admin-read");
  const args = pageArgs(query);
  const rows = await db.invitation.findMany({
    ...args,
    where: { organizationId: accountOf(actor), ...statusWhere(query.status), ...args.where },
    include: withInviter,
  });
  return toPage(rows, query, toInvitation);
}

/** Serializes invitation changes of one organization (no duplicate pending invitations). */
async function lockOrganization(tx: Tx, organizationId: string) {
  await tx.$queryRaw`SELECT id FROM organization WHERE id = ${organizationId} FOR UPDATE`;
}

export async function inviteMember(actor: Actor, input: InviteMemberInput): Promise<Invitation> {
  assertCan(actor, "account");
  const token = newInvitationToken();
  const row = await db.$transaction(async (tx) => {
    await lockOrganization(tx, accountOf(actor));
    const member = await tx.member.findFirst({
      where: { organizationId: accountOf(actor), user: { email: { equals: input.email, mode: "insensitive" } } },
    });
    if (member) throw new AppError("already_member", `${input.email} is already a member of this organization`);
    const now = new Date();
    const pending = await tx.invitation.findFirst({
      where: { organizationId: accountOf(actor), email: input.email, status: "pending", expiresAt: { gt: now } },
    });
    if (pending) throw new AppError("invitation_pending", `${input.email} already has a pending invitation; resend it instead`);
    const count = await tx.invitation.count({
      where: { organizationId: accountOf(actor), status: "pending", expiresAt: { gt: now } },
    });
    if (count >= MAX_PENDING_INVITATIONS) {
      throw new AppError(
        "invitation_limit_reached",
        `At most ${MAX_PENDING_INVITATIONS} invitations can be pending; cancel some first`,
      );
    }
    const created = await tx.invitation.create({
      data: {
        organizationId: accountOf(actor),
        email: input.email,
        role: input.role,
        tokenHash: hashInvitationToken(token),
        expiresAt: expiry(),
        invitedById: actor.userId,
      },
      include: withInviter,
    });
    await audit(tx, accountOf(actor), {
      action: "invitation.created",
      resourceType: "invitation",
      resourceId: created.id,
      details: { email: created.email, role: created.role },
    });
    return created;
  });
  await deliver(row, token);
  return toInvitation(row);
}

async function findInvitation(actor: Actor, id: string): Promise<Row> {
  const row = await db.invitation.findFirst({ where: { id, organizationId: accountOf(actor) }, include: withInviter });
  if (!row) throw notFound("Invitation");
  return row;
}

/**
 * Changes an invitation only while it is still pending: the condition is in
 * the UPDATE itself, so an accept that lands first wins and this answers 409.
 */
async function updatePending(
  actor: Actor,
  id: string,
  verb: "resent" | "cancelled",
  data: Prisma.InvitationUpdateManyMutationInput,
): Promise<Row> {
  const row = await findInvitation(actor, id);
  const count = await db.$transaction(async (tx) => {
    const changed = await tx.invitation.updateMany({
      where: { id: row.id, organizationId: accountOf(actor), status: "pending", expiresAt: { gt: new Date() } },
      data,
    });
    if (changed.count > 0)
      await audit(tx, accountOf(actor), {
        action: `invitation.${verb}`,
        resourceType: "invitation",
        resourceId: row.id,
        details: { email: row.email, role: row.role },
      });
    return changed.count;
  });
  if (count === 0) {
    const now = await findInvitation(actor, id);
    throw new AppError("invalid_state", `Only a pending invitation can be ${verb}; this one is ${statusOf(now)}`);
  }
  return findInvitation(actor, id);
}

/** A new link (the old one stops working), a fresh 7 days, and the email again. */
export async function resendInvitation(actor: Actor, id: string): Promise<Invitation> {
  assertCan(actor, "account");
  const token = newInvitationToken();
  const updated = await updatePending(actor, id, "resent", { tokenHash: hashInvitationToken(token), expiresAt: expiry() });
  await deliver(updated, token);
  return toInvitation(updated);
}

export async function cancelInvitation(actor: Actor, id: string): Promise<Invitation> {
  assertCan(actor, "account");
  return toInvitation(await updatePending(actor, id, "cancelled", { status: "cancelled", cancelledAt: new Date() }));
}

async function deliver(row: Row, token: string) {
  const org = await db.organization.findUniqueOrThrow({ where: { id: row.organizationId }, select: { name: true } });
  const link = inviteLink(token);
  const body = layoutEmail({
    heading: `Join ${org.name} on Coverdesk`,
    paragraphs: [
      `${row.invitedBy.name} (${row.invitedBy.email}) invited you to join ${org.name} as ${row.role === "ADMIN" ? "an admin" : "a member"}.`,
      `The invitation is valid for ${VALID_DAYS} days.`,
    ],
    action: { label: "Accept the invitation", url: link },
    footer: "If you did not expect this email, you can ignore it.",
  });
  try {
    await sendEmail({ to: row.email, subject: `${row.invitedBy.name} invited you to ${org.name} on Coverdesk`, link, ...body });
  } catch (err) {
    // The invitation stands; the admin can resend it.
    logger.error({ err, invitationId: row.id }, "could not send the invitation email");
  }
}

async function findByToken(token: string) {
  if (!looksLikeInvitationToken(token)) return null;
  return db.invitation.findUnique({
    where: { tokenHash: hashInvitationToken(token) },
    include: { ...withInviter, organization: { select: { name: true } } },
  });
}

/** What the acceptance page shows; null for an unknown or replaced token. */
export async function previewInvitation(token: string): Promise<InvitationPreview | null> {
  const row = await findByToken(token);
  if (!row) return null;
  return {
    status: statusOf(row),
    email: row.email,
    role: row.role,
    organizationName: row.organization.name,
    inviterName: row.invitedBy.name,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The signed-in user joins with the invited role; the organization becomes their active one. */
export async function acceptInvitation(user: { id: string; email: string }, token: string): Promise<{ organizationId: string }> {
  const found = await findByToken(token);
  if (!found) throw notFound("Invitation");
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<InvitationRow[]>`SELECT * FROM invitation WHERE id = ${found.id} FOR UPDATE`;
    if (!row) throw notFound("Invitation");
    const status = statusOf(row);
    if (status !== "pending") throw new AppError("invalid_state", `This invitation is ${status}`);
    if (row.email.toLowerCase() !== user.email.toLowerCase()) {
      throw new AppError("forbidden", `This invitation is for ${row.email}; you are signed in as ${user.email}`);
    }
    await tx.member.upsert({
      where: { organizationId_userId: { organizationId: row.organizationId, userId: user.id } },
      create: { organizationId: row.organizationId, userId: user.id, role: row.role },
      update: {},
    });
    await tx.invitation.update({ where: { id: row.id }, data: { status: "accepted", acceptedAt: new Date() } });
    await tx.user.update({ where: { id: user.id }, data: { activeOrganizationId: row.organizationId } });
    await audit(tx, row.organizationId, {
      action: "invitation.accepted",
      resourceType: "invitation",
      resourceId: row.id,
      details: { email: row.email, role: row.role, userId: user.id },
    });
    return { organizationId: row.organizationId };
  });
}
