"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Activity } from "lucide-react";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { NativeSelect } from "@/components/ui/select";
import { cn } from "@/lib/cn";
import { displayMoney } from "@/lib/money-format";
import { errorInfo, useTRPC } from "@/trpc/react";
import { preloadCharts, UsageChart } from "../../_analytics/charts";
import { ExportMenu } from "../../_analytics/export-menu";
import { formatCount, formatMs, formatPercent, plural } from "../../_analytics/format";
import { describeRange, MAX_HOURLY_DAYS, replaceQuery, useRange } from "../../_analytics/range";
import { RangePicker } from "../../_analytics/range-picker";
import { ResponsiveTable, type Column } from "@/components/responsive-table";
import { ListSkeleton, Section } from "../../_analytics/section";
import type { ApiUsage, RevenueAnalytics, UsageFigures } from "../../_analytics/types";

type Granularity = "hour" | "day";
type Endpoint = ApiUsage["endpoints"][number];
type Key = ApiUsage["keys"][number];
type PolicyRevenue = RevenueAnalytics["byPolicy"][number];

/** The figures every usage row shows after its name. */
const figureColumns = <T extends UsageFigures>(): Column<T>[] => [
  { header: "Requests", numeric: true, cell: (r) => formatCount(r.requests) },
  { header: "Errors", numeric: true, cell: (r) => formatCount(r.errors) },
  { header: "Error rate", numeric: true, cell: (r) => formatPercent(r.errorRate) },
  { header: "p50", numeric: true, cell: (r) => formatMs(r.p50Ms) },
  { header: "p95", numeric: true, cell: (r) => formatMs(r.p95Ms) },
];

const METHOD_TONE: Record<string, string> = {
  GET: "bg-brand-50 text-brand-700",
  POST: "bg-emerald-50 text-emerald-700",
  PUT: "bg-amber-50 text-amber-800",
  PATCH: "bg-amber-50 text-amber-800",
  DELETE: "bg-red-50 text-red-700",
};

export function AnalyticsView() {
  // recharts comes after the page: fetch it alongside the figures.
  useEffect(preloadCharts, []);
  const trpc = useTRPC();
  const range = useRange();
  const params = useSearchParams();
  const hourAllowed = range.days <= MAX_HOURLY_DAYS;
  // Hourly buckets only fit short periods: a longer one falls back to days.
  const granularity: Granularity = params.get("granularity") === "hour" && hourAllowed ? "hour" : "day";
  const period = { from: range.from, to: range.to };
  const keep = { placeholderData: keepPreviousData };
  const usage = useQuery(trpc.analytics.apiUsage.queryOptions({ ...period, granularity }, keep));
  const revenue = useQuery(trpc.analytics.revenue.queryOptions({ ...period, granularity: "day" }, keep));

  return (
    <>
      <PageHeader
        title="Analytics"
        description={`API usage and revenue over ${describeRange(range)} (UTC).`}
        actions={<ExportMenu types={["api-usage"]} range={period} granularity={granularity} />}
      />
      <div className="space-y-6">
        <RangePicker range={range} onChange={range.setRange}>
          <label className="block text-xs font-medium text-slate-600">
            <span className="mb-1 block">Buckets</span>
            <NativeSelect
              value={granularity}
              onChange={(e) => replaceQuery({ granularity: e.target.value === "hour" ? "hour" : null })}
              aria-describedby={hourAllowed ? undefined : "granularity-hint"}
              className="h-9 w-full sm:w-36"
            >
              <option value="day">Per day</option>
              <option value="hour" disabled={!hourAllowed}>
                Per hour
              </option>
            </NativeSelect>
            {!hourAllowed && (
              <span id="granularity-hint" className="mt-1 block font-normal text-slate-600">
                Hourly for {MAX_HOURLY_DAYS} days or less
              </span>
            )}
          </label>
        </RangePicker>

        <section aria-labelledby="usage-heading" className="space-y-4">
          <h2 id="usage-heading" className="text-lg font-semibold text-slate-900">
            API usage
          </h2>
          {usage.isPending ? (
            <UsageSkeleton />
          ) : usage.isError ? (
            <Card>
              <ErrorState message={errorInfo(usage.error).message} onRetry={() => usage.refetch()} />
            </Card>
          ) : usage.data.totals.requests === 0 ? (
            <Card>
              <EmptyState
                icon={<Activity className="h-10 w-10" />}
                title="No API requests in this period"
                description="Requests made with your API keys are counted here, per endpoint and per key, with their errors and latency."
                action={
                  <div className="flex flex-wrap justify-center gap-2">
                    <Button asChild>
                      <Link href="/api-keys">Manage API keys</Link>
                    </Button>
                    <Button asChild variant="secondary">
                      <a href="/docs">Read the API docs</a>
                    </Button>
                  </div>
                }
              />
            </Card>
          ) : (
            <div className={cn("space-y-4 transition-opacity", usage.isPlaceholderData && "opacity-60")}>
              <UsageTotals totals={usage.data.totals} />
              <Card className="min-w-0 p-4 sm:p-5">
                <h3 className="mb-3 text-base font-semibold text-slate-900">Requests and errors per {usage.data.granularity}</h3>
                <UsageChart usage={usage.data} />
              </Card>
              <Card className="min-w-0 p-4 sm:p-5">
                <h3 className="mb-3 text-base font-semibold text-slate-900">By endpoint</h3>
                <ResponsiveTable<Endpoint>
                  label="Endpoints"
                  testId="endpoint-row"
                  rows={usage.data.endpoints}
                  rowKey={(e) => `${e.method} ${e.route}`}
                  columns={[
                    {
                      header: "Endpoint",
                      cell: (e) => (
                        <span className="inline-flex flex-wrap items-center gap-2">
                          <span
                            className={cn(
                              "rounded px-1.5 py-0.5 font-mono text-xs font-semibold",
                              METHOD_TONE[e.method] ?? "bg-slate-100 text-slate-700",
                            )}
                          >
                            {e.method}
                          </span>
                          <span className="break-all font-mono text-xs text-slate-900">{e.route}</span>
                        </span>
                      ),
                    },
                    ...figureColumns<Endpoint>(),
                  ]}
                />
              </Card>
              <Card className="min-w-0 p-4 sm:p-5">
                <h3 className="mb-3 text-base font-semibold text-slate-900">By API key</h3>
                <ResponsiveTable<Key>
                  label="API keys"
                  testId="key-row"
                  rows={usage.data.keys}
                  rowKey={(k) => k.apiKeyId}
                  columns={[
                    {
                      header: "Key",
                      cell: (k) => (
                        <span className="block">
                          <span className="block break-words text-slate-900">{k.name ?? "Deleted key"}</span>
                          {k.prefix && <span className="block font-mono text-xs text-slate-600">{k.prefix}…</span>}
                        </span>
                      ),
                    },
                    ...figureColumns<Key>(),
                  ]}
                />
              </Card>
            </div>
          )}
        </section>

        <Section
          id="revenue-by-policy"
          title="Revenue by policy"
          description="The 20 policies with the highest gross in this period."
          query={revenue}
          skeleton={<ListSkeleton />}
        >
          {(r) =>
            r.byPolicy.length === 0 ? (
              <p className="rounded-md bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">
                No policies sold in this period.
              </p>
            ) : (
              <ResponsiveTable<PolicyRevenue>
                label="Revenue by policy"
                testId="policy-revenue-row"
                rows={r.byPolicy}
                rowKey={(p) => p.policyId}
                columns={[
                  {
                    header: "Policy",
                    cell: (p) => (
                      <Link href={`/policies/${p.policyId}`} className="font-medium text-slate-900 hover:underline">
                        {p.name}
                      </Link>
                    ),
                  },
                  { header: "Payments", numeric: true, cell: (p) => formatCount(p.payments) },
                  { header: "Gross", numeric: true, cell: (p) => displayMoney(p.gross, r.currency) },
                  { header: "Fees", numeric: true, cell: (p) => displayMoney(p.fees, r.currency) },
                  { header: "Net", numeric: true, cell: (p) => displayMoney(p.net, r.currency) },
                ]}
              />
            )
          }
        </Section>
      </div>
    </>
  );
}

function UsageTotals({ totals }: { totals: UsageFigures }) {
  const figures = [
    { id: "requests", label: "Requests", value: formatCount(totals.requests), hint: null },
    {
      id: "error-rate",
      label: "Error rate",
      value: formatPercent(totals.errorRate),
      hint: `${plural(totals.errors, "error")}, ${plural(totals.serverErrors, "server error")}`,
    },
    { id: "p50", label: "Median latency (p50)", value: formatMs(totals.p50Ms), hint: null },
    { id: "p95", label: "p95 latency", value: formatMs(totals.p95Ms), hint: null },
  ];
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {figures.map((f) => (
        <Card key={f.id} className="min-w-0 p-4">
          <p className="text-sm text-slate-600">{f.label}</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={`usage-${f.id}`}>
            {f.value}
          </p>
          {f.hint && <p className="mt-1 text-xs text-slate-600">{f.hint}</p>}
        </Card>
      ))}
    </div>
  );
}

function UsageSkeleton() {
  return (
    <div className="space-y-4" aria-label="Loading API usage">
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Card key={i} className="space-y-3 p-4">
            <Skeleton className="h-4 w-20" />
            <Skeleton className="h-7 w-24" />
          </Card>
        ))}
      </div>
      <Card className="p-5">
        <Skeleton className="h-64 w-full" />
      </Card>
      <Card className="p-5">
        <ListSkeleton />
      </Card>
    </div>
  );
}
