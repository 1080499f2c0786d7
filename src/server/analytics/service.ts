// Analytics read from the pre-aggregated tables (daily_stats,
// policy_daily_stats, api_usage_hourly) plus small indexed counts, so every answer
// costs a few hundred rows whatever the number of payments.
import { cache } from "react";
import { M } from "@/lib/messages";
import { Prisma } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { accountOf, assertCan, isLive, type Actor } from "@/server/actor";
import { toClaim } from "@/server/claims/service";
import { displayMoney } from "@/lib/money";
import { countValidCoverages } from "@/server/coverages/active-count";
import { db } from "@/server/db/client";
import { lossRatio } from "./loss-ratio";
import { dayEnd, dayStart, MAX_SERIES_DAYS } from "@/lib/schemas/earnings";
import { AppError } from "@/server/errors";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import { toPayment } from "@/server/payments/dto";
import { addHistograms, emptyHistogram, LATENCY_BUCKETS, percentileMs } from "./metering";
import {
  ACTIVITY_TYPES,
  DEFAULT_RANGE_DAYS,
  MAX_HOURLY_DAYS,
  type ActivityItem,
  type AnalyticsOverview,
  type ApiUsage,
  type DashboardStats,
  type RangeQuery,
  type RevenueAnalytics,
  type RevenueGranularity,
  type RevenueQuery,
  type UsageQuery,
} from "@/lib/schemas/analytics";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const TOP_POLICIES_REVENUE = 20;
const TOP_POLICIES_DASHBOARD = 5;
const RECENT = 5;
/** Element-wise sum of the grouped rows' latency histograms, in one pass. */
const SUM_HISTOGRAMS = Prisma.raw(
  `ARRAY[${Array.from({ length: LATENCY_BUCKETS }, (_, i) => `sum(coalesce("latencyBuckets"[${i + 1}], 0))`).join(", ")}]::float8[]`,
);

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => isoDay(new Date(dayStart(day).getTime() + n * DAY_MS));

/** part / whole with 4 decimals; null when there is nothing to divide by. */
export const ratio = (part: bigint | number, whole: bigint | number): number | null =>
  Number(whole) === 0 ? null : Math.round((Number(part) / Number(whole)) * 10_000) / 10_000;

export interface ResolvedRange {
  from: string;
  to: string;
  /** The first instant of `from` (UTC). */
  start: Date;
  /** The instant after the last of `to`: exclusive. */
  end: Date;
  days: number;
}

const badRange = (path: string, message: string) =>
  new AppError("invalid_query", `${path}: ${message}`, { errors: [{ path, message }] });

/**
 * The UTC days a query covers: `to` defaults to today, `from` to
 * DEFAULT_RANGE_DAYS − 1 days before `to`. The schemas check a range given in
 * full; a range with a default end is checked here (e.g. only `from`, years ago).
 */
export function resolveRange(query: { from?: string; to?: string }, now = new Date()): ResolvedRange {
  const to = query.to ?? isoDay(now);
  const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  const start = dayStart(from);
  const end = dayEnd(to);
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  if (days < 1) throw badRange("from", M.dateOrder);
  if (days > MAX_SERIES_DAYS) throw badRange("to", `the range is at most ${MAX_SERIES_DAYS} days`);
  return { from, to, start, end, days };
}

/**
 * The first day of the bucket holding `day`: itself, the Monday of its ISO
 * week, or the 1st of its month.
 */
export function bucketStart(day: string, granularity: RevenueGranularity): string {
  if (granularity === "month") return `${day.slice(0, 8)}01`;
  if (granularity === "week") return addDays(day, -((dayStart(day).getUTCDay() + 6) % 7));
  return day;
}

/**
 * Every bucket the range touches, in order. A bucket is named by its own first
 * day even when the range starts inside it (a week starting on the Monday
 * before `from`, a month on the 1st): the same week or month always has the
 * same date whatever the range, so series of two ranges line up. Such a first
 * (or last) bucket counts only the days inside the range.
 */
export function bucketsOf(range: Pick<ResolvedRange, "from" | "to">, granularity: RevenueGranularity): string[] {
  const out: string[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const b = bucketStart(day, granularity);
    if (out[out.length - 1] !== b) out.push(b);
  }
  return out;
}

/** The organization's currency: read once per server render (home's figures each need it), else per call. */
const currencyOf = cache(
  async (organizationId: string) =>
    (await db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { currency: true } })).currency,
);

const money = (gross: bigint, fees: bigint, currency: string) => ({
  gross: formatMinor(gross, currency),
  fees: formatMinor(fees, currency),
  net: formatMinor(gross - fees, currency),
});

// ---------- overview ----------

export async function getAnalyticsOverview(actor: Actor, now = new Date()): Promise<AnalyticsOverview> {
  assertCan(actor, "read");
  const orgId = actor.organizationId;
  const last30 = resolveRange({}, now);
  const [currency, policies, activePolicies, activeCoverages, claims, [totals], requests, losses] = await Promise.all([
    currencyOf(orgId),
    db.policy.count({ where: { organizationId: orgId } }),
    db.policy.count({ where: { organizationId: orgId, isActive: true } }),
    countValidCoverages(orgId, now),
    db.claim.groupBy({ by: ["status"], where: { organizationId: orgId }, _count: { _all: true } }),
    db.$queryRaw<{ gross: bigint; gross30: bigint; created: bigint; succeeded: bigint; failed: bigint }[]>`
      SELECT
        coalesce(sum("grossMinor"), 0)::bigint AS gross,
        coalesce(sum("grossMinor") FILTER (WHERE day >= ${last30.from}::date AND day <= ${last30.to}::date), 0)::bigint AS gross30,
        coalesce(sum("paymentsCreated"), 0)::bigint AS created,
        coalesce(sum("paymentsSucceeded"), 0)::bigint AS succeeded,
        coalesce(sum("paymentsFailed"), 0)::bigint AS failed
      FROM daily_stats WHERE "organizationId" = ${orgId}`,
    db.apiUsageHourly.aggregate({
      where: { organizationId: orgId, hour: { gte: last30.start, lt: last30.end } },
      _sum: { requests: true },
    }),
    lossRatio({ organizationId: orgId }, null),
  ]);
  const claimsOf = (s: string) => claims.find((c) => c.status === s)?._count._all ?? 0;
  const created = Number(totals?.created ?? 0n);
  const succeeded = Number(totals?.succeeded ?? 0n);
  const failed = Number(totals?.failed ?? 0n);
  return {
    currency,
    policies: { total: policies, active: activePolicies },
    coverages: { active: activeCoverages },
    revenue: {
      total: formatMinor(BigInt(totals?.gross ?? 0n), currency),
      last30Days: formatMinor(BigInt(totals?.gross30 ?? 0n), currency),
    },
    claims: {
      total: claims.reduce((n, c) => n + c._count._all, 0),
      submitted: claimsOf("submitted"),
      underReview: claimsOf("under_review"),
      approved: claimsOf("approved"),
      rejected: claimsOf("rejected"),
      paid: claimsOf("paid"),
      lossRatio: losses,
    },
    payments: {
      total: created,
      succeeded,
      failed,
      pending: created - succeeded - failed,
      conversionRate: ratio(succeeded, created),
    },
    apiRequests: { last30Days: requests._sum.requests ?? 0 },
  };
}

// ---------- API usage ----------

interface UsageRow {
  apiKeyId: string;
  method: string;
  route: string;
  requests: bigint;
  errors: bigint;
  serverErrors: bigint;
  hist: number[];
  keyName: string | null;
  keyPrefix: string | null;
}

interface UsageSum {
  requests: number;
  errors: number;
  serverErrors: number;
  hist: number[];
}

const emptyUsage = (): UsageSum => ({ requests: 0, errors: 0, serverErrors: 0, hist: emptyHistogram() });

function addUsage(into: UsageSum, row: UsageRow): UsageSum {
  into.requests += Number(row.requests);
  into.errors += Number(row.errors);
  into.serverErrors += Number(row.serverErrors);
  addHistograms(into.hist, row.hist);
  return into;
}

const usageFigures = (u: UsageSum) => ({
  requests: u.requests,
  errors: u.errors,
  serverErrors: u.serverErrors,
  errorRate: ratio(u.errors, u.requests),
  p50Ms: percentileMs(u.hist, 0.5),
  p95Ms: percentileMs(u.hist, 0.95),
});

const byRequestsThen =
  <T extends { requests: number }>(key: (t: T) => string) =>
  (a: T, b: T) =>
    b.requests - a.requests || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

export async function getApiUsage(actor: Actor, query: UsageQuery, now = new Date()): Promise<ApiUsage> {
  assertCan(actor, "read");
  const orgId = actor.organizationId;
  const range = resolveRange(query, now);
  const granularity = query.granularity ?? "day";
  if (granularity === "hour" && range.days > MAX_HOURLY_DAYS) {
    throw badRange("granularity", `hourly series cover at most ${MAX_HOURLY_DAYS} days`);
  }
  // Hours, not minutes: a month is at most 744 rows per key and route.
  const inRange = Prisma.sql`"organizationId" = ${orgId} AND hour >= ${range.start} AND hour < ${range.end}`;
  const unit = granularity === "hour" ? Prisma.sql`'hour'` : Prisma.sql`'day'`;

  // One row per (key, method, route) with its latency histogram summed in the
  // same pass, in the database: the rows never reach this process.
  const [rows, series] = await Promise.all([
    db.$queryRaw<UsageRow[]>`
      SELECT g."apiKeyId", g.method, g.route, g.requests, g.errors, g."serverErrors", g.hist,
        k.name AS "keyName", k.prefix AS "keyPrefix"
      FROM (
        SELECT "apiKeyId", method, route, sum(requests)::bigint AS requests, sum(errors)::bigint AS errors,
          sum("serverErrors")::bigint AS "serverErrors", ${SUM_HISTOGRAMS} AS hist
        FROM api_usage_hourly WHERE ${inRange}
        GROUP BY 1, 2, 3
      ) g
      LEFT JOIN api_key k ON k.id = g."apiKeyId" AND k."organizationId" = ${orgId}`,
    db.$queryRaw<{ bucket: Date; requests: bigint; errors: bigint }[]>`
      SELECT date_trunc(${unit}, hour) AS bucket, sum(requests)::bigint AS requests, sum(errors)::bigint AS errors
      FROM api_usage_hourly WHERE ${inRange}
      GROUP BY 1`,
  ]);

  const totals = emptyUsage();
  const endpoints = new Map<string, UsageSum & { method: string; route: string }>();
  const keys = new Map<string, UsageSum & { apiKeyId: string; name: string | null; prefix: string | null }>();
  for (const row of rows) {
    addUsage(totals, row);
    const e = `${row.method} ${row.route}`;
    if (!endpoints.has(e)) endpoints.set(e, { ...emptyUsage(), method: row.method, route: row.route });
    addUsage(endpoints.get(e)!, row);
    if (!keys.has(row.apiKeyId)) {
      keys.set(row.apiKeyId, { ...emptyUsage(), apiKeyId: row.apiKeyId, name: row.keyName, prefix: row.keyPrefix });
    }
    addUsage(keys.get(row.apiKeyId)!, row);
  }

  const step = granularity === "hour" ? HOUR_MS : DAY_MS;
  const byBucket = new Map(series.map((s) => [new Date(s.bucket).getTime(), s]));
  const points = Math.round((range.end.getTime() - range.start.getTime()) / step);

  return {
    from: range.from,
    to: range.to,
    granularity,
    totals: usageFigures(totals),
    endpoints: [...endpoints.values()]
      .sort(byRequestsThen((e) => `${e.route} ${e.method}`))
      .map((e) => ({ method: e.method, route: e.route, ...usageFigures(e) })),
    keys: [...keys.values()]
      .sort(byRequestsThen((k) => k.apiKeyId))
      .map((k) => ({ apiKeyId: k.apiKeyId, name: k.name, prefix: k.prefix, ...usageFigures(k) })),
    series: Array.from({ length: points }, (_, i) => {
      const at = range.start.getTime() + i * step;
      const s = byBucket.get(at);
      return { bucket: new Date(at).toISOString(), requests: Number(s?.requests ?? 0n), errors: Number(s?.errors ?? 0n) };
    }),
  };
}

// ---------- revenue ----------

interface PolicyTotals {
  policyId: string;
  name: string;
  gross: bigint;
  fees: bigint;
  payments: bigint;
}

/**
 * The `limit` policies with the highest gross over the days, with their names.
 * Home asks for the dashboard's five and the revenue's twenty in one render:
 * summed once per server render (React's `cache`, scoped to the request; a
 * call from a route handler is not cached), as the twenty and cut — the
 * order is total, so the first five of the twenty are the five. At 1 M
 * payments it is the heaviest statement of that page (~20–40 ms of the
 * database's CPU).
 */
function topPolicies(organizationId: string, range: Pick<ResolvedRange, "from" | "to">, limit: number) {
  if (limit > TOP_POLICIES_REVENUE) return policyTotals(organizationId, range.from, range.to, limit);
  return policyTotalsOnce(organizationId, range.from, range.to).then((rows) => rows.slice(0, limit));
}

const policyTotalsOnce = cache((organizationId: string, from: string, to: string) =>
  policyTotals(organizationId, from, to, TOP_POLICIES_REVENUE),
);

/** The policies with the highest gross over the days, with their names (one query). */
function policyTotals(organizationId: string, from: string, to: string, limit: number) {
  const range = { from, to };
  // Summed per policy first (a hash over the range's rows), then named: grouping by the joined name sorted
  // every row of the range (44 000 at 2 000 policies × 30 days, spilled to disk): 245 ms → 34 ms.
  return db.$queryRaw<PolicyTotals[]>`
    WITH t AS (
      SELECT "policyId", sum("grossMinor") AS gross, sum("feesMinor") AS fees, sum("paymentsSucceeded") AS payments
      FROM policy_daily_stats
      WHERE "organizationId" = ${organizationId} AND day >= ${range.from}::date AND day <= ${range.to}::date
      GROUP BY "policyId"
      HAVING sum("grossMinor") <> 0 OR sum("paymentsSucceeded") <> 0
    )
    SELECT t."policyId", p.name, t.gross::bigint AS gross, t.fees::bigint AS fees, t.payments::bigint AS payments
    FROM t JOIN policy p ON p.id = t."policyId" AND p."organizationId" = ${organizationId}
    ORDER BY t.gross DESC, t.payments DESC, p.name, t."policyId"
    LIMIT ${limit}`;
}

/** The days of the range that have rows, from the organization's daily rollup. */
const dailyRows = (organizationId: string, range: ResolvedRange) =>
  db.dailyStats.findMany({
    where: { organizationId, day: { gte: range.start, lt: range.end } },
    select: { day: true, grossMinor: true, feesMinor: true, paymentsSucceeded: true },
  });

export async function getRevenueAnalytics(actor: Actor, query: RevenueQuery, now = new Date()): Promise<RevenueAnalytics> {
  assertCan(actor, "read");
  const orgId = actor.organizationId;
  const range = resolveRange(query, now);
  const granularity = query.granularity ?? "day";
  const [currency, days, policies] = await Promise.all([
    currencyOf(orgId),
    dailyRows(orgId, range),
    topPolicies(orgId, range, TOP_POLICIES_REVENUE),
  ]);

  const buckets = new Map(bucketsOf(range, granularity).map((b) => [b, { gross: 0n, fees: 0n, payments: 0 }]));
  const total = { gross: 0n, fees: 0n, payments: 0 };
  for (const d of days) {
    const b = buckets.get(bucketStart(isoDay(d.day), granularity))!;
    for (const into of [b, total]) {
      into.gross += d.grossMinor;
      into.fees += d.feesMinor;
      into.payments += d.paymentsSucceeded;
    }
  }
  return {
    currency,
    from: range.from,
    to: range.to,
    granularity,
    totals: { ...money(total.gross, total.fees, currency), payments: total.payments },
    series: [...buckets].map(([date, b]) => ({ date, ...money(b.gross, b.fees, currency), payments: b.payments })),
    byPolicy: policies.map((p) => ({
      policyId: p.policyId,
      name: p.name,
      ...money(BigInt(p.gross), BigInt(p.fees), currency),
      payments: Number(p.payments),
    })),
  };
}

// ---------- dashboard ----------

export async function getDashboardStats(actor: Actor, query: RangeQuery, now = new Date()): Promise<DashboardStats> {
  assertCan(actor, "read");
  const orgId = actor.organizationId;
  const range = resolveRange(query, now);
  // The same number of days, ending the day before `from`.
  const previous = { from: addDays(range.from, -range.days), to: addDays(range.from, -1) };
  const [currency, [t], activeCoverages, claims, top, payments, recentClaims, kyb, bank, key, moneyBack, losses] =
    await Promise.all([
      currencyOf(orgId),
      db.$queryRaw<{ current: bigint; sold: bigint; previous: bigint; previousSold: bigint; gross: bigint; balance: bigint }[]>`
      SELECT
        coalesce(sum("grossMinor") FILTER (WHERE day >= ${range.from}::date AND day <= ${range.to}::date), 0)::bigint AS current,
        coalesce(sum("paymentsSucceeded") FILTER (WHERE day >= ${range.from}::date AND day <= ${range.to}::date), 0)::bigint AS sold,
        coalesce(sum("grossMinor") FILTER (WHERE day >= ${previous.from}::date AND day <= ${previous.to}::date), 0)::bigint AS previous,
        coalesce(sum("paymentsSucceeded") FILTER (WHERE day >= ${previous.from}::date AND day <= ${previous.to}::date), 0)::bigint AS "previousSold",
        coalesce(sum("grossMinor"), 0)::bigint AS gross,
        coalesce(sum("grossMinor" - "feesMinor" - "withdrawnMinor" + "reversedMinor"), 0)::bigint AS balance
      FROM daily_stats WHERE "organizationId" = ${orgId}`,
      countValidCoverages(orgId, now),
      db.claim.groupBy({ by: ["status"], where: { organizationId: orgId }, _count: { _all: true }, _sum: { amountMinor: true } }),
      topPolicies(orgId, range, TOP_POLICIES_DASHBOARD),
      db.payment.findMany({ where: { organizationId: orgId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: RECENT }),
      db.claim.findMany({ where: { organizationId: orgId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: RECENT }),
      db.kyb.findUnique({ where: { organizationId: orgId }, select: { status: true } }),
      db.bankAccount.findFirst({ where: { organizationId: orgId, status: "verified", deletedAt: null }, select: { id: true } }),
      // Keys belong to the live organization in both modes; the to-do asks for one of the mode on screen.
      db.apiKey.findFirst({
        where: { organizationId: accountOf(actor), mode: isLive(actor) ? "live" : "test", status: "active" },
        select: { id: true },
      }),
      // Refunds and claim payouts are not in the rollups: their entries, summed (index organizationId, type).
      db.ledgerTransaction.aggregate({
        where: { organizationId: orgId, type: { in: ["refund", "refund_reversal", "claim_payout", "claim_payout_reversal"] } },
        _sum: { amountMinor: true },
      }),
      lossRatio({ organizationId: orgId }, range),
    ]);
  const current = BigInt(t?.current ?? 0n);
  const before = BigInt(t?.previous ?? 0n);
  const claimsOf = (s: string) => claims.find((c) => c.status === s);
  return {
    currency,
    from: range.from,
    to: range.to,
    revenue: {
      current: formatMinor(current, currency),
      previous: formatMinor(before, currency),
      change: ratio(current - before, before),
    },
    policiesSold: { current: Number(t?.sold ?? 0n), previous: Number(t?.previousSold ?? 0n) },
    activeCoverages,
    openClaims: (claimsOf("submitted")?._count._all ?? 0) + (claimsOf("under_review")?._count._all ?? 0),
    lossRatio: losses,
    // The rollups count payments, fees and withdrawals; refunds and claim payouts come from the ledger.
    availableBalance: formatMinor(BigInt(t?.balance ?? 0n) + (moneyBack._sum.amountMinor ?? 0n), currency),
    topPolicies: top.map((p) => ({
      policyId: p.policyId,
      name: p.name,
      sold: Number(p.payments),
      gross: formatMinor(BigInt(p.gross), currency),
    })),
    recentPayments: payments.map(toPayment),
    recentClaims: recentClaims.map(toClaim),
    todos: { kybStatus: kyb?.status ?? "not_submitted", hasVerifiedBankAccount: bank !== null, hasApiKey: key !== null },
  };
}

// ---------- activity ----------

type ActivityType = (typeof ACTIVITY_TYPES)[number];
type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const priced = (amount: string | null, currency: string | null) =>
  amount && currency ? displayMoney(amount, currency) : (amount ?? "an amount");

/**
 * One feed item from what the event recorded (settle.ts writes the payment, and
 * for a purchase or renewal the coverage, the policy and the payment; a claim's
 * event is the claim). Policy names the event does not carry come from `names`.
 */
function toActivity(row: { id: string; type: string; createdAt: Date; data: unknown }, names: Map<string, string>): ActivityItem {
  const type = row.type as ActivityType;
  const data = obj(row.data);
  const policyName = (id: string | null) => (id ? (names.get(id) ?? "a policy") : "a policy");
  const base = { id: row.id, type, createdAt: row.createdAt.toISOString() };
  switch (type) {
    case "policy.purchased":
    case "policy.renewed": {
      const coverage = obj(data.coverage);
      const policy = obj(data.policy);
      const payment = obj(data.payment);
      const policyId = str(policy.id) ?? str(coverage.policyId);
      const who = str(coverage.customerEmail) ?? "A customer";
      const name = str(policy.name) ?? policyName(policyId);
      return {
        ...base,
        summary: `${who} ${type === "policy.purchased" ? "bought" : "renewed"} ${name}`,
        amount: str(payment.amount),
        currency: str(payment.currency),
        href: policyId ? `/policies/${policyId}` : null,
      };
    }
    case "payment.completed": {
      const amount = str(data.amount);
      const currency = str(data.currency);
      return {
        ...base,
        summary: `${str(data.email) ?? "A customer"} paid ${priced(amount, currency)} for ${policyName(str(data.policyId))}`,
        amount,
        currency,
        href: str(data.reference) ? `/payments/${encodeURIComponent(str(data.reference)!)}` : "/payments",
      };
    }
    case "claim.submitted": {
      const amount = str(data.amount);
      const currency = str(data.currency);
      const kind = str(data.type);
      const id = str(data.id);
      return {
        ...base,
        summary: `${kind ? `${kind[0]!.toUpperCase()}${kind.slice(1)} claim` : "A claim"} of ${priced(amount, currency)} filed on ${policyName(str(data.policyId))}`,
        amount,
        currency,
        href: id ? `/claims/${id}` : "/claims",
      };
    }
  }
}

/** The activity feed: purchases, renewals, payments and claims from the events outbox, newest first. */
export async function listActivity(actor: Actor, query: PageQuery): Promise<Page<ActivityItem>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const rows = await db.event.findMany({
    ...args,
    where: { organizationId: actor.organizationId, type: { in: [...ACTIVITY_TYPES] }, ...args.where },
    select: { id: true, type: true, createdAt: true, data: true },
  });
  // Payments and claims name their policy by id: one lookup for the page.
  const ids = new Set<string>();
  for (const r of rows.slice(0, query.limit)) {
    const id = str(obj(r.data).policyId);
    if (id && (r.type === "payment.completed" || r.type === "claim.submitted")) ids.add(id);
  }
  const policies = ids.size
    ? await db.policy.findMany({
        where: { organizationId: actor.organizationId, id: { in: [...ids] } },
        select: { id: true, name: true },
      })
    : [];
  const names = new Map(policies.map((p) => [p.id, p.name]));
  return toPage(rows, query, (r) => toActivity(r, names));
}
