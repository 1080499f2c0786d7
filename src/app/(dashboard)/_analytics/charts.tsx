"use client";

// The two charts of the analytics pages. Their frame — size, label, test id —
// is drawn with the page; the chart inside (recharts, ./chart-plots) loads
// after it, a skeleton of the same size standing in until it is there.
import { lazy, Suspense } from "react";
import { Skeleton } from "@/components/ui/card";
import { displayMoney } from "@/lib/money-format";
import { plural } from "./format";
import type { ApiUsage, RevenueAnalytics } from "./types";

const loadPlots = () => import("./chart-plots");
/** Starts loading recharts while the page's data is on its way (call it on mount). */
export const preloadCharts = () => void loadPlots().catch(() => undefined);
const RevenuePlot = lazy(() => loadPlots().then((m) => ({ default: m.RevenuePlot })));
const UsagePlot = lazy(() => loadPlots().then((m) => ({ default: m.UsagePlot })));

const plotSkeleton = <Skeleton className="h-full w-full" />;

/** Gross and net revenue per bucket, side by side, in the organization's currency. */
export function RevenueChart({ revenue }: { revenue: RevenueAnalytics }) {
  return (
    <div
      className="h-64 w-full"
      role="img"
      aria-label={`Revenue per ${revenue.granularity} from ${revenue.from} to ${revenue.to}: gross ${displayMoney(revenue.totals.gross, revenue.currency)}, net ${displayMoney(revenue.totals.net, revenue.currency)}`}
      data-testid="revenue-chart"
    >
      <Suspense fallback={plotSkeleton}>
        <RevenuePlot revenue={revenue} />
      </Suspense>
    </div>
  );
}

/** Requests and errors (status ≥ 400) per hour or day. */
export function UsageChart({ usage }: { usage: ApiUsage }) {
  return (
    <div
      className="h-64 w-full"
      role="img"
      aria-label={`API requests per ${usage.granularity} from ${usage.from} to ${usage.to}: ${plural(usage.totals.requests, "request")}, ${plural(usage.totals.errors, "error")}`}
      data-testid="usage-chart"
    >
      <Suspense fallback={plotSkeleton}>
        <UsagePlot usage={usage} />
      </Suspense>
    </div>
  );
}
