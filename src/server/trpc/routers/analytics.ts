// Analytics for the dashboard: the same services as the REST API.
import {
  ActivityList,
  ActivityQuery,
  AnalyticsOverview,
  ApiUsage,
  DashboardStats,
  RangeQuery,
  RevenueAnalytics,
  RevenueQuery,
  UsageQuery,
} from "@/lib/schemas/analytics";
import {
  getAnalyticsOverview,
  getApiUsage,
  getDashboardStats,
  getRevenueAnalytics,
  listActivity,
} from "@/server/analytics/service";
import { orgProcedure, router } from "../init";

export const analyticsRouter = router({
  overview: orgProcedure.output(AnalyticsOverview).query(({ ctx }) => getAnalyticsOverview(ctx.actor)),
  apiUsage: orgProcedure
    .input(UsageQuery)
    .output(ApiUsage)
    .query(({ ctx, input }) => getApiUsage(ctx.actor, input)),
  revenue: orgProcedure
    .input(RevenueQuery)
    .output(RevenueAnalytics)
    .query(({ ctx, input }) => getRevenueAnalytics(ctx.actor, input)),
  dashboard: orgProcedure
    .input(RangeQuery)
    .output(DashboardStats)
    .query(({ ctx, input }) => getDashboardStats(ctx.actor, input)),
  activity: orgProcedure
    .input(ActivityQuery)
    .output(ActivityList)
    .query(({ ctx, input }) => listActivity(ctx.actor, input)),
});
