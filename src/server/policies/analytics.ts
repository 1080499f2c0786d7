// Sales and performance of one policy over a range of UTC days, read from the
// policy's daily rollup (policy_daily_stats, kept by triggers), plus two small
// indexed reads: its active coverages now and the claims it paid or approved.
// A policy nobody bought answers zeros from the same queries.
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import type { PolicyAnalyticsQuery } from "@/lib/schemas/analytics";
import { bucketsOf, bucketStart, ratio, resolveRange } from "@/server/analytics/service";
import { lossRatio } from "@/server/analytics/loss-ratio";
import { db } from "@/server/db/client";
import { validAt } from "@/server/coverages/status";
import type { PolicyAnalytics } from "@/lib/schemas/policies";
import { findPolicy } from "./service";

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

export async function getPolicyAnalytics(
  actor: Actor,
  policyId: string,
  query: Partial<PolicyAnalyticsQuery> = {},
  now = new Date(),
): Promise<PolicyAnalytics> {
  assertCan(actor, "read");
  const range = resolveRange(query, now);
  const granularity = query.granularity ?? "day";
  const policy = await findPolicy(actor, policyId);
  const scope = { organizationId: actor.organizationId, policyId: policy.id };

  const [days, active, losses] = await Promise.all([
    db.policyDailyStats.findMany({ where: { ...scope, day: { gte: range.start, lt: range.end } } }),
    db.coverage.count({ where: { ...scope, ...validAt(now) } }),
    // The rollup counts claims filed, not how their review ended: the one loss ratio (analytics/loss-ratio.ts).
    lossRatio(scope, range),
  ]);

  const t = { created: 0, succeeded: 0, gross: 0n, fees: 0n, purchases: 0, renewals: 0, claims: 0, claimed: 0n };
  const buckets = new Map(bucketsOf(range, granularity).map((b) => [b, { purchases: 0, renewals: 0, gross: 0n }]));
  for (const d of days) {
    t.created += d.paymentsCreated;
    t.succeeded += d.paymentsSucceeded;
    t.gross += d.grossMinor;
    t.fees += d.feesMinor;
    t.purchases += d.purchases;
    t.renewals += d.renewals;
    t.claims += d.claimsFiled;
    t.claimed += d.claimedMinor;
    const b = buckets.get(bucketStart(dayKey(d.day), granularity))!;
    b.purchases += d.purchases;
    b.renewals += d.renewals;
    b.gross += d.grossMinor;
  }

  return {
    currency: policy.currency,
    from: range.from,
    to: range.to,
    granularity,
    purchases: t.purchases,
    renewals: t.renewals,
    activeCoverages: active,
    revenue: {
      gross: formatMinor(t.gross, policy.currency),
      fees: formatMinor(t.fees, policy.currency),
      net: formatMinor(t.gross - t.fees, policy.currency),
    },
    claims: { count: t.claims, amount: formatMinor(t.claimed, policy.currency) },
    lossRatio: losses,
    conversionRate: ratio(t.succeeded, t.created),
    series: [...buckets].map(([date, b]) => ({
      date,
      purchases: b.purchases,
      renewals: b.renewals,
      gross: formatMinor(b.gross, policy.currency),
    })),
  };
}
