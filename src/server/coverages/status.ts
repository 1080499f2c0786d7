// The one rule of a coverage's status, used by every list, count and event:
// active while its end is in the future, expired from its end on (a coverage
// ending at 12:00:00.000 is expired at 12:00:00.000).
import type { Prisma } from "@/generated/prisma/client";
import type { CoverageStatus } from "@/lib/schemas/coverages";

export const isActiveAt = (endsAt: Date, now: Date): boolean => endsAt.getTime() > now.getTime();

export const coverageStatus = (endsAt: Date, now: Date): CoverageStatus => (isActiveAt(endsAt, now) ? "active" : "expired");

/** The coverages active at `now`, as a Prisma filter. */
export const activeAt = (now: Date) => ({ endsAt: { gt: now } }) satisfies Prisma.CoverageWhereInput;

/** The coverages expired at `now`, as a Prisma filter. */
export const expiredAt = (now: Date) => ({ endsAt: { lte: now } }) satisfies Prisma.CoverageWhereInput;
