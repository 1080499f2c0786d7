// Analytics: one zod schema per input and output, shared by tRPC, REST and the
// OpenAPI document. Ranges are UTC days, `to` inclusive, default the last 30
// days ending today; money is decimal strings with the organization's currency.
import { DayParam } from "@/lib/schemas/when";
import { DEFAULT_RANGE_DAYS, fromNotAfterTo, MAX_HOURLY_DAYS, RANGE_MESSAGES, rangeDays, withinMax } from "@/lib/date-range";
import { z } from "@/lib/messages";
import { Claim, CLAIM_STATUSES } from "@/lib/schemas/claims";
import { KYB_STATUSES } from "@/lib/schemas/kyb";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";
import { Payment, PAYMENT_STATUSES } from "@/lib/schemas/payments";

// The range rules (limits, refinements, sentences) live in src/lib/date-range.ts, which the dashboard's range picker imports without zod.
export { DEFAULT_RANGE_DAYS, MAX_HOURLY_DAYS };

const IsoDay = DayParam;
const Money = z.string().describe('Decimal string, e.g. "150.00"');
/** A share between 0 and 1 with 4 decimals; null when there is nothing to divide by. */
const Ratio = z.number().min(0).nullable();

export const REVENUE_GRANULARITIES = ["day", "week", "month"] as const;
export type RevenueGranularity = (typeof REVENUE_GRANULARITIES)[number];
export const USAGE_GRANULARITIES = ["hour", "day"] as const;
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

const RangeFields = {
  from: IsoDay.optional().describe(`First day (UTC), inclusive; default ${DEFAULT_RANGE_DAYS - 1} days before \`to\``),
  to: IsoDay.optional().describe("Last day (UTC), inclusive; default today"),
};

/** `from`/`to` alone (the dashboard's stats). */
export const RangeQuery = z
  .object(RangeFields)
  .refine(fromNotAfterTo, { message: RANGE_MESSAGES.order, path: ["from"] })
  .refine(withinMax, { message: RANGE_MESSAGES.max, path: ["to"] });
export type RangeQuery = z.output<typeof RangeQuery>;

export const RevenueQuery = z
  .object({
    ...RangeFields,
    granularity: z
      .enum(REVENUE_GRANULARITIES)
      .default("day")
      .describe("Series buckets: UTC days, ISO weeks (starting Monday) or calendar months"),
  })
  .refine(fromNotAfterTo, { message: RANGE_MESSAGES.order, path: ["from"] })
  .refine(withinMax, { message: RANGE_MESSAGES.max, path: ["to"] });
export type RevenueQuery = z.output<typeof RevenueQuery>;

export const UsageQuery = z
  .object({
    ...RangeFields,
    granularity: z
      .enum(USAGE_GRANULARITIES)
      .default("day")
      .describe(`Series buckets; \`hour\` for ranges of at most ${MAX_HOURLY_DAYS} days`),
  })
  .refine(fromNotAfterTo, { message: RANGE_MESSAGES.order, path: ["from"] })
  .refine(withinMax, { message: RANGE_MESSAGES.max, path: ["to"] })
  .refine((q) => q.granularity !== "hour" || rangeDays(q) <= MAX_HOURLY_DAYS, {
    message: `hourly series cover at most ${MAX_HOURLY_DAYS} days`,
    path: ["granularity"],
  });
export type UsageQuery = z.output<typeof UsageQuery>;

/** The resolved range every answer echoes. */
const Range = { from: z.iso.date(), to: z.iso.date() };

// ---------- GET /business/analytics/overview ----------

export const AnalyticsOverview = z
  .object({
    currency: z.string(),
    policies: z.object({ total: z.int(), active: z.int().describe("On sale") }),
    coverages: z.object({ active: z.int().describe("Customers' coverages whose end is in the future") }),
    revenue: z.object({
      total: Money.describe("Gross of every successful payment"),
      last30Days: Money.describe("Gross of the last 30 days, today included"),
    }),
    claims: z.object({
      total: z.int(),
      submitted: z.int(),
      underReview: z.int(),
      approved: z.int(),
      rejected: z.int(),
      paid: z.int(),
      lossRatio: Ratio.nullable().describe(
        "All time: approved and paid claims (the approved amount where set) ÷ (gross premium − refunds); null without premium",
      ),
    }),
    payments: z.object({
      total: z.int().describe("Payments initialized"),
      succeeded: z.int(),
      failed: z.int(),
      pending: z.int(),
      conversionRate: Ratio.describe("succeeded / total"),
    }),
    apiRequests: z.object({ last30Days: z.int().describe("Metered REST requests made with this organization's keys") }),
  })
  .meta({ id: "AnalyticsOverview" });
export type AnalyticsOverview = z.output<typeof AnalyticsOverview>;

// ---------- GET /business/analytics/api-usage ----------

const UsageFigures = {
  requests: z.int(),
  errors: z.int().describe("Answers with a status of 400 or more"),
  serverErrors: z.int().describe("Answers with a status of 500 or more"),
  errorRate: Ratio.describe("errors / requests"),
  p50Ms: z.number().nullable().describe("Median latency in ms (from latency buckets: exact to the bucket's width)"),
  p95Ms: z.number().nullable().describe("95th percentile latency in ms (same precision)"),
};

export const ApiUsage = z
  .object({
    ...Range,
    granularity: z.enum(USAGE_GRANULARITIES),
    totals: z.object(UsageFigures),
    endpoints: z.array(
      z.object({
        method: z.string(),
        route: z.string().describe("The path template under /api/v1, e.g. /business/policies/{id}"),
        ...UsageFigures,
      }),
    ),
    keys: z.array(
      z.object({
        apiKeyId: z.string(),
        name: z.string().nullable().describe("null when the key no longer exists"),
        prefix: z.string().nullable(),
        ...UsageFigures,
      }),
    ),
    series: z.array(
      z.object({
        bucket: z.iso.datetime().describe("Start of the hour or day (UTC)"),
        requests: z.int(),
        errors: z.int(),
      }),
    ),
  })
  .meta({ id: "ApiUsage" });
export type ApiUsage = z.output<typeof ApiUsage>;

// ---------- GET /business/analytics/revenue ----------

const MoneyFigures = { gross: Money, fees: Money.describe("Platform fees (positive)"), net: Money };

export const RevenueAnalytics = z
  .object({
    currency: z.string(),
    ...Range,
    granularity: z.enum(REVENUE_GRANULARITIES),
    totals: z.object({ ...MoneyFigures, payments: z.int().describe("Successful payments") }),
    series: z.array(
      z.object({
        date: z.iso.date().describe("First day of the bucket"),
        ...MoneyFigures,
        payments: z.int(),
      }),
    ),
    byPolicy: z
      .array(z.object({ policyId: z.string(), name: z.string(), ...MoneyFigures, payments: z.int() }))
      .describe("The 20 policies with the highest gross in the range, highest first"),
  })
  .meta({ id: "RevenueAnalytics" });
export type RevenueAnalytics = z.output<typeof RevenueAnalytics>;

// ---------- GET /business/dashboard/stats ----------

export const DashboardStats = z
  .object({
    currency: z.string(),
    ...Range,
    revenue: z.object({
      current: Money.describe("Gross in the range"),
      previous: Money.describe("Gross in the same number of days just before"),
      change: z.number().nullable().describe("(current - previous) / previous; null when previous is 0"),
    }),
    policiesSold: z.object({
      current: z.int().describe("Successful payments (purchases and renewals) in the range"),
      previous: z.int(),
    }),
    activeCoverages: z.int(),
    openClaims: z.int().describe("Claims submitted or under review"),
    lossRatio: Ratio.describe(
      "Approved and paid claims filed in the range (the approved amount where set) ÷ (premium − refunds) of the range; null without premium",
    ),
    availableBalance: Money,
    topPolicies: z
      .array(z.object({ policyId: z.string(), name: z.string(), sold: z.int(), gross: Money }))
      .describe("Up to 5 policies with the highest gross in the range"),
    recentPayments: z.array(Payment).describe("The 5 newest payments"),
    recentClaims: z.array(Claim).describe("The 5 newest claims"),
    todos: z.object({
      kybStatus: z.enum(KYB_STATUSES),
      hasVerifiedBankAccount: z.boolean(),
      hasApiKey: z.boolean().describe("An active API key exists"),
    }),
  })
  .meta({ id: "DashboardStats" });
export type DashboardStats = z.output<typeof DashboardStats>;

// ---------- GET /business/policies/{id}/analytics ----------

export const PolicyAnalyticsQuery = RevenueQuery;
export type PolicyAnalyticsQuery = RevenueQuery;

// ---------- GET /business/analytics/export ----------

export const EXPORT_TYPES = ["revenue", "transactions", "payments", "claims", "api-usage"] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];
export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportQuery = z
  .object({
    type: z.enum(EXPORT_TYPES),
    format: z.enum(EXPORT_FORMATS),
    ...RangeFields,
    granularity: z
      .enum(["hour", "day", "week", "month"])
      .optional()
      .describe("revenue: day (default), week, month; api-usage: hour or day (default)"),
    status: z.string().max(20).optional().describe("payments and claims: only records in this status"),
    policyId: z.string().max(100).optional().describe("payments and claims: only records of this policy"),
    paymentLinkId: z.string().max(100).optional().describe("payments: only those started from this payment link"),
    q: z
      .string()
      .trim()
      .max(254)
      .optional()
      .describe(
        "payments: customer email or name contains, or reference starts with; claims: customer email or description contains",
      ),
  })
  .refine(fromNotAfterTo, { message: RANGE_MESSAGES.order, path: ["from"] })
  .refine(
    (q) =>
      (q.status === undefined && q.policyId === undefined && q.q === undefined && q.paymentLinkId === undefined) ||
      q.type === "payments" ||
      (q.type === "claims" && q.paymentLinkId === undefined),
    {
      message: "Only the payments and claims exports take status, policyId and q (and only payments paymentLinkId)",
      path: ["type"],
    },
  )
  .refine(
    (q) =>
      q.status === undefined ||
      (q.type !== "payments" && q.type !== "claims") ||
      (q.type === "payments" ? (PAYMENT_STATUSES as readonly string[]) : (CLAIM_STATUSES as readonly string[])).includes(
        q.status,
      ),
    { message: "Choose a status the exported records have", path: ["status"] },
  )
  .refine((q) => q.type === "transactions" || q.type === "payments" || q.type === "claims" || withinMax(q), {
    message: RANGE_MESSAGES.max,
    path: ["to"],
  })
  .refine(
    (q) =>
      !q.granularity ||
      (q.type === "revenue" && q.granularity !== "hour") ||
      (q.type === "api-usage" && (q.granularity === "hour" || q.granularity === "day")),
    {
      message:
        "Choose a granularity the type takes: revenue takes day, week or month; api-usage takes hour or day; the others take none",
      path: ["granularity"],
    },
  );
export type ExportQuery = z.output<typeof ExportQuery>;

// ---------- activity feed (dashboard) ----------

export const ACTIVITY_TYPES = ["policy.purchased", "policy.renewed", "payment.completed", "claim.submitted"] as const;

export const ActivityItem = z.object({
  id: z.string(),
  type: z.enum(ACTIVITY_TYPES),
  createdAt: z.iso.datetime(),
  /** One human sentence, e.g. "ada@example.com bought Home Basic". */
  summary: z.string(),
  amount: Money.nullable(),
  currency: z.string().nullable(),
  /** The dashboard page of the record it is about. */
  href: z.string().nullable(),
});
export type ActivityItem = z.output<typeof ActivityItem>;
export const ActivityQuery = PageQuery;
export const ActivityList = pageOf(ActivityItem, "ActivityList");
