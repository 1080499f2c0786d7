// The loss ratio, one definition for every page that shows it (home,
// analytics, a policy's page): the approved and paid claims filed in the range
// — the approved amount where one was set, else the amount claimed — divided
// by the premium taken in the same range less what was refunded of it. null
// when there is no premium to compare with.
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { ratio } from "./service";

export interface LossRatioScope {
  organizationId: string;
  /** One policy's, else the organization's. */
  policyId?: string;
}

/** A range of UTC days as instants: [start, end). null: all time. */
export type LossRatioRange = { start: Date; end: Date } | null;

export const LOSS_RATIO_DEFINITION = "approved and paid claims ÷ (premium − refunds)";

export async function lossRatio(scope: LossRatioScope, range: LossRatioRange): Promise<number | null> {
  const policy = scope.policyId ? Prisma.sql`AND "policyId" = ${scope.policyId}` : Prisma.empty;
  const filed = range ? Prisma.sql`AND "createdAt" >= ${range.start} AND "createdAt" < ${range.end}` : Prisma.empty;
  const days = range ? Prisma.sql`AND day >= ${range.start}::date AND day < ${range.end}::date` : Prisma.empty;
  const rollup = scope.policyId ? Prisma.raw("policy_daily_stats") : Prisma.raw("daily_stats");
  const [[losses], [premium], [refunds]] = await Promise.all([
    db.$queryRaw<{ sum: bigint }[]>`
      SELECT coalesce(sum(coalesce("approvedAmountMinor", "amountMinor")), 0)::bigint AS sum FROM claim
      WHERE "organizationId" = ${scope.organizationId} ${policy} AND status IN ('approved', 'paid') ${filed}`,
    db.$queryRaw<{ sum: bigint }[]>`
      SELECT coalesce(sum("grossMinor"), 0)::bigint AS sum FROM ${rollup}
      WHERE "organizationId" = ${scope.organizationId} ${policy} ${days}`,
    // Refunds are debits (negative), their failures credits: the sum is minus what stays refunded.
    db.$queryRaw<{ sum: bigint }[]>`
      SELECT coalesce(sum("amountMinor"), 0)::bigint AS sum FROM ledger_transaction
      WHERE "organizationId" = ${scope.organizationId} ${policy} AND type IN ('refund', 'refund_reversal') ${filed}`,
  ]);
  return ratio(BigInt(losses?.sum ?? 0n), BigInt(premium?.sum ?? 0n) + BigInt(refunds?.sum ?? 0n));
}
