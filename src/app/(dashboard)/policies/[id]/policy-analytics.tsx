"use client";

import { useQuery } from "@tanstack/react-query";
import { Area, AreaChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { displayMoney } from "@/lib/money";
import { errorInfo, useTRPC } from "@/trpc/react";

const percent = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)}%`);

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
  const series = a.series.map((d) => ({ ...d, grossValue: Number(d.gross), day: d.date.slice(5) }));

  return (
    <Card className="p-6" aria-label="Policy analytics">
      <h2 className="text-base font-semibold">Performance</h2>
      <dl className="mt-4 grid grid-cols-2 gap-4">
        {stats.map((s) => (
          <div key={s.label}>
            <dt className="text-xs text-slate-500">{s.label}</dt>
            <dd className="mt-0.5 text-sm font-semibold tabular-nums text-slate-900">{s.value}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-6 text-xs font-medium text-slate-500">Gross sales, last 30 days</h3>
      <div className="mt-2 h-32" role="img" aria-label="Daily gross sales over the last 30 days">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={series} margin={{ top: 4, right: 4, bottom: 0, left: 0 }}>
            <XAxis dataKey="day" tick={{ fontSize: 10 }} interval={6} tickLine={false} axisLine={false} />
            <YAxis hide />
            <Tooltip formatter={(v) => displayMoney(String(v), a.currency)} labelFormatter={(l) => String(l)} />
            <Area type="monotone" dataKey="grossValue" name="Gross" stroke="#1f5ad6" fill="#d9eaff" strokeWidth={2} />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}
