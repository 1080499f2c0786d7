"use client";

// The recharts part of the policy's sales chart (./policy-analytics), loaded after the page.
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { displayMoney } from "@/lib/money-format";
import { compactMoney } from "../../_analytics/format";

const TICK = { fontSize: 11, fill: "#64748b" };
const longDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function PolicySalesPlot({
  series,
  currency,
}: {
  series: { date: string; label: string; gross: number }[];
  currency: string;
}) {
  return (
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
          tickFormatter={(v: number) => compactMoney(v, currency)}
        />
        <Tooltip
          isAnimationActive={false}
          cursor={{ stroke: "#94a3b8", strokeDasharray: "3 3" }}
          formatter={(value) => [displayMoney(String(value), currency), "Gross sales"]}
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
  );
}
