// Customers' coverages: created by the first successful payment of (policy,
// email), extended by each later one. Status is computed from the dates and
// the cancellation (cancel.ts).
import type { Coverage as CoverageRow, Prisma } from "@/generated/prisma/client";
import { assertCan, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import type { Coverage, ListCoveragesQuery, SavedCard } from "@/lib/schemas/coverages";
import { activeAt, cancelled, coverageStatus, expiredAt, pastDueAt } from "./status";

export const toCoverage = (row: CoverageRow, now = new Date()): Coverage => ({
  id: row.id,
  policyId: row.policyId,
  customerEmail: row.customerEmail,
  status: coverageStatus(row, now),
  startsAt: row.startsAt.toISOString(),
  periodStartsAt: row.periodStartsAt.toISOString(),
  endsAt: row.endsAt.toISOString(),
  renewalCount: row.renewalCount,
  certificateNumber: row.certificateNumber,
  cancelledAt: row.cancelledAt?.toISOString() ?? null,
  cancellationReason: row.cancellationReason,
  autoRenew: row.autoRenew,
  card: savedCardOf(row),
  graceEndsAt: row.graceEndsAt?.toISOString() ?? null,
});

/** What is shown of a coverage's saved card (never its authorization). */
export const savedCardOf = (row: {
  cardLast4: string | null;
  cardBrand: string | null;
  cardExpMonth: number | null;
  cardExpYear: number | null;
}): SavedCard | null =>
  row.cardLast4 && row.cardExpMonth != null && row.cardExpYear != null
    ? { brand: row.cardBrand ?? "card", last4: row.cardLast4, expMonth: row.cardExpMonth, expYear: row.cardExpYear }
    : null;

const STATUS_FILTER = { active: activeAt, past_due: pastDueAt, expired: expiredAt, cancelled } as const;

export async function listCoverages(actor: Actor, query: ListCoveragesQuery, now = new Date()): Promise<Page<Coverage>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const where: Prisma.CoverageWhereInput = {
    organizationId: actor.organizationId,
    ...(query.policyId ? { policyId: query.policyId } : {}),
    ...(query.status ? STATUS_FILTER[query.status](now) : {}),
    ...args.where,
  };
  const rows = await db.coverage.findMany({ ...args, where });
  return toPage(rows, query, (r) => toCoverage(r, now));
}
