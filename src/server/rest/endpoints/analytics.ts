import {
  AnalyticsOverview,
  ApiUsage,
  DashboardStats,
  ExportQuery,
  RangeQuery,
  RevenueAnalytics,
  RevenueQuery,
  UsageQuery,
} from "@/lib/schemas/analytics";
import { exportAnalytics } from "@/server/analytics/export";
import { getAnalyticsOverview, getApiUsage, getDashboardStats, getRevenueAnalytics } from "@/server/analytics/service";
import { endpoint } from "../endpoint";

const tag = "Analytics";

export const analyticsEndpoints = [
  // GET /api/v1/business/analytics/overview
  endpoint({
    method: "GET",
    path: "/business/analytics/overview",
    operationId: "getAnalyticsOverview",
    summary: "Analytics overview",
    description:
      "All-time totals (policies, active coverages, revenue, claims by status, payments and conversion) with the last 30 days of revenue and API requests.",
    tag,
    permission: "read",
    response: AnalyticsOverview,
    handler: ({ actor }) => getAnalyticsOverview(actor),
  }),
  // GET /api/v1/business/analytics/api-usage
  endpoint({
    method: "GET",
    path: "/business/analytics/api-usage",
    operationId: "getApiUsage",
    summary: "API usage",
    description:
      "Every REST request made with this organization's keys, metered per minute: totals, per endpoint (method and path template), per key, and a series by hour or day, with error rates and p50/p95 latency. Counts are written every few seconds, so the last seconds may not show yet.",
    tag,
    permission: "read",
    query: UsageQuery,
    response: ApiUsage,
    handler: ({ actor, query }) => getApiUsage(actor, query),
  }),
  // GET /api/v1/business/analytics/revenue
  endpoint({
    method: "GET",
    path: "/business/analytics/revenue",
    operationId: "getRevenueAnalytics",
    summary: "Revenue analytics",
    description: "Gross, platform fees and net over the range, as a series by day, week or month, and by policy.",
    tag,
    permission: "read",
    query: RevenueQuery,
    response: RevenueAnalytics,
    handler: ({ actor, query }) => getRevenueAnalytics(actor, query),
  }),
  // GET /api/v1/business/analytics/export
  endpoint({
    method: "GET",
    path: "/business/analytics/export",
    operationId: "exportAnalytics",
    summary: "Export analytics",
    description:
      "A file to download (`Content-Disposition: attachment`). `type`: revenue (date, gross, fees, net, currency), transactions (id, createdAt, type, amount, currency, reference, description), payments (reference, createdAt, status, amount, currency, policyId, email, paidAt), claims (id, createdAt, status, type, amount, currency, policyId, description), api-usage (bucket, method, route, requests, errors, p50Ms, p95Ms). `format`: csv (RFC 4180, header row; a cell starting with `=`, `+`, `-` or `@` is prefixed with `'` so spreadsheets do not run it) or xlsx (typed cells: dates as dates, money as numbers with 2 decimals, the currency in the header). Rows are streamed: any number exports in bounded memory. Unknown or missing `type`/`format` → 422 `validation_failed`.",
    tag,
    permission: "read",
    query: ExportQuery,
    queryError: "validation_failed",
    file: {
      contentTypes: ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
      description: "The file, as an attachment",
    },
    handler: ({ actor, query }) => exportAnalytics(actor, query),
  }),
  // GET /api/v1/business/dashboard/stats
  endpoint({
    method: "GET",
    path: "/business/dashboard/stats",
    operationId: "getDashboardStats",
    summary: "Dashboard statistics",
    description:
      "The numbers of the dashboard home for the range (default the last 30 days) against the same number of days before it, the available balance, the top policies, the newest payments and claims, and what is left to set up.",
    tag,
    permission: "read",
    query: RangeQuery,
    response: DashboardStats,
    handler: ({ actor, query }) => getDashboardStats(actor, query),
  }),
];
