// The shapes the analytics pages show, as the tRPC procedures return them.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Out = inferRouterOutputs<AppRouter>["analytics"];

export type DashboardStats = Out["dashboard"];
export type ApiUsage = Out["apiUsage"];
export type RevenueAnalytics = Out["revenue"];
export type AnalyticsOverview = Out["overview"];
export type ActivityItem = Out["activity"]["data"][number];
export type UsageFigures = ApiUsage["totals"];
