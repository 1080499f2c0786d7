"use client";

// The recharts part of NetRevenueChart (./net-revenue-chart), loaded after the page.
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { displayMoney } from "@/lib/money-format";

const compact = new Intl.NumberFormat("en-NG", { notation: "compact", maximumFractionDigits: 1 });

export function NetRevenuePlot({ points, currency }: { points: { label: string; net: number }[]; currency: string }) {
  return (
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
  );
}
