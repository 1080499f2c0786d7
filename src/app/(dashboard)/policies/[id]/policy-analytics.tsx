"use client";

import { useQuery } from "@tanstack/react-query";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { displayMoney } from "@/lib/money";
import { errorInfo, useTRPC } from "@/trpc/react";
import { bucketLabel, compactMoney } from "../../_analytics/format";

const percent = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)}%`);
const TICK = { fontSize: 11, fill: "#64748b" };
const longDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function PolicyAnalyticsPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const analytics = useQuery(trpc.policies.analytics.queryOptions({ id }));

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
      <h3 className="mt-6 text-xs font-medium text-slate-600">Gross sales, last 30 days</h3>
      {/* The Y axis sizes itself to its widest label; the X axis keeps its first and last labels inside the card. */}
      <div className="mt-2 h-44 w-full" role="img" aria-label={summary} data-testid="policy-sales-chart">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={series} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
            <XAxis
              dataKey="label"
              tick={TICK}
              tickLine={false}
              axisLine={false}
              minTickGap={16}
              interval="preserveStartEnd"
              padding={{ left: 12, right: 12 }}
            />
            <YAxis
              width="auto"
              tick={TICK}
              tickLine={false}
              axisLine={false}
              tickCount={4}
              allowDecimals={false}
              tickFormatter={(v: number) => compactMoney(v, a.currency)}
            />
            <Tooltip
              isAnimationActive={false}
              cursor={{ stroke: "#94a3b8", strokeDasharray: "3 3" }}
              formatter={(value) => [displayMoney(String(value), a.currency), "Gross sales"]}
              labelFormatter={(_, payload) => {
                const date = payload?.[0]?.payload?.date as string | undefined;
                return date ? longDay.format(new Date(`${date}T00:00:00Z`)) : "";
              }}
              labelStyle={{ color: "#0f172a", fontWeight: 500 }}
              itemStyle={{ color: "#1e40af" }}
              contentStyle={{ fontSize: 12, borderRadius: 6, borderColor: "#e2e8f0" }}
            />
            <Area
              type="monotone"
              dataKey="gross"
              name="Gross sales"
              stroke="#1f5ad6"
              fill="#d9eaff"
              strokeWidth={2}
              isAnimationActive={false}
              activeDot={{ r: 4 }}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}
