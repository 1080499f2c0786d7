// Analytics read from the pre-aggregated tables (daily_stats,
// policy_daily_stats, api_usage) plus small indexed counts, so every answer
// costs a few hundred rows whatever the number of payments.
import type { Actor } from "@/server/actor";
import type { Page, PageQuery } from "@/server/pagination";
import type {
  ActivityItem,
  AnalyticsOverview,
  ApiUsage,
  DashboardStats,
  RangeQuery,
  RevenueAnalytics,
  RevenueQuery,
  UsageQuery,
} from "./schemas";

export async function getAnalyticsOverview(_actor: Actor, _now = new Date()): Promise<AnalyticsOverview> {
  throw new Error("not implemented");
}

export async function getApiUsage(_actor: Actor, _query: UsageQuery, _now = new Date()): Promise<ApiUsage> {
  throw new Error("not implemented");
}

export async function getRevenueAnalytics(_actor: Actor, _query: RevenueQuery, _now = new Date()): Promise<RevenueAnalytics> {
  throw new Error("not implemented");
}

export async function getDashboardStats(_actor: Actor, _query: RangeQuery, _now = new Date()): Promise<DashboardStats> {
  throw new Error("not implemented");
}

/** The activity feed: purchases, renewals, payments and claims from the events outbox, newest first. */
export async function listActivity(_actor: Actor, _query: PageQuery): Promise<Page<ActivityItem>> {
  throw new Error("not implemented");
}
