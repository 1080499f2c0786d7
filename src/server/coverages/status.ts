// The one rule of a coverage's status, used by every list, count and event:
// cancelled once cancelled (until a new purchase starts a new period);
// otherwise active while its end is in the future; past_due after its end
// while an auto-renewing cover's renewal is unpaid and its grace period runs
// (still valid cover); expired from then on (a coverage ending at
// 12:00:00.000 is expired — or past_due — at 12:00:00.000).
import type { Prisma } from "@/generated/prisma/client";
import type { CoverageStatus } from "@/lib/schemas/coverages";

type Dated = { endsAt: Date; cancelledAt: Date | null; graceEndsAt?: Date | null };

const inGrace = (row: Dated, now: Date) => row.graceEndsAt != null && row.graceEndsAt.getTime() > now.getTime();

/** Valid cover at `now`: active, or past_due (an unpaid renewal's grace period). */
export const isActiveAt = (row: Dated, now: Date): boolean =>
  row.cancelledAt === null && (row.endsAt.getTime() > now.getTime() || inGrace(row, now));

export const coverageStatus = (row: Dated, now: Date): CoverageStatus =>
  row.cancelledAt !== null
    ? "cancelled"
    : row.endsAt.getTime() > now.getTime()
      ? "active"
      : inGrace(row, now)
        ? "past_due"
        : "expired";

/** The coverages active at `now` (their period not ended), as a Prisma filter. */
export const activeAt = (now: Date) => ({ cancelledAt: null, endsAt: { gt: now } }) satisfies Prisma.CoverageWhereInput;

/** The coverages past due at `now`: period ended, renewal unpaid, grace period running. */
export const pastDueAt = (now: Date) =>
  ({ cancelledAt: null, endsAt: { lte: now }, graceEndsAt: { gt: now } }) satisfies Prisma.CoverageWhereInput;

/** Valid cover at `now` (active or past due), as a Prisma filter. */
export const validAt = (now: Date) =>
  ({ cancelledAt: null, OR: [{ endsAt: { gt: now } }, { graceEndsAt: { gt: now } }] }) satisfies Prisma.CoverageWhereInput;

/** The coverages expired at `now` (ended, not cancelled, no grace left), as a Prisma filter. */
export const expiredAt = (now: Date) =>
  ({
    cancelledAt: null,
    endsAt: { lte: now },
    OR: [{ graceEndsAt: null }, { graceEndsAt: { lte: now } }],
  }) satisfies Prisma.CoverageWhereInput;

/** The cancelled coverages, as a Prisma filter. */
export const cancelled = (_now?: Date) => ({ cancelledAt: { not: null } }) satisfies Prisma.CoverageWhereInput;
