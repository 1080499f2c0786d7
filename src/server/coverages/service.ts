// Customers' coverages: created by the first successful payment of (policy,
// email), extended by each later one. Status is computed from the dates and
// the cancellation (cancel.ts).
import type { Coverage as CoverageRow, Prisma } from "@/generated/prisma/client";
import { assertCan, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import type { Coverage, ListCoveragesQuery } from "@/lib/schemas/coverages";
import { activeAt, cancelled, coverageStatus, expiredAt } from "./status";

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
});

const STATUS_FILTER = { active: activeAt, expired: expiredAt, cancelled } as const;

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
