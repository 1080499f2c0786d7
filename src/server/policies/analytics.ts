// Sales and performance of one policy. The figures come from the payments,
// coverages, claims and ledger tables; a policy nobody bought answers zeros
// from the same queries.
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import type { PolicyAnalytics } from "./schemas";
import { findPolicy } from "./service";

const SERIES_DAYS = 30;
const DAY_MS = 86_400_000;

const ratio = (part: bigint | number, whole: bigint | number) =>
  Number(whole) === 0 ? null : Math.round((Number(part) / Number(whole)) * 10_000) / 10_000;

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

export async function getPolicyAnalytics(actor: Actor, policyId: string, now = new Date()): Promise<PolicyAnalytics> {
  assertCan(actor, "read");
  const policy = await findPolicy(actor, policyId);
  const scope = { organizationId: actor.organizationId, policyId: policy.id };
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (SERIES_DAYS - 1) * DAY_MS);

  const [coverages, active, ledger, claims, payments, paidByDay, boughtByDay] = await Promise.all([
    db.coverage.aggregate({ where: scope, _count: { _all: true }, _sum: { renewalCount: true } }),
    db.coverage.count({ where: { ...scope, endsAt: { gt: now } } }),
    db.ledgerTransaction.groupBy({ by: ["type"], where: scope, _sum: { amountMinor: true } }),
    db.claim.groupBy({ by: ["status"], where: scope, _count: { _all: true }, _sum: { amountMinor: true } }),
    db.payment.groupBy({ by: ["status"], where: scope, _count: { _all: true } }),
    db.$queryRaw<{ day: Date; n: number; gross: bigint }[]>`
      SELECT date_trunc('day', "paidAt") AS day, count(*)::int AS n, coalesce(sum("amountMinor"), 0)::bigint AS gross
      FROM payment
      WHERE "organizationId" = ${scope.organizationId} AND "policyId" = ${scope.policyId}
        AND status = 'success' AND "paidAt" >= ${since}
      GROUP BY 1`,
    db.$queryRaw<{ day: Date; n: number }[]>`
      SELECT date_trunc('day', "createdAt") AS day, count(*)::int AS n
      FROM coverage
      WHERE "organizationId" = ${scope.organizationId} AND "policyId" = ${scope.policyId} AND "createdAt" >= ${since}
      GROUP BY 1`,
  ]);

  const sumOf = (type: string) => ledger.find((l) => l.type === type)?._sum.amountMinor ?? 0n;
  const gross = sumOf("payment");
  const fees = -sumOf("fee");
  const claimCount = claims.reduce((n, c) => n + c._count._all, 0);
  const claimAmount = claims.reduce((n, c) => n + (c._sum.amountMinor ?? 0n), 0n);
  const losses = claims
    .filter((c) => c.status === "approved" || c.status === "paid")
    .reduce((n, c) => n + (c._sum.amountMinor ?? 0n), 0n);
  const initialized = payments.reduce((n, p) => n + p._count._all, 0);
  const succeeded = payments.find((p) => p.status === "success")?._count._all ?? 0;

  const paid = new Map(paidByDay.map((r) => [dayKey(new Date(r.day)), r]));
  const bought = new Map(boughtByDay.map((r) => [dayKey(new Date(r.day)), Number(r.n)]));
  const series = Array.from({ length: SERIES_DAYS }, (_, i) => {
    const date = dayKey(new Date(since.getTime() + i * DAY_MS));
    const purchases = bought.get(date) ?? 0;
    const payments = Number(paid.get(date)?.n ?? 0);
    return {
      date,
      purchases,
      renewals: Math.max(0, payments - purchases),
      gross: formatMinor(BigInt(paid.get(date)?.gross ?? 0n)),
    };
  });

  return {
    currency: policy.currency,
    purchases: coverages._count._all,
    renewals: coverages._sum.renewalCount ?? 0,
    activeCoverages: active,
    revenue: { gross: formatMinor(gross), fees: formatMinor(fees), net: formatMinor(gross - fees) },
    claims: { count: claimCount, amount: formatMinor(claimAmount) },
    lossRatio: ratio(losses, gross),
    conversionRate: ratio(succeeded, initialized),
    series,
  };
}
