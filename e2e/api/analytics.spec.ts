// REST analytics, black-box: one organization with known numbers (policies on
// sale and not, payments through the sandbox checkout — paid, renewed, declined,
// left pending — and claims in every status), and a second organization doing
// the same at the same time whose numbers must never show. Then every endpoint:
// exact figures, the range and granularity filters with their bucket counts,
// 400 invalid_query with errors[], 401 and 404.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { problem, restClient, unique } from "../support/api";
import { buyPolicy, CARDS, createPolicyFor, initializeFor, ISO, ok, payReference, tenantWithClients } from "./_helpers";

// Specs read loosely-typed JSON and assert on it.
/* eslint-disable @typescript-eslint/no-explicit-any */

const OVERVIEW = "business/analytics/overview";
const USAGE = "business/analytics/api-usage";
const REVENUE = "business/analytics/revenue";
const STATS = "business/dashboard/stats";
const policyAnalytics = (id: string) => `business/policies/${id}/analytics`;

const DAY_MS = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const today = () => dayOf(new Date());
const shift = (day: string, days: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
/** Every UTC day from `from` to `to`, both included. */
const daysBetween = (from: string, to: string) =>
  Array.from({ length: (Date.parse(to) - Date.parse(from)) / DAY_MS + 1 }, (_, i) => shift(from, i));
/** The Monday starting the ISO week of `day`. */
const mondayOf = (day: string) => shift(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
/** An ISO timestamp in one spelling (with milliseconds), to compare buckets. */
const instant = (iso: string) => new Date(iso).toISOString();
const sumMoney = (xs: string[]) => (xs.reduce((n, x) => n + Math.round(Number(x) * 100), 0) / 100).toFixed(2);

type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;

const claimIn = async (t: Tenant, policyId: string, amount: number, moves: string[]) => {
  const claim = await ok(
    await t.write.post("claims", { data: { policyId, type: "theft", description: "Stock stolen overnight", amount } }),
    201,
  );
  for (const status of moves) {
    // Marked paid by hand: paid outside Coverdesk, with a note (claim payouts move money: money-back.spec.ts).
    const data = status === "paid" ? { status, settledOutside: true, note: "Paid by cheque" } : { status };
    await ok(await t.write.patch(`claims/${claim.id}/status`, { data }));
  }
  return claim;
};

/**
 * One organization with known numbers, all made today (UTC):
 * - 4 policies: Home (100.00) and Shop (250.00) sold, Idle (40.00) never sold, Retired (60.00) taken off sale;
 * - 5 payments: Home bought by ada and renewed by ada, Shop bought by bola (3 × success, 450.00 gross,
 *   6.75 fees at 1.5 %), Shop declined for chidi (failed), Home initialized for dayo (pending);
 * - 6 claims: on Home 10.00 submitted, 20.00 under review, 30.00 approved, 40.00 rejected, 50.00 paid;
 *   on Shop 5.00 submitted.
 * And another organization selling and claiming meanwhile, whose numbers must never show.
 */
async function seed() {
  const t = await tenantWithClients();
  const other = await tenantWithClients();
  const home = await createPolicyFor(t.write, { name: `Home ${unique()}`, price: "100.00" });
  const shop = await createPolicyFor(t.write, { name: `Shop ${unique()}`, price: "250.00" });
  const idle = await createPolicyFor(t.write, { name: `Idle ${unique()}`, price: "40.00" });
  const retired = await createPolicyFor(t.write, { name: `Retired ${unique()}`, price: "60.00" });
  await ok(await t.write.delete(`business/policies/${retired.id}`));
  const theirs = await createPolicyFor(other.write, { price: "999.00" });

  await buyPolicy(t.write, home, "ada@example.test");
  await buyPolicy(other.write, theirs, "ada@example.test");
  await buyPolicy(t.write, home, "ada@example.test");
  await buyPolicy(t.write, shop, "bola@example.test");
  const declined = await payReference((await initializeFor(t.write, shop, "chidi@example.test")).reference, CARDS.declined);
  expect(declined.status).toBe(402);
  await initializeFor(t.write, home, "dayo@example.test");
  await payReference((await initializeFor(other.write, theirs, "x@example.test")).reference, CARDS.declined);

  await claimIn(t, home.id, 10, []);
  await claimIn(t, home.id, 20, ["under_review"]);
  await claimIn(t, home.id, 30, ["under_review", "approved"]);
  await claimIn(other, theirs.id, 700, ["under_review", "approved", "paid"]);
  await claimIn(t, home.id, 40, ["under_review", "rejected"]);
  await claimIn(t, home.id, 50, ["under_review", "approved", "paid"]);
  await claimIn(t, shop.id, 5, []);
  return { t, other, home, shop, idle, retired, theirs };
}
type Seeded = Awaited<ReturnType<typeof seed>>;

// Built once per worker: the checkout and the claim moves take a few seconds.
let seeded: Promise<Seeded> | undefined;
const known = () => (seeded ??= seed());

const get = async (client: APIRequestContext, path: string) => ok(await client.get(path));

test.describe("GET /business/analytics/overview", () => {
  test("all-time totals: policies, active coverages, revenue, claims by status, payments and conversion", async () => {
    const { t } = await known();
    const o = await get(t.read, OVERVIEW);
    expect(Object.keys(o).sort()).toEqual(
      ["apiRequests", "claims", "coverages", "currency", "payments", "policies", "revenue"].sort(),
    );
    const { apiRequests, ...rest } = o;
    expect(rest).toEqual({
      currency: "NGN",
      policies: { total: 4, active: 3 },
      coverages: { active: 2 },
      revenue: { total: "450.00", last30Days: "450.00" },
      claims: { total: 6, submitted: 2, underReview: 1, approved: 1, rejected: 1, paid: 1, lossRatio: 0.1778 }, // (30 + 50) / 450
      payments: { total: 5, succeeded: 3, failed: 1, pending: 1, conversionRate: 0.6 },
    });
    // Its exact value is the metering spec's business: here, a count that includes the seeding's requests.
    expect(Object.keys(apiRequests)).toEqual(["last30Days"]);
    expect(Number.isInteger(apiRequests.last30Days)).toBe(true);
  });

  test("a new organization: zeros, and no conversion rate without payments", async () => {
    const t = await tenantWithClients();
    const { apiRequests: _ignored, ...rest } = await get(t.read, OVERVIEW);
    expect(rest).toEqual({
      currency: "NGN",
      policies: { total: 0, active: 0 },
      coverages: { active: 0 },
      revenue: { total: "0.00", last30Days: "0.00" },
      claims: { total: 0, submitted: 0, underReview: 0, approved: 0, rejected: 0, paid: 0, lossRatio: null },
      payments: { total: 0, succeeded: 0, failed: 0, pending: 0, conversionRate: null },
    });
  });

  test("the other organization sees only its own: one sale, one declined payment, one paid claim", async () => {
    const { other } = await known();
    const { apiRequests: _ignored, ...rest } = await get(other.read, OVERVIEW);
    expect(rest).toEqual({
      currency: "NGN",
      policies: { total: 1, active: 1 },
      coverages: { active: 1 },
      revenue: { total: "999.00", last30Days: "999.00" },
      claims: { total: 1, submitted: 0, underReview: 0, approved: 0, rejected: 0, paid: 1, lossRatio: 0.7007 }, // 700 / 999
      payments: { total: 2, succeeded: 1, failed: 1, pending: 0, conversionRate: 0.5 },
    });
  });
});

test.describe("GET /business/analytics/revenue", () => {
  const TODAY_TOTALS = { gross: "450.00", fees: "6.75", net: "443.25", payments: 3 };

  test("default: the last 30 days by day, today's bucket holding every sale; by policy, highest gross first", async () => {
    const { t, home, shop } = await known();
    const r = await get(t.read, REVENUE);
    expect(Object.keys(r).sort()).toEqual(["byPolicy", "currency", "from", "granularity", "series", "to", "totals"]);
    expect(r).toMatchObject({ currency: "NGN", from: shift(today(), -29), to: today(), granularity: "day" });
    expect(r.totals).toEqual(TODAY_TOTALS);
    expect(r.series.map((s: any) => s.date)).toEqual(daysBetween(shift(today(), -29), today()));
    for (const s of r.series.slice(0, -1))
      expect(s).toEqual({ date: s.date, gross: "0.00", fees: "0.00", net: "0.00", payments: 0 });
    expect(r.series.at(-1)).toEqual({ date: today(), ...TODAY_TOTALS });
    expect(r.byPolicy).toEqual([
      { policyId: shop.id, name: shop.name, gross: "250.00", fees: "3.75", net: "246.25", payments: 1 },
      { policyId: home.id, name: home.name, gross: "200.00", fees: "3.00", net: "197.00", payments: 2 },
    ]);
  });

  test("from/to: today alone is one bucket; a range without sales is zeros and no policies", async () => {
    const { t } = await known();
    const one = await get(t.read, `${REVENUE}?from=${today()}&to=${today()}`);
    expect(one).toMatchObject({ from: today(), to: today(), totals: TODAY_TOTALS });
    expect(one.series).toEqual([{ date: today(), ...TODAY_TOTALS }]);
    expect(one.byPolicy).toHaveLength(2);

    const before = await get(t.read, `${REVENUE}?to=${shift(today(), -1)}`);
    expect(before).toMatchObject({ from: shift(today(), -30), to: shift(today(), -1) });
    expect(before.totals).toEqual({ gross: "0.00", fees: "0.00", net: "0.00", payments: 0 });
    expect(before.series).toHaveLength(30);
    expect(before.byPolicy).toEqual([]);

    // `from` alone: up to today.
    const since = await get(t.read, `${REVENUE}?from=${shift(today(), -6)}`);
    expect(since).toMatchObject({ from: shift(today(), -6), to: today(), totals: TODAY_TOTALS });
    expect(since.series).toHaveLength(7);
  });

  test("granularity: the bucket counts of days, ISO weeks (Monday) and calendar months", async () => {
    const { t } = await known();
    const dates = async (qs: string) => (await get(t.read, `${REVENUE}?${qs}`)).series.map((s: any) => s.date);
    expect(await dates("from=2026-01-01&to=2026-03-31&granularity=day")).toEqual(daysBetween("2026-01-01", "2026-03-31"));
    expect(await dates("from=2026-01-05&to=2026-02-01&granularity=week")).toEqual([
      "2026-01-05",
      "2026-01-12",
      "2026-01-19",
      "2026-01-26",
    ]);
    // Wednesday to Tuesday touches three ISO weeks; a bucket is named by its Monday, even before `from`.
    expect(await dates("from=2025-12-31&to=2026-01-13&granularity=week")).toEqual(["2025-12-29", "2026-01-05", "2026-01-12"]);
    expect(await dates("from=2025-11-15&to=2026-02-10&granularity=month")).toEqual([
      "2025-11-01",
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
    ]);
    // 366 days is the most: one bucket a day.
    expect(await dates("from=2025-01-01&to=2026-01-01")).toHaveLength(366);
  });

  test("week and month buckets hold today's sales; the series always sums to the totals", async () => {
    const { t } = await known();
    for (const granularity of ["day", "week", "month"]) {
      const r = await get(t.read, `${REVENUE}?from=${shift(today(), -89)}&to=${today()}&granularity=${granularity}`);
      expect(r.granularity).toBe(granularity);
      const expected = new Set(
        daysBetween(shift(today(), -89), today()).map((d) =>
          granularity === "week" ? mondayOf(d) : granularity === "month" ? monthOf(d) : d,
        ),
      );
      expect(r.series, granularity).toHaveLength(expected.size);
      expect(r.totals).toEqual(TODAY_TOTALS);
      const last = r.series.at(-1);
      expect(last, granularity).toMatchObject(TODAY_TOTALS);
      for (const field of ["gross", "fees", "net"] as const) {
        expect(sumMoney(r.series.map((s: any) => s[field])), `${granularity} ${field}`).toBe(r.totals[field]);
      }
      expect(r.series.reduce((n: number, s: any) => n + s.payments, 0)).toBe(3);
    }
  });
});

test.describe("GET /business/dashboard/stats", () => {
  test("the last 30 days against the 30 before, balance, top policies, newest payments and claims, to-dos", async () => {
    const { t, home, shop } = await known();
    const s = await get(t.read, STATS);
    expect(Object.keys(s).sort()).toEqual(
      [
        "activeCoverages",
        "availableBalance",
        "currency",
        "from",
        "lossRatio",
        "openClaims",
        "policiesSold",
        "recentClaims",
        "recentPayments",
        "revenue",
        "to",
        "todos",
        "topPolicies",
      ].sort(),
    );
    const { recentPayments, recentClaims, ...numbers } = s;
    expect(numbers).toEqual({
      currency: "NGN",
      from: shift(today(), -29),
      to: today(),
      revenue: { current: "450.00", previous: "0.00", change: null },
      policiesSold: { current: 3, previous: 0 },
      activeCoverages: 2,
      openClaims: 3,
      // (30.00 approved + 50.00 paid) / 450.00
      lossRatio: 0.1778,
      availableBalance: "443.25",
      topPolicies: [
        { policyId: shop.id, name: shop.name, sold: 1, gross: "250.00" },
        { policyId: home.id, name: home.name, sold: 2, gross: "200.00" },
      ],
      todos: { kybStatus: "not_submitted", hasVerifiedBankAccount: false, hasApiKey: true },
    });
    // The same records the lists answer, newest first.
    expect(recentPayments).toEqual((await get(t.read, "payments?limit=5")).data);
    expect(recentPayments.map((p: any) => p.status).sort()).toEqual(["failed", "pending", "success", "success", "success"]);
    expect(recentClaims).toEqual((await get(t.read, "claims?limit=5")).data);
    expect(recentClaims.map((c: any) => c.amount)).toEqual(["5.00", "50.00", "40.00", "30.00", "20.00"]);
  });

  test("from/to: the previous period is the same number of days just before", async () => {
    const { t } = await known();
    const tomorrow = shift(today(), 1);
    // 30 days starting tomorrow: nothing yet; the 30 days before include today.
    const ahead = await get(t.read, `${STATS}?from=${tomorrow}&to=${shift(tomorrow, 29)}`);
    expect(ahead).toMatchObject({
      from: tomorrow,
      to: shift(tomorrow, 29),
      revenue: { current: "0.00", previous: "450.00", change: -1 },
      policiesSold: { current: 0, previous: 3 },
      topPolicies: [],
      // Not range-bound.
      activeCoverages: 2,
      openClaims: 3,
      availableBalance: "443.25",
    });
    // Today alone against yesterday alone.
    const day = await get(t.read, `${STATS}?from=${today()}&to=${today()}`);
    expect(day).toMatchObject({
      revenue: { current: "450.00", previous: "0.00", change: null },
      policiesSold: { current: 3, previous: 0 },
    });
    expect(day.topPolicies).toHaveLength(2);
    // 2 days starting yesterday against the 2 days before: today's sales are current.
    const two = await get(t.read, `${STATS}?from=${shift(today(), -1)}&to=${today()}`);
    expect(two.revenue).toEqual({ current: "450.00", previous: "0.00", change: null });
  });

  test("a new organization: zeros, nulls, empty lists", async () => {
    const t = await tenantWithClients();
    const s = await get(t.read, STATS);
    expect(s).toMatchObject({
      revenue: { current: "0.00", previous: "0.00", change: null },
      policiesSold: { current: 0, previous: 0 },
      activeCoverages: 0,
      openClaims: 0,
      lossRatio: null,
      availableBalance: "0.00",
      topPolicies: [],
      recentPayments: [],
      recentClaims: [],
      todos: { kybStatus: "not_submitted", hasVerifiedBankAccount: false, hasApiKey: true },
    });
  });
});

test.describe("GET /business/policies/{id}/analytics", () => {
  test("a sold policy: purchases, renewals, revenue, claims, loss ratio and conversion; today's series entry", async () => {
    const { t, home } = await known();
    const a = await get(t.read, policyAnalytics(home.id));
    const { series, ...figures } = a;
    expect(figures).toEqual({
      currency: "NGN",
      from: shift(today(), -29),
      to: today(),
      granularity: "day",
      purchases: 1,
      renewals: 1,
      activeCoverages: 1,
      revenue: { gross: "200.00", fees: "3.00", net: "197.00" },
      claims: { count: 5, amount: "150.00" },
      // (30.00 approved + 50.00 paid) / 200.00
      lossRatio: 0.4,
      // 2 paid of 3 initialized (dayo's is pending)
      conversionRate: 0.6667,
    });
    expect(series.map((d: any) => d.date)).toEqual(daysBetween(shift(today(), -29), today()));
    expect(series.at(-1)).toEqual({ date: today(), purchases: 1, renewals: 1, gross: "200.00" });
    for (const d of series.slice(0, -1)) expect(d).toEqual({ date: d.date, purchases: 0, renewals: 0, gross: "0.00" });
  });

  test("a declined payment converts nothing; a policy never sold answers zeros", async () => {
    const { t, shop, idle } = await known();
    expect(await get(t.read, policyAnalytics(shop.id))).toMatchObject({
      purchases: 1,
      renewals: 0,
      revenue: { gross: "250.00", fees: "3.75", net: "246.25" },
      claims: { count: 1, amount: "5.00" },
      lossRatio: 0,
      conversionRate: 0.5,
    });
    expect(await get(t.read, policyAnalytics(idle.id))).toMatchObject({
      purchases: 0,
      renewals: 0,
      activeCoverages: 0,
      revenue: { gross: "0.00", fees: "0.00", net: "0.00" },
      claims: { count: 0, amount: "0.00" },
      lossRatio: null,
      conversionRate: null,
    });
  });

  test("from/to and granularity shape the series", async () => {
    const { t, home } = await known();
    const series = async (qs: string) => (await get(t.read, `${policyAnalytics(home.id)}?${qs}`)).series;
    expect(await series(`from=${today()}&to=${today()}`)).toEqual([
      { date: today(), purchases: 1, renewals: 1, gross: "200.00" },
    ]);
    // The figures are the range's; active coverages are now's.
    const before = await get(t.read, `${policyAnalytics(home.id)}?from=${shift(today(), -10)}&to=${shift(today(), -1)}`);
    const { series: beforeSeries, ...beforeFigures } = before;
    expect(beforeFigures).toEqual({
      currency: "NGN",
      from: shift(today(), -10),
      to: shift(today(), -1),
      granularity: "day",
      purchases: 0,
      renewals: 0,
      activeCoverages: 1,
      revenue: { gross: "0.00", fees: "0.00", net: "0.00" },
      claims: { count: 0, amount: "0.00" },
      lossRatio: null,
      conversionRate: null,
    });
    expect(beforeSeries).toHaveLength(10);
    for (const d of beforeSeries) expect(d).toMatchObject({ purchases: 0, renewals: 0, gross: "0.00" });
    expect((await series("from=2026-01-05&to=2026-02-01&granularity=week")).map((d: any) => d.date)).toEqual([
      "2026-01-05",
      "2026-01-12",
      "2026-01-19",
      "2026-01-26",
    ]);
    expect((await series("from=2026-01-01&to=2026-06-30&granularity=month")).map((d: any) => d.date)).toEqual([
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
      "2026-04-01",
      "2026-05-01",
      "2026-06-01",
    ]);
    for (const granularity of ["week", "month"]) {
      const s = await series(`from=${shift(today(), -89)}&to=${today()}&granularity=${granularity}`);
      expect(s.at(-1), granularity).toMatchObject({ purchases: 1, renewals: 1, gross: "200.00" });
      expect(sumMoney(s.map((d: any) => d.gross))).toBe("200.00");
    }
  });

  test("another organization's policy, or an unknown id → 404 not_found", async () => {
    const { t, theirs } = await known();
    await problem(await t.read.get(policyAnalytics(theirs.id)), 404, "not_found");
    await problem(await t.read.get(`${policyAnalytics(theirs.id)}?from=${today()}&to=${today()}`), 404, "not_found");
    await problem(await t.read.get(policyAnalytics("does-not-exist")), 404, "not_found");
  });
});

test.describe("GET /business/analytics/api-usage", () => {
  test("shape; the default is 30 daily buckets; hourly buckets of one day are its 24 hours", async () => {
    const { t } = await known();
    const u = await get(t.read, USAGE);
    expect(Object.keys(u).sort()).toEqual(["endpoints", "from", "granularity", "keys", "series", "to", "totals"]);
    expect(u).toMatchObject({ from: shift(today(), -29), to: today(), granularity: "day" });
    expect(u.series.map((s: any) => instant(s.bucket))).toEqual(
      daysBetween(shift(today(), -29), today()).map((d) => `${d}T00:00:00.000Z`),
    );
    for (const s of u.series) expect(Object.keys(s).sort()).toEqual(["bucket", "errors", "requests"]);
    // The seeding's requests were made with this organization's keys only.
    const keyIds = u.keys.map((k: any) => k.apiKeyId);
    for (const id of keyIds) expect([t.writeKeyId, t.readKeyId]).toContain(id);
    expect(u.series.reduce((n: number, s: any) => n + s.requests, 0)).toBe(u.totals.requests);

    const hourly = await get(t.read, `${USAGE}?from=${today()}&to=${today()}&granularity=hour`);
    expect(hourly).toMatchObject({ from: today(), to: today(), granularity: "hour" });
    expect(hourly.series.map((s: any) => instant(s.bucket))).toEqual(
      Array.from({ length: 24 }, (_, h) => `${today()}T${String(h).padStart(2, "0")}:00:00.000Z`),
    );
    for (const s of hourly.series) expect(s.bucket).toMatch(ISO);
  });

  test("hourly over the most days allowed (31): 744 buckets; a past range without requests is zeros", async () => {
    const { t } = await known();
    const u = await get(t.read, `${USAGE}?from=2026-01-01&to=2026-01-31&granularity=hour`);
    expect(u.series).toHaveLength(744);
    expect(instant(u.series[0].bucket)).toBe("2026-01-01T00:00:00.000Z");
    expect(instant(u.series.at(-1).bucket)).toBe("2026-01-31T23:00:00.000Z");
    expect(u.totals).toEqual({ requests: 0, errors: 0, serverErrors: 0, errorRate: null, p50Ms: null, p95Ms: null });
    expect(u.endpoints).toEqual([]);
    expect(u.keys).toEqual([]);
    expect((await get(t.read, `${USAGE}?from=2025-01-01&to=2026-01-01`)).series).toHaveLength(366);
  });
});

// ---- Bad input, authentication ----------------------------------------------------------------

test("from and to take a date-time, at its UTC day, as everywhere in the API", async () => {
  const t = await tenantWithClients();
  // 23:30 at UTC-2 is the next day in UTC; the answer echoes the days it covered.
  const res = await ok(
    await t.read.get(`${REVENUE}?from=${encodeURIComponent("2026-03-01T23:30:00-02:00")}&to=${encodeURIComponent("2026-03-05T10:00:00.000Z")}`),
  );
  expect({ from: res.from, to: res.to }).toEqual({ from: "2026-03-02", to: "2026-03-05" });
  const usage = await ok(await t.read.get(`${USAGE}?from=2026-03-02T00:00:00Z&to=2026-03-02`));
  expect({ from: usage.from, to: usage.to }).toEqual({ from: "2026-03-02", to: "2026-03-02" });
});

test.describe("400 invalid_query with errors[]", () => {
  const RANGE_CASES: [string, string, string][] = [
    ["from after to", "from=2026-03-02&to=2026-03-01", "from"],
    ["a date that does not exist", "from=2026-02-30", "from"],
    ["not a date", "to=tomorrow", "to"],
    ["a date-time that does not exist", "from=2026-03-01T25:00:00Z", "from"],
    ["a date-time without its offset", "from=2026-03-01T10:00:00", "from"],
    ["over 366 days", "from=2025-01-01&to=2026-01-02", "to"],
    // `from` alone ends today: the same limits hold.
    ["from alone over 366 days ago", `from=${shift(today(), -366)}`, "to"],
    ["from alone after today", `from=${shift(today(), 1)}`, "from"],
  ];
  const GRANULARITY_CASES: Record<string, [string, string, string][]> = {
    [USAGE]: [
      ["an unknown granularity", "granularity=week", "granularity"],
      ["hourly over 31 days", "from=2026-01-01&to=2026-02-01&granularity=hour", "granularity"],
      ["hourly over the default range with from alone", `from=${shift(today(), -31)}&granularity=hour`, "granularity"],
      ["granularity in capitals", "granularity=DAY", "granularity"],
    ],
    [REVENUE]: [
      ["an unknown granularity", "granularity=hour", "granularity"],
      ["granularity empty", "granularity=", "granularity"],
    ],
    policy: [
      ["an unknown granularity", "granularity=year", "granularity"],
      ["granularity hour", "granularity=hour", "granularity"],
    ],
  };
  for (const endpoint of [USAGE, REVENUE, STATS, "policy"]) {
    test(endpoint === "policy" ? "business/policies/{id}/analytics" : endpoint, async () => {
      const { t, home } = await known();
      const path = endpoint === "policy" ? policyAnalytics(home.id) : endpoint;
      for (const [label, qs, field] of [...RANGE_CASES, ...(GRANULARITY_CASES[endpoint] ?? [])]) {
        const body = await problem(await t.read.get(`${path}?${qs}`), 400, "invalid_query");
        expect(
          body.errors?.map((e) => e.path),
          `${label}: ${JSON.stringify(body)}`,
        ).toContain(field);
        for (const e of body.errors ?? []) expect(typeof e.message).toBe("string");
      }
      // The edges are allowed.
      await ok(await t.read.get(`${path}?from=2025-01-01&to=2026-01-01`));
      await ok(await t.read.get(`${path}?from=${today()}&to=${today()}`));
    });
  }

  test("the query of another organization's policy is checked before the record (400, not 404)", async () => {
    const { t, theirs } = await known();
    await problem(await t.read.get(`${policyAnalytics(theirs.id)}?from=nope`), 400, "invalid_query");
  });
});

test.describe("401 without a valid key, on every endpoint", () => {
  test("missing, unknown and revoked keys", async () => {
    const { t, home } = await known();
    const revoked = await ok(
      await t.write.post("business/api-keys", { data: { name: "soon revoked", permissions: ["read"] } }),
      201,
    );
    await ok(await t.write.delete(`business/api-keys/${revoked.id}`));
    const cases: [Record<string, string>, string][] = [
      [{}, "missing_api_key"],
      [{ Authorization: `Bearer cd_live_${"A".repeat(32)}` }, "invalid_api_key"],
      [{ Authorization: `Bearer ${revoked.key}` }, "revoked_api_key"],
    ];
    for (const [headers, code] of cases) {
      const client = await restClient(undefined, headers);
      for (const path of [OVERVIEW, USAGE, REVENUE, STATS, policyAnalytics(home.id), `${REVENUE}?granularity=nope`]) {
        await problem(await client.get(path), 401, code);
      }
      await client.dispose();
    }
  });
});
