// Platform administration: the people who run Coverdesk review every
// business's KYB. Being a platform admin is a flag on the user, read from the
// database on every call (a session may be older than a revocation); to anyone
// else the admin surface does not exist (404, never 403).
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { RejectKybInput } from "@/lib/schemas/kyb";
import { decideKyb, kybOf } from "@/server/kyb/service";
import type { Page } from "@/server/pagination";
import { decodeQueueCursor, encodeQueueCursor } from "./queue-cursor";
import type { KybQueueInput, KybQueueItem, KybReview } from "@/lib/schemas/admin";

declare const checked: unique symbol;
/** A user just found to be a platform admin: only `requirePlatformAdmin` makes one. */
export interface PlatformAdmin {
  readonly userId: string;
  readonly [checked]: true;
}

export async function isPlatformAdmin(userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { platformAdmin: true } });
  return user?.platformAdmin === true;
}

/** The admin, or 404: the surface is not revealed to anyone else. */
export async function requirePlatformAdmin(userId: string): Promise<PlatformAdmin> {
  if (!(await isPlatformAdmin(userId))) throw new AppError("not_found", "Not found");
  return { userId } as PlatformAdmin;
}

interface QueueRow {
  organizationId: string;
  organizationName: string;
  organizationEmail: string | null;
  status: KybQueueItem["status"];
  submittedAt: Date | null;
  reviewedAt: Date | null;
  rank: number;
  sortAt: Date;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Organizations that have submitted, pending first, then oldest submission
 * first (organization id breaks ties), so the cursor is a strict position.
 * Test twins are not reviewed: test mode approves at once.
 */
export async function kybQueue(_admin: PlatformAdmin, query: KybQueueInput): Promise<Page<KybQueueItem>> {
  const after = query.cursor ? decodeQueueCursor(query.cursor) : null;
  const rank = Prisma.sql`(CASE WHEN k.status = 'pending' THEN 0 ELSE 1 END)`;
  const sortAt = Prisma.sql`COALESCE(k."submittedAt", 'epoch'::timestamp)`;
  const rows = await db.$queryRaw<QueueRow[]>`
    SELECT k."organizationId", o.name AS "organizationName", o.email AS "organizationEmail", k.status::text AS status,
           k."submittedAt", k."reviewedAt", ${rank}::int AS rank, ${sortAt} AS "sortAt"
    FROM kyb k
    JOIN organization o ON o.id = k."organizationId"
    WHERE k.status <> 'not_submitted' AND o.livemode
      ${query.status ? Prisma.sql`AND k.status = ${query.status}::"KybStatus"` : Prisma.empty}
      ${
        after
          ? Prisma.sql`AND (${rank}, ${sortAt}, k."organizationId") > (${after.rank}::int, ${after.submittedAt.toISOString()}::timestamp, ${after.organizationId})`
          : Prisma.empty
      }
    ORDER BY ${rank}, ${sortAt}, k."organizationId"
    LIMIT ${query.limit + 1}`;
  const more = rows.length > query.limit;
  const slice = more ? rows.slice(0, query.limit) : rows;
  const last = slice[slice.length - 1];
  return {
    data: slice.map((r) => ({
      organizationId: r.organizationId,
      organizationName: r.organizationName,
      organizationEmail: r.organizationEmail,
      status: r.status,
      submittedAt: iso(r.submittedAt),
      reviewedAt: iso(r.reviewedAt),
    })),
    nextCursor:
      more && last
        ? encodeQueueCursor({
            rank: last.rank === 0 ? 0 : 1,
            submittedAt: new Date(last.sortAt),
            organizationId: last.organizationId,
          })
        : null,
  };
}

/** What a reviewer needs to decide: the business, its KYB and its documents, every earlier decision. */
export async function kybReview(_admin: PlatformAdmin, organizationId: string): Promise<KybReview> {
  const [organization, row] = await Promise.all([
    db.organization.findUnique({ where: { id: organizationId }, select: { id: true, name: true, email: true, createdAt: true } }),
    db.kyb.findUnique({ where: { organizationId }, select: { status: true } }),
  ]);
  if (!organization || !row || row.status === "not_submitted")
    throw new AppError("not_found", "No KYB submission for this organization");
  const [kyb, decisions] = await Promise.all([
    kybOf(organizationId),
    db.kybDecision.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 100,
      include: { reviewer: { select: { name: true, email: true } } },
    }),
  ]);
  return {
    organization: { ...organization, createdAt: organization.createdAt.toISOString() },
    kyb,
    decisions: decisions.map((d) => ({
      id: d.id,
      decision: d.decision as "approved" | "rejected",
      reason: d.reason,
      reviewer: d.reviewer,
      createdAt: d.createdAt.toISOString(),
    })),
  };
}

export const approveKyb = (admin: PlatformAdmin, organizationId: string) =>
  decideKyb(admin.userId, organizationId, { status: "approved" });

export const rejectKyb = (admin: PlatformAdmin, input: RejectKybInput) =>
  decideKyb(admin.userId, input.organizationId, { status: "rejected", reason: input.reason });
