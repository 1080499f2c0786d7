"use client";

import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { displayMoney } from "@/lib/money-format";
import { errorInfo, useTRPC } from "@/trpc/react";
import { bucketLabel } from "../../_analytics/format";

// recharts loads after the page, alongside the figures; a skeleton of the chart's size stands in.
const loadPlot = () => import("./policy-sales-plot");
const PolicySalesPlot = lazy(() => loadPlot().then((m) => ({ default: m.PolicySalesPlot })));

const percent = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)}%`);
const longDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function PolicyAnalyticsPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const analytics = useQuery(trpc.policies.analytics.queryOptions({ id }));
  useEffect(() => void loadPlot().catch(() => undefined), []);

  if (analytics.isPending) return <Skeleton className="h-80 w-full" />;
  if (analytics.isError) {
    return (
      <Card>
        <ErrorState message={errorInfo(analytics.error).message} onRetry={() => analytics.refetch()} />
      </Card>
    );
  }
  const a = analytics.data;
  const stats = [
    { label: "Purchases", value: String(a.purchases) },
    { label: "Renewals", value: String(a.renewals) },
    { label: "Active coverages", value: String(a.activeCoverages) },
    { label: "Net revenue", value: displayMoney(a.revenue.net, a.currency) },
    { label: "Claims", value: `${a.claims.count} · ${displayMoney(a.claims.amount, a.currency)}` },
    { label: "Loss ratio", value: percent(a.lossRatio) },
    { label: "Conversion", value: percent(a.conversionRate) },
  ];
  const series = a.series.map((d) => ({ date: d.date, label: bucketLabel(d.date), gross: Number(d.gross) }));
  const total = series.reduce((sum, d) => sum + d.gross, 0);
  const first = series[0];
  const last = series.at(-1);
  const summary =
    first && last
      ? `Daily gross sales from ${longDay.format(new Date(`${first.date}T00:00:00Z`))} to ${longDay.format(new Date(`${last.date}T00:00:00Z`))}: ${displayMoney(total.toFixed(2), a.currency)} in total`
      : "Daily gross sales over the last 30 days";

  return (
    <Card className="min-w-0 p-6" aria-label="Policy analytics" role="region">
      <h2 className="text-base font-semibold">Performance</h2>
      <dl className="mt-4 grid grid-cols-2 gap-4">
        {stats.map((s) => (
          <div key={s.label} className="min-w-0">
            <dt className="text-xs text-slate-600">{s.label}</dt>
            <dd className="mt-0.5 text-sm font-semibold tabular-nums text-slate-900 [overflow-wrap:anywhere]">{s.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-500">
        Last 30 days. Loss ratio: approved and paid claims ÷ (premium − refunds).
      </p>
      <h3 className="mt-6 text-xs font-medium text-slate-600">Gross sales, last 30 days</h3>
      {/* The Y axis sizes itself to its widest label; the X axis keeps its first and last labels inside the card. */}
      <div className="mt-2 h-44 w-full" role="img" aria-label={summary} data-testid="policy-sales-chart">
        <Suspense fallback={<Skeleton className="h-full w-full" />}>
          <PolicySalesPlot series={series} currency={a.currency} />
        </Suspense>
      </div>
    </Card>
  );
}
