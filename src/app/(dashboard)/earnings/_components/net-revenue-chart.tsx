"use client";

import { useQuery } from "@tanstack/react-query";
import { LineChart as ChartIcon } from "lucide-react";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { displayMoney } from "@/lib/money";
import { errorInfo, useTRPC } from "@/trpc/react";

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const compact = new Intl.NumberFormat("en-NG", { notation: "compact", maximumFractionDigits: 1 });

/** Net revenue per day over the last 30 days (the server's default range). */
export function NetRevenueChart({ currency }: { currency: string }) {
  const trpc = useTRPC();
  const series = useQuery(trpc.earnings.series.queryOptions({}));
  const points = (series.data ?? []).map((p) => ({
    date: p.date,
    label: day.format(new Date(p.date)),
    net: Number(p.net),
    gross: Number(p.gross),
    fees: Number(p.fees),
  }));
  const empty = points.every((p) => p.net === 0 && p.gross === 0 && p.fees === 0);

  return (
    <Card className="p-4 sm:p-5">
      <div className="mb-4">
        <h2 className="text-base font-semibold text-slate-900">Net revenue</h2>
        <p className="text-sm text-slate-600">Payments minus platform fees, per day, over the last 30 days.</p>
      </div>
      {series.isPending ? (
        <Skeleton className="h-56 w-full" />
      ) : series.isError ? (
        <ErrorState message={errorInfo(series.error).message} onRetry={() => series.refetch()} />
      ) : empty ? (
        <EmptyState
          icon={<ChartIcon className="h-10 w-10" />}
          title="No revenue in the last 30 days"
          description="Your customers' payments appear here, net of fees, as soon as they are made."
        />
      ) : (
        <div className="h-56 w-full" role="img" aria-label="Net revenue per day, last 30 days">
          <ResponsiveContainer width="100%" height="100%">
            <AreaChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
              <defs>
                <linearGradient id="net-fill" x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor="var(--color-brand-600, #2563eb)" stopOpacity={0.25} />
                  <stop offset="100%" stopColor="var(--color-brand-600, #2563eb)" stopOpacity={0} />
                </linearGradient>
              </defs>
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={false} minTickGap={24} />
              <YAxis
                width={48}
                tick={{ fontSize: 12, fill: "#64748b" }}
                tickLine={false}
                axisLine={false}
                tickFormatter={(v: number) => compact.format(v)}
              />
              <Tooltip
                formatter={(value) => [displayMoney(String(value), currency), "Net"]}
                labelStyle={{ color: "#0f172a", fontWeight: 500 }}
              />
              <Area
                type="monotone"
                dataKey="net"
                stroke="var(--color-brand-600, #2563eb)"
                strokeWidth={2}
                fill="url(#net-fill)"
              />
            </AreaChart>
          </ResponsiveContainer>
        </div>
      )}
    </Card>
  );
}
