"use client";

// The recharts part of the two charts of the analytics pages (./charts.tsx),
// loaded after the page. They resize with their container;
// the Y axis sizes itself to its widest label and the X axis keeps its first
// and last labels inside the card. No animation: a chart redrawn on resize or
// on a new period shows its figures at once (and screenshots show them too).
import {
  Area,
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { displayMoney } from "@/lib/money-format";
import { bucketLabel, compactCount, compactMoney, formatCount } from "./format";
import type { ApiUsage, RevenueAnalytics } from "./types";

const TICK = { fontSize: 12, fill: "#64748b" };
const BRAND = "var(--color-brand-600, #2563eb)";
const NET = "#059669";
const ERRORS = "#dc2626";
const longDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** Gross and net revenue per bucket, side by side, in the organization's currency: the chart inside RevenueChart. */
export function RevenuePlot({ revenue }: { revenue: RevenueAnalytics }) {
  const points = revenue.series.map((p) => ({
    date: p.date,
    label: bucketLabel(p.date),
    gross: Number(p.gross),
    net: Number(p.net),
  }));
  const names: Record<string, string> = { gross: "Gross", net: "Net" };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={points} margin={{ top: 4, right: 12, bottom: 0, left: 0 }} barGap={1} barCategoryGap="15%">
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis
          dataKey="label"
          tick={TICK}
          tickLine={false}
          axisLine={false}
          minTickGap={24}
          interval="preserveStartEnd"
          padding={{ left: 8, right: 8 }}
        />
        <YAxis
          width="auto"
          tick={TICK}
          tickLine={false}
          axisLine={false}
          tickFormatter={(v: number) => compactMoney(v, revenue.currency)}
        />
        <Tooltip
          cursor={{ fill: "#f1f5f9" }}
          formatter={(value, name) => [displayMoney(String(value), revenue.currency), names[String(name)] ?? String(name)]}
          labelFormatter={(_, payload) => {
            const date = payload?.[0]?.payload?.date as string | undefined;
            return date ? longDay.format(new Date(`${date}T00:00:00Z`)) : "";
          }}
          labelStyle={{ color: "#0f172a", fontWeight: 500 }}
        />
        <Legend itemSorter={null} formatter={(name) => names[String(name)] ?? String(name)} wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="gross" fill={BRAND} maxBarSize={18} radius={[2, 2, 0, 0]} isAnimationActive={false} />
        <Bar dataKey="net" fill={NET} maxBarSize={18} radius={[2, 2, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Requests and errors (status ≥ 400) per hour or day: the chart inside UsageChart. */
export function UsagePlot({ usage }: { usage: ApiUsage }) {
  const points = usage.series.map((p) => ({
    bucket: p.bucket,
    label: bucketLabel(p.bucket, usage.granularity),
    requests: p.requests,
    errors: p.errors,
  }));
  const names: Record<string, string> = { requests: "Requests", errors: "Errors" };
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={points} margin={{ top: 4, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis
          dataKey="label"
          tick={TICK}
          tickLine={false}
          axisLine={false}
          minTickGap={24}
          interval="preserveStartEnd"
          padding={{ left: 16, right: 16 }}
        />
        <YAxis width="auto" tick={TICK} tickLine={false} axisLine={false} allowDecimals={false} tickFormatter={compactCount} />
        <Tooltip
          formatter={(value, name) => [formatCount(Number(value)), names[String(name)] ?? String(name)]}
          labelStyle={{ color: "#0f172a", fontWeight: 500 }}
        />
        <Legend itemSorter={null} formatter={(name) => names[String(name)] ?? String(name)} wrapperStyle={{ fontSize: 12 }} />
        <Area
          type="linear"
          dataKey="requests"
          stroke={BRAND}
          strokeWidth={2}
          fill={BRAND}
          fillOpacity={0.12}
          isAnimationActive={false}
        />
        <Line
          type="linear"
          dataKey="errors"
          stroke={ERRORS}
          strokeWidth={2}
          strokeDasharray="4 3"
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
