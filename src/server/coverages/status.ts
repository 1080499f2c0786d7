// The one rule of a coverage's status, used by every list, count and event:
// cancelled once cancelled (until a new purchase starts a new period);
// otherwise active while its end is in the future, expired from its end on (a
// coverage ending at 12:00:00.000 is expired at 12:00:00.000).
import type { Prisma } from "@/generated/prisma/client";
import type { CoverageStatus } from "@/lib/schemas/coverages";

type Dated = { endsAt: Date; cancelledAt: Date | null };

export const isActiveAt = (row: Dated, now: Date): boolean => row.cancelledAt === null && row.endsAt.getTime() > now.getTime();

export const coverageStatus = (row: Dated, now: Date): CoverageStatus =>
  row.cancelledAt !== null ? "cancelled" : isActiveAt(row, now) ? "active" : "expired";

/** The coverages active at `now`, as a Prisma filter. */
export const activeAt = (now: Date) => ({ cancelledAt: null, endsAt: { gt: now } }) satisfies Prisma.CoverageWhereInput;

/** The coverages expired at `now` (ended, not cancelled), as a Prisma filter. */
export const expiredAt = (now: Date) => ({ cancelledAt: null, endsAt: { lte: now } }) satisfies Prisma.CoverageWhereInput;

/** The cancelled coverages, as a Prisma filter. */
export const cancelled = (_now?: Date) => ({ cancelledAt: { not: null } }) satisfies Prisma.CoverageWhereInput;
