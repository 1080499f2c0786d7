// Analytics: an organization whose every figure is known by construction
// (payments settled, declined and pending through the real checkout, a
// renewal, claims in every status, withdrawals, metered requests), read back
// through each answer; ranges, buckets and previous periods on hand-dated
// rows; another organization never counted; and the triggers' rollups equal to
// what the source rows recompute.
import { beforeAll, describe, expect, it } from "vitest";
import { formatMinor } from "@/lib/money";
import type { Actor } from "@/server/actor";
import { CreateApiKeyInput } from "@/lib/schemas/api-keys";
import { createApiKey, revokeApiKey } from "@/server/api-keys/service";
import { CreateClaimInput } from "@/lib/schemas/claims";
import { getClaim, submitClaim, updateClaimStatus } from "@/server/claims/service";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { checkLedger } from "@/server/ledger/check";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment, listPayments } from "@/server/payments/service";
import { settleWithdrawal } from "@/server/payouts/settle";
import { getPolicyAnalytics } from "@/server/policies/analytics";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy, setPolicyStatus } from "@/server/policies/service";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { availableBalance, requestWithdrawal } from "@/server/withdrawals/service";
import { addMember, ownerWithOrganization, unique } from "@/test/fixtures";
import { approveKyb, bankAccount } from "@/test/money";
import { Meter, type MeteredRequest } from "./metering";
import { ActivityQuery, RangeQuery, RevenueQuery, UsageQuery } from "@/lib/schemas/analytics";
import {
  bucketsOf,
  getAnalyticsOverview,
  getApiUsage,
  getDashboardStats,
  getRevenueAnalytics,
  listActivity,
  resolveRange,
} from "./service";

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const today = () => isoDay(new Date());
const dayOffset = (n: number) => isoDay(new Date(Date.now() + n * DAY_MS));
const at = (day: string, time: string) => new Date(`${day}T${time}Z`);

const card = (cardNumber: string) =>
  CheckoutInput.parse({ cardNumber, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" });

async function pay(
  actor: Actor,
  policy: { id: string; price: string },
  email: string,
  outcome: "success" | "declined" | "pending",
) {
  const payment = await initializePayment(
    actor,
    InitializePaymentInput.parse({ amount: Number(policy.price), policyId: policy.id, email }),
  );
  if (outcome === "success") await payWithCard(payment.reference, card(SANDBOX_CARDS.success));
  if (outcome === "declined") {
    const err = await payWithCard(payment.reference, card(SANDBOX_CARDS.declined)).catch((e: unknown) => e);
    expect((err as AppError).code).toBe("card_declined");
  }
  return payment.reference;
}

async function claim(
  actor: Actor,
  policyId: string,
  amount: number,
  moves: ("under_review" | "approved" | "rejected" | "paid")[],
) {
  const filed = await submitClaim(
    actor,
    CreateClaimInput.parse({ policyId, type: "theft", description: `Claim of ${amount}`, amount }),
  );
  for (const status of moves) await updateClaimStatus(actor, filed.id, { status });
  return filed.id;
}

function meterRequests(organizationId: string, apiKeyId: string) {
  const m = new Meter();
  const r = (over: Partial<MeteredRequest>) =>
    m.record({
      organizationId,
      apiKeyId,
      method: "GET",
      route: "/business/policies",
      status: 200,
      durationMs: 4,
      at: at(today(), "10:15:30"),
      ...over,
    });
  return { m, r };
}

/**
 * Policies "Home Basic" (100.00, bought by alice then renewed, a declined
 * card), "Fleet" (50.00, bought by bob, one pending) and "Unsold" (inactive);
 * claims on Home Basic: 10.00 submitted, 20.00 under review, 30.00 approved,
 * 40.00 rejected, 5.00 paid; withdrawals 40.00 pending and 10.13 failed; an API
 * key with 7 requests today, a deleted key with 2 yesterday, 1 request 40 days ago.
 */
async function busyOrg() {
  const owner = await ownerWithOrganization();
  const { actor, org } = owner;
  const policy = (name: string, price: string, duration: "yearly" | "monthly") =>
    createPolicy(actor, CreatePolicyInput.parse({ name, type: "home", duration, price }));
  const home = await policy("Home Basic", "100.00", "yearly");
  const fleet = await policy("Fleet", "50.00", "monthly");
  const unsold = await policy("Unsold", "20.00", "yearly");
  await setPolicyStatus(actor, unsold.id, false);

  await pay(actor, home, "alice@example.test", "success");
  await pay(actor, home, "alice@example.test", "success");
  await pay(actor, fleet, "bob@example.test", "success");
  await pay(actor, home, "carol@example.test", "declined");
  await pay(actor, fleet, "dave@example.test", "pending");

  const claims = {
    submitted: await claim(actor, home.id, 10, []),
    underReview: await claim(actor, home.id, 20, ["under_review"]),
    approved: await claim(actor, home.id, 30, ["under_review", "approved"]),
    rejected: await claim(actor, home.id, 40, ["under_review", "rejected"]),
    paid: await claim(actor, home.id, 5, ["under_review", "approved", "paid"]),
  };

  await approveKyb(actor);
  const account = await bankAccount(actor);
  await requestWithdrawal(actor, WithdrawInput.parse({ amount: 40, bankAccountId: account.id }));
  const failed = await requestWithdrawal(actor, WithdrawInput.parse({ amount: 10.13, bankAccountId: account.id }));
  const failedRow = await db.withdrawal.findUniqueOrThrow({ where: { id: failed.id } });
  await settleWithdrawal(failedRow.reference, "failed", "The bank refused the transfer");

  const key = await createApiKey(actor, CreateApiKeyInput.parse({ name: "Server key", permissions: ["read", "write"] }));
  const { m, r } = meterRequests(org.id, key.id);
  for (let i = 0; i < 3; i++) r({});
  r({ status: 404, durationMs: 12 });
  r({ method: "POST", route: "/payments/initialize", status: 201, durationMs: 40 });
  r({ method: "POST", route: "/payments/initialize", status: 201, durationMs: 40, at: at(today(), "10:59:59") });
  r({ method: "POST", route: "/payments/initialize", status: 503, durationMs: 400 });
  r({ apiKeyId: "key_deleted", durationMs: 2, at: at(dayOffset(-1), "23:30:00") });
  r({ apiKeyId: "key_deleted", durationMs: 2, at: at(dayOffset(-1), "23:59:59") });
  r({ at: at(dayOffset(-40), "12:00:00") });
  await m.flush();

  return { ...owner, home, fleet, unsold, claims, key };
}

/** Another organization with its own sale, claim, key and requests: never counted above. */
async function otherOrg() {
  const other = await ownerWithOrganization();
  const p = await createPolicy(
    other.actor,
    CreatePolicyInput.parse({ name: "Other", type: "auto", duration: "yearly", price: "999.00" }),
  );
  await pay(other.actor, p, "zed@example.test", "success");
  await claim(other.actor, p.id, 500, ["under_review", "approved"]);
  const { m, r } = meterRequests(other.org.id, "key_other");
  r({});
  await m.flush();
  return other;
}

let busy: Awaited<ReturnType<typeof busyOrg>>;
let other: Awaited<ReturnType<typeof otherOrg>>;

beforeAll(async () => {
  await connectDatabase();
  other = await otherOrg();
  busy = await busyOrg();
}, 120_000);

describe("resolveRange", () => {
  const now = new Date("2026-03-10T15:00:00Z");

  it("defaults to the last 30 days ending today (UTC); `to` is inclusive", () => {
    expect(resolveRange({}, now)).toEqual({
      from: "2026-02-09",
      to: "2026-03-10",
      start: new Date("2026-02-09T00:00:00Z"),
      end: new Date("2026-03-11T00:00:00Z"),
      days: 30,
    });
    expect(resolveRange({ to: "2026-01-05" }, now)).toMatchObject({ from: "2025-12-07", to: "2026-01-05", days: 30 });
    expect(resolveRange({ from: "2026-03-01" }, now)).toMatchObject({ from: "2026-03-01", to: "2026-03-10", days: 10 });
    expect(resolveRange({ from: "2026-03-10", to: "2026-03-10" }, now)).toMatchObject({ days: 1 });
  });

  it("refuses a range with a default end that is reversed or too long (400 invalid_query)", () => {
    for (const bad of [{ from: "2026-03-11" }, { from: "2020-01-01" }]) {
      const err = (() => {
        try {
          return resolveRange(bad, now);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).code).toBe("invalid_query");
    }
    expect(resolveRange({ from: "2025-03-11" }, now).days).toBe(365);
  });

  it("the schemas refuse what the service cannot answer", () => {
    expect(RangeQuery.safeParse({ from: "2026-03-02", to: "2026-03-01" }).success).toBe(false);
    expect(RangeQuery.safeParse({ from: "2025-01-01", to: "2026-01-02" }).success).toBe(false);
    expect(RevenueQuery.safeParse({ granularity: "year" }).success).toBe(false);
    expect(RevenueQuery.parse({}).granularity).toBe("day");
    expect(UsageQuery.safeParse({ granularity: "week" }).success).toBe(false);
    expect(UsageQuery.safeParse({ from: "2026-01-01", to: "2026-02-01", granularity: "hour" }).success).toBe(false);
    expect(UsageQuery.safeParse({ from: "2026-01-01", to: "2026-01-31", granularity: "hour" }).success).toBe(true);
  });
});

describe("buckets", () => {
  it("weeks start on Monday and months on the 1st, named by their first day even before `from`", () => {
    // 2026-03-04 is a Wednesday.
    expect(bucketsOf({ from: "2026-03-04", to: "2026-03-20" }, "week")).toEqual(["2026-03-02", "2026-03-09", "2026-03-16"]);
    expect(bucketsOf({ from: "2026-03-02", to: "2026-03-08" }, "week")).toEqual(["2026-03-02"]);
    expect(bucketsOf({ from: "2025-12-31", to: "2026-01-05" }, "week")).toEqual(["2025-12-29", "2026-01-05"]);
    expect(bucketsOf({ from: "2025-12-15", to: "2026-02-01" }, "month")).toEqual(["2025-12-01", "2026-01-01", "2026-02-01"]);
    expect(bucketsOf({ from: "2024-02-28", to: "2024-03-01" }, "day")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
  });
});

describe("analytics overview", () => {
  it("every figure of a busy organization, for any member", async () => {
    const expected = {
      currency: "NGN",
      policies: { total: 3, active: 2 },
      coverages: { active: 2 },
      revenue: { total: "250.00", last30Days: "250.00" },
      claims: { total: 5, submitted: 1, underReview: 1, approved: 1, rejected: 1, paid: 1, lossRatio: 0.14 }, // (30 + 5) / 250
      payments: { total: 5, succeeded: 3, failed: 1, pending: 1, conversionRate: 0.6 },
      // 7 today and 2 yesterday; the one 40 days ago is outside
      apiRequests: { last30Days: 9 },
    };
    expect(await getAnalyticsOverview(busy.actor)).toEqual(expected);
    const member = await addMember(busy.org.id, "MEMBER");
    expect(await getAnalyticsOverview(member.actor)).toEqual(expected);
  });

  it("the last 30 days move with `now`; all-time totals do not", async () => {
    const later = await getAnalyticsOverview(busy.actor, new Date(Date.now() + 30 * DAY_MS));
    expect(later.revenue).toEqual({ total: "250.00", last30Days: "0.00" });
    expect(later.apiRequests.last30Days).toBe(0);
    // 60 days on, alice's yearly coverage still runs; bob's monthly one has ended.
    expect((await getAnalyticsOverview(busy.actor, new Date(Date.now() + 60 * DAY_MS))).coverages.active).toBe(1);
  });

  it("an organization with nothing: zeros and a null conversion", async () => {
    const { actor } = await ownerWithOrganization();
    expect(await getAnalyticsOverview(actor)).toEqual({
      currency: "NGN",
      policies: { total: 0, active: 0 },
      coverages: { active: 0 },
      revenue: { total: "0.00", last30Days: "0.00" },
      claims: { total: 0, submitted: 0, underReview: 0, approved: 0, rejected: 0, paid: 0, lossRatio: null },
      payments: { total: 0, succeeded: 0, failed: 0, pending: 0, conversionRate: null },
      apiRequests: { last30Days: 0 },
    });
  });

  it("the other organization sees only its own", async () => {
    expect(await getAnalyticsOverview(other.actor)).toMatchObject({
      policies: { total: 1, active: 1 },
      revenue: { total: "999.00", last30Days: "999.00" },
      claims: { total: 1, approved: 1 },
      payments: { total: 1, succeeded: 1, failed: 0, pending: 0, conversionRate: 1 },
      apiRequests: { last30Days: 1 },
    });
  });
});

describe("api usage", () => {
  it("totals, endpoints, keys (a deleted key without name) and a daily series", async () => {
    const usage = await getApiUsage(busy.actor, UsageQuery.parse({}));
    const prefix = (await db.apiKey.findUniqueOrThrow({ where: { id: busy.key.id } })).prefix;
    expect(usage).toEqual({
      from: dayOffset(-29),
      to: today(),
      granularity: "day",
      // latencies: 2 ms ×2, 4 ms ×3, 12 ms, 40 ms ×2, 400 ms
      totals: { requests: 9, errors: 2, serverErrors: 1, errorRate: 0.2222, p50Ms: 4.7, p95Ms: 410 },
      endpoints: [
        {
          method: "GET",
          route: "/business/policies",
          requests: 6,
          errors: 1,
          serverErrors: 0,
          errorRate: 0.1667,
          // 2, 2 | 4, 4, 4 in (3, 5] | 12 in (10, 15]: rank 3 is 1/3 into (3, 5], rank 5.7 is 0.7 into (10, 15]
          p50Ms: 3.7,
          p95Ms: 13.5,
        },
        {
          method: "POST",
          route: "/payments/initialize",
          requests: 3,
          errors: 1,
          serverErrors: 1,
          errorRate: 0.3333,
          // 40, 40 in (30, 50] | 400 in (300, 500]
          p50Ms: 45,
          p95Ms: 470,
        },
      ],
      keys: [
        {
          apiKeyId: busy.key.id,
          name: "Server key",
          prefix,
          requests: 7,
          errors: 2,
          serverErrors: 1,
          errorRate: 0.2857,
          p50Ms: 12.5,
          p95Ms: 430,
        },
        {
          apiKeyId: "key_deleted",
          name: null,
          prefix: null,
          requests: 2,
          errors: 0,
          serverErrors: 0,
          errorRate: 0,
          p50Ms: 1.5,
          p95Ms: 2,
        },
      ],
      series: expect.any(Array),
    });
    expect(usage.series).toHaveLength(30);
    expect(usage.series[0]).toEqual({ bucket: `${dayOffset(-29)}T00:00:00.000Z`, requests: 0, errors: 0 });
    expect(usage.series.at(-2)).toEqual({ bucket: `${dayOffset(-1)}T00:00:00.000Z`, requests: 2, errors: 0 });
    expect(usage.series.at(-1)).toEqual({ bucket: `${today()}T00:00:00.000Z`, requests: 7, errors: 2 });
    expect(usage.series.reduce((n, p) => n + p.requests, 0)).toBe(9);
  });

  it("an hourly series of every hour of the range, zeros included", async () => {
    const usage = await getApiUsage(busy.actor, UsageQuery.parse({ from: dayOffset(-1), granularity: "hour" }));
    expect(usage.granularity).toBe("hour");
    expect(usage.series).toHaveLength(48);
    expect(usage.series[0]!.bucket).toBe(`${dayOffset(-1)}T00:00:00.000Z`);
    expect(usage.series[47]!.bucket).toBe(`${today()}T23:00:00.000Z`);
    const nonZero = usage.series.filter((p) => p.requests > 0);
    expect(nonZero).toEqual([
      { bucket: `${dayOffset(-1)}T23:00:00.000Z`, requests: 2, errors: 0 },
      { bucket: `${today()}T10:00:00.000Z`, requests: 7, errors: 2 },
    ]);
    // Only today: the deleted key's requests were yesterday.
    const todayOnly = await getApiUsage(busy.actor, UsageQuery.parse({ from: today(), to: today(), granularity: "hour" }));
    expect(todayOnly.totals.requests).toBe(7);
    expect(todayOnly.keys.map((k) => k.apiKeyId)).toEqual([busy.key.id]);
    // A range reaching 40 days back counts the old request.
    const wide = await getApiUsage(busy.actor, UsageQuery.parse({ from: dayOffset(-40) }));
    expect(wide.totals.requests).toBe(10);
    expect(wide.series).toHaveLength(41);
  });

  it("an hourly series longer than 31 days with a default end is refused", async () => {
    const err = await getApiUsage(busy.actor, { from: dayOffset(-40), granularity: "hour" }).catch((e: unknown) => e);
    expect((err as AppError).code).toBe("invalid_query");
  });

  it("nothing metered: zeros, null rates and latencies, empty lists", async () => {
    const { actor } = await ownerWithOrganization();
    const usage = await getApiUsage(actor, UsageQuery.parse({ from: dayOffset(-2) }));
    expect(usage).toEqual({
      from: dayOffset(-2),
      to: today(),
      granularity: "day",
      totals: { requests: 0, errors: 0, serverErrors: 0, errorRate: null, p50Ms: null, p95Ms: null },
      endpoints: [],
      keys: [],
      series: [0, 1, 2].map((i) => ({ bucket: `${dayOffset(i - 2)}T00:00:00.000Z`, requests: 0, errors: 0 })),
    });
  });
});

describe("revenue analytics", () => {
  it("gross, fees and net: totals, a daily series with zeros, the policies by gross", async () => {
    const revenue = await getRevenueAnalytics(busy.actor, RevenueQuery.parse({}));
    expect(revenue).toEqual({
      currency: "NGN",
      from: dayOffset(-29),
      to: today(),
      granularity: "day",
      totals: { gross: "250.00", fees: "3.75", net: "246.25", payments: 3 },
      series: expect.any(Array),
      byPolicy: [
        { policyId: busy.home.id, name: "Home Basic", gross: "200.00", fees: "3.00", net: "197.00", payments: 2 },
        { policyId: busy.fleet.id, name: "Fleet", gross: "50.00", fees: "0.75", net: "49.25", payments: 1 },
      ],
    });
    expect(revenue.series).toHaveLength(30);
    expect(revenue.series.map((p) => p.date)).toEqual(Array.from({ length: 30 }, (_, i) => dayOffset(i - 29)));
    expect(revenue.series.at(-1)).toEqual({ date: today(), gross: "250.00", fees: "3.75", net: "246.25", payments: 3 });
    expect(revenue.series.slice(0, -1).every((p) => p.gross === "0.00" && p.fees === "0.00" && p.payments === 0)).toBe(true);
  });

  it("week and month buckets over today's sales", async () => {
    const weeks = await getRevenueAnalytics(busy.actor, RevenueQuery.parse({ from: dayOffset(-20), granularity: "week" }));
    const dates = weeks.series.map((p) => p.date);
    expect(dates.every((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(dates[0]! <= dayOffset(-20)).toBe(true);
    expect(dates[0]! > dayOffset(-27)).toBe(true);
    expect(dates.at(-1)! <= today() && dates.at(-1)! > dayOffset(-7)).toBe(true);
    expect(weeks.series.at(-1)).toMatchObject({ gross: "250.00", payments: 3 });
    expect(weeks.totals).toEqual({ gross: "250.00", fees: "3.75", net: "246.25", payments: 3 });

    const months = await getRevenueAnalytics(busy.actor, RevenueQuery.parse({ from: dayOffset(-40), granularity: "month" }));
    expect(months.series.every((p) => p.date.endsWith("-01"))).toBe(true);
    expect(months.series[0]!.date).toBe(`${dayOffset(-40).slice(0, 7)}-01`);
    expect(months.series.at(-1)).toEqual({
      date: `${today().slice(0, 7)}-01`,
      gross: "250.00",
      fees: "3.75",
      net: "246.25",
      payments: 3,
    });
  });

  it("a range without sales: zeros and no policies", async () => {
    const before = await getRevenueAnalytics(busy.actor, RevenueQuery.parse({ from: dayOffset(-10), to: dayOffset(-1) }));
    expect(before.totals).toEqual({ gross: "0.00", fees: "0.00", net: "0.00", payments: 0 });
    expect(before.series).toHaveLength(10);
    expect(before.byPolicy).toEqual([]);
  });
});

describe("dashboard stats", () => {
  it("every figure of a busy organization; the balance equals the ledger's", async () => {
    const stats = await getDashboardStats(busy.actor, RangeQuery.parse({}));
    const newestPayments = await listPayments(busy.actor, { limit: 5 });
    const newestClaims = await Promise.all(
      [busy.claims.paid, busy.claims.rejected, busy.claims.approved, busy.claims.underReview, busy.claims.submitted].map((id) =>
        getClaim(busy.actor, id),
      ),
    );
    // 250.00 − 3.75 fees − 40.00 pending − 10.13 failed + 10.13 returned
    expect(formatMinor(await availableBalance(busy.org.id), "NGN")).toBe("206.25");
    expect(stats).toEqual({
      currency: "NGN",
      from: dayOffset(-29),
      to: today(),
      revenue: { current: "250.00", previous: "0.00", change: null },
      policiesSold: { current: 3, previous: 0 },
      activeCoverages: 2,
      openClaims: 2,
      // (30.00 approved + 5.00 paid) / 250.00
      lossRatio: 0.14,
      availableBalance: "206.25",
      topPolicies: [
        { policyId: busy.home.id, name: "Home Basic", sold: 2, gross: "200.00" },
        { policyId: busy.fleet.id, name: "Fleet", sold: 1, gross: "50.00" },
      ],
      recentPayments: newestPayments.data,
      recentClaims: newestClaims,
      todos: { kybStatus: "approved", hasVerifiedBankAccount: true, hasApiKey: true },
    });
    expect(stats.recentPayments.map((p) => [p.email, p.status]).sort()).toEqual(
      [
        ["alice@example.test", "success"],
        ["alice@example.test", "success"],
        ["bob@example.test", "success"],
        ["carol@example.test", "failed"],
        ["dave@example.test", "pending"],
      ].sort(),
    );
  });

  it("the previous period is the same number of days just before", async () => {
    const one = await getDashboardStats(busy.actor, RangeQuery.parse({ from: today(), to: today() }));
    expect(one).toMatchObject({ from: today(), to: today(), revenue: { current: "250.00", previous: "0.00", change: null } });
    const tomorrow = await getDashboardStats(busy.actor, RangeQuery.parse({ from: dayOffset(1), to: dayOffset(1) }));
    expect(tomorrow.revenue).toEqual({ current: "0.00", previous: "250.00", change: -1 });
    expect(tomorrow.policiesSold).toEqual({ current: 0, previous: 3 });
    expect(tomorrow.topPolicies).toEqual([]);
    // 35 days on, the default 30 days hold nothing and the 30 before hold today.
    const later = await getDashboardStats(busy.actor, RangeQuery.parse({}), new Date(Date.now() + 35 * DAY_MS));
    expect(later).toMatchObject({
      from: dayOffset(6),
      to: dayOffset(35),
      revenue: { current: "0.00", previous: "250.00", change: -1 },
      policiesSold: { current: 0, previous: 3 },
      availableBalance: "206.25",
      // The loss ratio is the period's: no premium in it, no ratio (SPEC §10).
      lossRatio: null,
    });
  });

  it("a new organization: zeros, nulls, empty lists and everything left to set up", async () => {
    const { actor } = await ownerWithOrganization();
    expect(await getDashboardStats(actor, RangeQuery.parse({}))).toEqual({
      currency: "NGN",
      from: dayOffset(-29),
      to: today(),
      revenue: { current: "0.00", previous: "0.00", change: null },
      policiesSold: { current: 0, previous: 0 },
      activeCoverages: 0,
      openClaims: 0,
      lossRatio: null,
      availableBalance: "0.00",
      topPolicies: [],
      recentPayments: [],
      recentClaims: [],
      todos: { kybStatus: "not_submitted", hasVerifiedBankAccount: false, hasApiKey: false },
    });
    // A revoked key and an unverified account do not count.
    const key = await createApiKey(actor, CreateApiKeyInput.parse({ name: "Old", permissions: ["read"] }));
    await revokeApiKey(actor, key.id);
    await bankAccount(actor, { verified: false });
    expect((await getDashboardStats(actor, RangeQuery.parse({}))).todos).toEqual({
      kybStatus: "not_submitted",
      hasVerifiedBankAccount: false,
      hasApiKey: false,
    });
  });

  it("a change against a previous period with revenue", async () => {
    const { actor, org } = await historicOrg();
    const stats = await getDashboardStats(actor, RangeQuery.parse({ from: "2025-06-23", to: "2025-07-01" }));
    // current 06-23..07-01: 50.00 + 20.00; previous 06-14..06-22: 100.00
    expect(stats.revenue).toEqual({ current: "70.00", previous: "100.00", change: -0.3 });
    expect(stats.policiesSold).toEqual({ current: 2, previous: 1 });
    expect(stats.availableBalance).toBe(formatMinor(await availableBalance(org.id), "NGN"));
    expect(stats.availableBalance).toBe("167.45");
  });
});

/** Sales written with their own past dates (the triggers count them on those days): 06-18, 06-23 and 07-01 of 2025. */
async function historicOrg() {
  const owner = await ownerWithOrganization();
  const policy = await createPolicy(
    owner.actor,
    CreatePolicyInput.parse({ name: "Old cover", type: "life", duration: "monthly", price: "100.00" }),
  );
  const sale = async (day: string, minor: bigint, fee: bigint, email: string) => {
    const when = at(day, "09:00:00");
    const reference = `ref_${unique()}`;
    const scope = { organizationId: owner.org.id, policyId: policy.id, currency: "NGN" };
    await db.payment.create({
      data: { ...scope, reference, email, amountMinor: minor, status: "success", paidAt: when, createdAt: when, updatedAt: when },
    });
    await db.ledgerTransaction.createMany({
      data: [
        { ...scope, type: "payment", amountMinor: minor, reference, description: "sale", createdAt: when },
        { ...scope, type: "fee", amountMinor: -fee, reference, description: "fee", createdAt: when },
      ],
    });
    await db.coverage.create({
      data: {
        organizationId: owner.org.id,
        policyId: policy.id,
        customerEmail: email,
        startsAt: when,
        periodStartsAt: when,
        endsAt: new Date(when.getTime() + 30 * DAY_MS),
        createdAt: when,
        updatedAt: when,
      },
    });
  };
  await sale("2025-06-18", 10_000n, 150n, "a@example.test");
  await sale("2025-06-23", 5_000n, 75n, "b@example.test");
  await sale("2025-07-01", 2_000n, 30n, "c@example.test");
  return { ...owner, policy };
}

describe("ranges over dated rows", () => {
  it("weekly, monthly and daily buckets; a first week named before `from` counts only the range", async () => {
    const { actor, policy } = await historicOrg();
    const point = (date: string, gross: string, fees: string, net: string, payments: number) => ({
      date,
      gross,
      fees,
      net,
      payments,
    });
    const weeks = await getRevenueAnalytics(
      actor,
      RevenueQuery.parse({ from: "2025-06-18", to: "2025-07-02", granularity: "week" }),
    );
    expect(weeks.series).toEqual([
      point("2025-06-16", "100.00", "1.50", "98.50", 1),
      point("2025-06-23", "50.00", "0.75", "49.25", 1),
      point("2025-06-30", "20.00", "0.30", "19.70", 1),
    ]);
    const clipped = await getRevenueAnalytics(
      actor,
      RevenueQuery.parse({ from: "2025-06-19", to: "2025-06-30", granularity: "week" }),
    );
    expect(clipped.series).toEqual([
      point("2025-06-16", "0.00", "0.00", "0.00", 0),
      point("2025-06-23", "50.00", "0.75", "49.25", 1),
      point("2025-06-30", "0.00", "0.00", "0.00", 0),
    ]);
    expect(clipped.totals).toEqual({ gross: "50.00", fees: "0.75", net: "49.25", payments: 1 });
    expect(clipped.byPolicy).toEqual([
      { policyId: policy.id, name: "Old cover", gross: "50.00", fees: "0.75", net: "49.25", payments: 1 },
    ]);

    const months = await getRevenueAnalytics(
      actor,
      RevenueQuery.parse({ from: "2025-05-20", to: "2025-07-15", granularity: "month" }),
    );
    expect(months.series).toEqual([
      point("2025-05-01", "0.00", "0.00", "0.00", 0),
      point("2025-06-01", "150.00", "2.25", "147.75", 2),
      point("2025-07-01", "20.00", "0.30", "19.70", 1),
    ]);
    const days = await getRevenueAnalytics(actor, RevenueQuery.parse({ from: "2025-06-17", to: "2025-06-19" }));
    expect(days.series).toEqual([
      point("2025-06-17", "0.00", "0.00", "0.00", 0),
      point("2025-06-18", "100.00", "1.50", "98.50", 1),
      point("2025-06-19", "0.00", "0.00", "0.00", 0),
    ]);
  });

  it("policy analytics over a range and by week", async () => {
    const { actor, policy } = await historicOrg();
    const now = new Date("2025-07-10T12:00:00Z");
    const a = await getPolicyAnalytics(actor, policy.id, { from: "2025-06-19", to: "2025-07-06", granularity: "week" }, now);
    expect(a).toEqual({
      currency: "NGN",
      from: "2025-06-19",
      to: "2025-07-06",
      granularity: "week",
      purchases: 2,
      renewals: 0,
      // as of `now`, all three (30 days each from 06-18, 06-23, 07-01) still run
      activeCoverages: 3,
      revenue: { gross: "70.00", fees: "1.05", net: "68.95" },
      claims: { count: 0, amount: "0.00" },
      lossRatio: 0,
      conversionRate: 1,
      series: [
        { date: "2025-06-16", purchases: 0, renewals: 0, gross: "0.00" },
        { date: "2025-06-23", purchases: 1, renewals: 0, gross: "50.00" },
        { date: "2025-06-30", purchases: 1, renewals: 0, gross: "20.00" },
      ],
    });
    const all = await getPolicyAnalytics(actor, policy.id, { from: "2025-06-01", to: "2025-07-31", granularity: "month" }, now);
    expect(all).toMatchObject({ purchases: 3, revenue: { gross: "170.00" }, conversionRate: 1 });
    expect(all.series).toEqual([
      { date: "2025-06-01", purchases: 2, renewals: 0, gross: "150.00" },
      { date: "2025-07-01", purchases: 1, renewals: 0, gross: "20.00" },
    ]);
    // By default: the last 30 days before `now` (06-11..07-10) hold all three sales.
    const byDefault = await getPolicyAnalytics(actor, policy.id, {}, now);
    expect(byDefault).toMatchObject({ from: "2025-06-11", to: "2025-07-10", granularity: "day", purchases: 3 });
    expect(byDefault.series).toHaveLength(30);
  });
});

describe("policy analytics of the busy organization", () => {
  it("sales, renewals, claims and loss over the default range", async () => {
    const a = await getPolicyAnalytics(busy.actor, busy.home.id);
    expect(a).toEqual({
      currency: "NGN",
      from: dayOffset(-29),
      to: today(),
      granularity: "day",
      purchases: 1,
      renewals: 1,
      activeCoverages: 1,
      revenue: { gross: "200.00", fees: "3.00", net: "197.00" },
      claims: { count: 5, amount: "105.00" },
      // (30.00 + 5.00) / 200.00
      lossRatio: 0.175,
      conversionRate: 0.6667,
      series: expect.any(Array),
    });
    expect(a.series).toHaveLength(30);
    expect(a.series.at(-1)).toEqual({ date: today(), purchases: 1, renewals: 1, gross: "200.00" });
    expect(await getPolicyAnalytics(busy.actor, busy.unsold.id)).toMatchObject({
      purchases: 0,
      revenue: { gross: "0.00" },
      lossRatio: null,
      conversionRate: null,
    });
    const err = await getPolicyAnalytics(other.actor, busy.home.id).catch((e: unknown) => e);
    expect((err as AppError).code).toBe("not_found");
  });
});

describe("activity", () => {
  it("purchases, renewals, payments and claims, newest first, with sentences and links", async () => {
    const feed = await listActivity(busy.actor, ActivityQuery.parse({ limit: "100" }));
    expect(feed.nextCursor).toBeNull();
    const times = feed.data.map((a) => a.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const items = feed.data.map(({ type, summary, amount, currency, href }) => ({ type, summary, amount, currency, href }));
    const home = `/policies/${busy.home.id}`;
    const expected = [
      {
        type: "payment.completed",
        summary: "alice@example.test paid ₦100.00 for Home Basic",
        amount: "100.00",
        currency: "NGN",
        href: expect.stringMatching(/^\/payments\/cdp_[\w-]+$/),
      },
      {
        type: "payment.completed",
        summary: "alice@example.test paid ₦100.00 for Home Basic",
        amount: "100.00",
        currency: "NGN",
        href: expect.stringMatching(/^\/payments\/cdp_[\w-]+$/),
      },
      {
        type: "payment.completed",
        summary: "bob@example.test paid ₦50.00 for Fleet",
        amount: "50.00",
        currency: "NGN",
        href: expect.stringMatching(/^\/payments\/cdp_[\w-]+$/),
      },
      {
        type: "policy.purchased",
        summary: "alice@example.test bought Home Basic",
        amount: "100.00",
        currency: "NGN",
        href: home,
      },
      { type: "policy.renewed", summary: "alice@example.test renewed Home Basic", amount: "100.00", currency: "NGN", href: home },
      {
        type: "policy.purchased",
        summary: "bob@example.test bought Fleet",
        amount: "50.00",
        currency: "NGN",
        href: `/policies/${busy.fleet.id}`,
      },
      ...Object.values(busy.claims).map((id) => ({
        type: "claim.submitted",
        summary: expect.stringMatching(/^Theft claim of ₦[\d,]+\.00 filed on Home Basic$/),
        amount: expect.any(String),
        currency: "NGN",
        href: `/claims/${id}`,
      })),
    ];
    expect(items).toHaveLength(expected.length);
    expect(items).toEqual(expect.arrayContaining(expected));
    const claimed = items.filter((i) => i.type === "claim.submitted").map((i) => [i.href, i.amount, i.summary]);
    expect(claimed).toEqual(
      expect.arrayContaining([
        [`/claims/${busy.claims.submitted}`, "10.00", "Theft claim of ₦10.00 filed on Home Basic"],
        [`/claims/${busy.claims.paid}`, "5.00", "Theft claim of ₦5.00 filed on Home Basic"],
      ]),
    );
    // Claims were filed after the payments: they come first.
    expect(items.slice(0, 5).every((i) => i.type === "claim.submitted")).toBe(true);
  });

  it("pages with a cursor, without repeats or gaps", async () => {
    const all = await listActivity(busy.actor, ActivityQuery.parse({ limit: "100" }));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await listActivity(busy.actor, ActivityQuery.parse({ limit: "4", cursor }));
      seen.push(...page.data.map((a) => a.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(all.data.map((a) => a.id));
    expect(seen).toHaveLength(11);
  });

  it("another organization's events are not listed", async () => {
    const feed = await listActivity(other.actor, ActivityQuery.parse({}));
    expect(feed.data.map((a) => a.summary).sort()).toEqual(
      [
        "Theft claim of ₦500.00 filed on Other",
        "zed@example.test bought Other",
        "zed@example.test paid ₦999.00 for Other",
      ].sort(),
    );
    const { actor } = await ownerWithOrganization();
    expect(await listActivity(actor, ActivityQuery.parse({}))).toEqual({ data: [], nextCursor: null });
  });
});

describe("rollups", () => {
  it("the triggers kept daily_stats and policy_daily_stats equal to what the source rows recompute", async () => {
    const historic = await historicOrg();
    for (const orgId of [busy.org.id, other.org.id, historic.org.id]) {
      const [row] = await db.$queryRaw<{ rollup: string; source: string; policies: string; policySource: string }[]>`
        SELECT
          (SELECT concat_ws(',', sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
             sum("feesMinor"), sum("withdrawnMinor"), sum("reversedMinor"), sum(purchases), sum(renewals), sum("claimsFiled"),
             sum("claimedMinor")) FROM daily_stats WHERE "organizationId" = ${orgId}) AS rollup,
          (SELECT concat_ws(',', sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
             sum("feesMinor"), sum("withdrawnMinor"), sum("reversedMinor"), sum(purchases), sum(renewals), sum("claimsFiled"),
             sum("claimedMinor")) FROM analytics_source WHERE "organizationId" = ${orgId}) AS source,
          (SELECT concat_ws(',', sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
             sum("feesMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor"))
             FROM policy_daily_stats WHERE "organizationId" = ${orgId}) AS policies,
          (SELECT concat_ws(',', sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
             sum("feesMinor"), sum(purchases), sum(renewals), sum("claimsFiled"), sum("claimedMinor"))
             FROM analytics_source WHERE "organizationId" = ${orgId} AND "policyId" IS NOT NULL) AS "policySource"`;
      expect(row!.rollup).toBe(row!.source);
      expect(row!.policies).toBe(row!.policySource);
      expect((await checkLedger(orgId)).problems).toEqual([]);
    }
    const [busyRow] = await db.$queryRaw<{ rollup: string }[]>`
      SELECT concat_ws(',', sum("paymentsCreated"), sum("paymentsSucceeded"), sum("paymentsFailed"), sum("grossMinor"),
        sum("feesMinor"), sum("withdrawnMinor"), sum("reversedMinor"), sum(purchases), sum(renewals), sum("claimsFiled"),
        sum("claimedMinor")) AS rollup
      FROM daily_stats WHERE "organizationId" = ${busy.org.id}`;
    // created, succeeded, failed, gross, fees, withdrawn, reversed, purchases, renewals, claims, claimed
    expect(busyRow!.rollup).toBe("5,3,1,25000,375,5013,1013,2,1,5,10500");
  });
});
