"use client";

import { useQuery } from "@tanstack/react-query";
import { LineChart as ChartIcon } from "lucide-react";
import { lazy, Suspense, useEffect } from "react";
import { Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { errorInfo, useTRPC } from "@/trpc/react";

// recharts loads after the page, alongside the series; a skeleton of the chart's size stands in.
const loadPlot = () => import("./net-revenue-plot");
const NetRevenuePlot = lazy(() => loadPlot().then((m) => ({ default: m.NetRevenuePlot })));

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/** Net revenue per day over the last 30 days (the server's default range). */
export function NetRevenueChart({ currency }: { currency: string }) {
  const trpc = useTRPC();
  const series = useQuery(trpc.earnings.series.queryOptions({}));
  useEffect(() => void loadPlot().catch(() => undefined), []);
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
          <Suspense fallback={<Skeleton className="h-full w-full" />}>
            <NetRevenuePlot points={points} currency={currency} />
          </Suspense>
        </div>
      )}
    </Card>
  );
}
