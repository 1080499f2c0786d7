// Analytics: the REST API and the dashboard call the same services.
import {
  ActivityList,
  ActivityQuery,
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
import {
  getAnalyticsOverview,
  getApiUsage,
  getDashboardStats,
  getRevenueAnalytics,
  listActivity,
} from "@/server/analytics/service";
import { operation } from "./operation";

const tag = "Analytics";

export const analyticsOperations = [
  // GET /api/v1/business/analytics/overview
  operation({
    name: "analytics.overview",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    output: AnalyticsOverview,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/analytics/overview",
      operationId: "getAnalyticsOverview",
      summary: "Analytics overview",
      description:
        "All-time totals (policies, active coverages, revenue, claims by status, payments and conversion) with the last 30 days of revenue and API requests.",
      tag,
    },
    handler: ({ actor }) => getAnalyticsOverview(actor),
  }),
  // GET /api/v1/business/analytics/api-usage
  operation({
    name: "analytics.apiUsage",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: UsageQuery,
    output: ApiUsage,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/analytics/api-usage",
      operationId: "getApiUsage",
      summary: "API usage",
      description:
        "Every REST request made with this organization's keys, metered per minute: totals, per endpoint (method and path template), per key, and a series by hour or day, with error rates and p50/p95 latency. Counts are written every few seconds, so the last seconds may not show yet.",
      tag,
      query: UsageQuery,
    },
    handler: ({ actor, input }) => getApiUsage(actor, input),
  }),
  // GET /api/v1/business/analytics/revenue
  operation({
    name: "analytics.revenue",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: RevenueQuery,
    output: RevenueAnalytics,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/analytics/revenue",
      operationId: "getRevenueAnalytics",
      summary: "Revenue analytics",
      description: "Gross, platform fees and net over the range, as a series by day, week or month, and by policy.",
      tag,
      query: RevenueQuery,
    },
    handler: ({ actor, input }) => getRevenueAnalytics(actor, input),
  }),
  // GET /api/v1/business/analytics/export — a file to download. The dashboard's way to it is
  // GET /api/export?type=&format=&… as the signed-in member (any member: it is a read); a plain GET
  // so that the browser downloads the file itself, which a cross-site page can start but never read.
  operation({
    name: "analytics.export",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    rest: {
      method: "GET",
      path: "/business/analytics/export",
      operationId: "exportAnalytics",
      summary: "Export analytics",
      description:
        "A file to download (`Content-Disposition: attachment`). `type`: revenue (date, gross, fees, net, currency), transactions (id, createdAt, type, amount, currency, reference, description), payments (reference, createdAt, status, amount, currency, policyId, email, paidAt), claims (id, createdAt, status, type, amount, currency, policyId, description), api-usage (bucket, method, route, requests, errors, p50Ms, p95Ms). `format`: csv (RFC 4180, header row; a cell starting with `=`, `+`, `-` or `@` is prefixed with `'` so spreadsheets do not run it) or xlsx (typed cells: dates as dates, money as numbers with the currency's decimals, the currency in the header). Rows are streamed: any number exports in bounded memory. Unknown or missing `type`/`format` → 422 `validation_failed`.",
      tag,
      query: ExportQuery,
      queryError: "validation_failed",
      file: {
        contentTypes: ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
        description: "The file, as an attachment",
      },
    },
    http: {
      method: "GET",
      path: "/api/export",
      auth: ["session"],
      query: ExportQuery,
      queryError: "validation_failed",
      headers: { "Cache-Control": "no-store", "Cross-Origin-Resource-Policy": "same-origin" },
    },
    handler: ({ actor, input }) => exportAnalytics(actor, input),
  }),
  // GET /api/v1/business/dashboard/stats
  operation({
    name: "analytics.dashboard",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: RangeQuery,
    output: DashboardStats,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/dashboard/stats",
      operationId: "getDashboardStats",
      summary: "Dashboard statistics",
      description:
        "The numbers of the dashboard home for the range (default the last 30 days) against the same number of days before it, the available balance, the top policies, the newest payments and claims, and what is left to set up.",
      tag,
      query: RangeQuery,
    },
    handler: ({ actor, input }) => getDashboardStats(actor, input),
  }),
  operation({
    name: "analytics.activity",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: ActivityQuery,
    output: ActivityList,
    dashboard: true,
    handler: ({ actor, input }) => listActivity(actor, input),
  }),
] as const;
