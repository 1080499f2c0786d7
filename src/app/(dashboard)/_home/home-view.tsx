"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { BookOpen, DatabaseZap, FilePlus2, FileText, LineChart } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { displayMoney } from "@/lib/money-format";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../_components/me";
import { preloadCharts, RevenueChart, UsageChart } from "../_analytics/charts";
import { ExportMenu } from "../_analytics/export-menu";
import { formatCount, formatPercent } from "../_analytics/format";
import { describeRange, useRange } from "../_analytics/range";
import { RangePicker } from "../_analytics/range-picker";
import { ListSkeleton, Section } from "../_analytics/section";
import type { AnalyticsOverview, ApiUsage } from "../_analytics/types";
import { ActivityFeed } from "./activity-feed";
import { RecentClaims, RecentPayments, TopPolicies, ViewAll } from "./lists";
import { StatCards, StatCardsError, StatCardsSkeleton } from "./stat-cards";
import { Todos } from "./todos";

const EXPORTS = ["revenue", "payments", "claims", "transactions", "api-usage"] as const;

export function HomeView({ firstName }: { firstName: string }) {
  // recharts comes after the page: fetch it alongside the figures.
  useEffect(preloadCharts, []);
  const trpc = useTRPC();
  const { can, livemode } = useMe();
  const range = useRange();
  const period = { from: range.from, to: range.to };
  // A new period keeps the old figures on screen (dimmed) until its own arrive.
  const keep = { placeholderData: keepPreviousData };
  const stats = useQuery(trpc.analytics.dashboard.queryOptions(period, keep));
  const revenue = useQuery(trpc.analytics.revenue.queryOptions({ ...period, granularity: "day" }, keep));
  const usage = useQuery(trpc.analytics.apiUsage.queryOptions({ ...period, granularity: "day" }, keep));
  const overview = useQuery(trpc.analytics.overview.queryOptions());
  const renewals = useQuery(trpc.renewals.summary.queryOptions());
  // A sample data load that stopped part-way (the server restarted during it): offered again, to finish it.
  const sample = useQuery({ ...trpc.sampleData.status.queryOptions(), enabled: !livemode && can.admin });
  // Nothing sold and nothing claimed, ever: figures would all be zero, so the page says what to do instead.
  const brandNew = overview.data !== undefined && overview.data.payments.succeeded === 0 && overview.data.claims.total === 0;

  return (
    <>
      <PageHeader
        title={`Welcome, ${firstName}`}
        description={`Your business over ${describeRange(range)} (UTC days).`}
        actions={<ExportMenu types={[...EXPORTS]} range={period} />}
      />
      <div className="space-y-6">
        <RangePicker range={range} onChange={range.setRange} />
        {stats.data && <Todos todos={stats.data.todos} canAct={can.admin} />}
        {sample.data?.state === "interrupted" && !livemode && can.admin && (
          <Card className="flex flex-wrap items-center justify-between gap-3 p-4 sm:p-5" data-testid="sample-data-interrupted">
            <p className="min-w-0 text-sm text-slate-700">
              <span className="font-medium text-slate-900">The sample data stopped part-way.</span> Load it again to finish it:
              what is already there is kept, nothing is made twice.
            </p>
            <LoadSampleData finish />
          </Card>
        )}
        {brandNew ? (
          <>
            <GettingStarted
              overview={overview.data}
              canCreate={can.manage}
              // An interrupted load is finished from its own card above, not started again here.
              canLoadSample={!livemode && can.admin && sample.data?.state !== "interrupted"}
            />
            <UsageSection query={usage} />
          </>
        ) : (
          <>
            {stats.isPending ? (
              <StatCardsSkeleton />
            ) : stats.isError ? (
              <StatCardsError error={stats.error} onRetry={() => stats.refetch()} />
            ) : (
              <div className={stats.isPlaceholderData ? "opacity-60 transition-opacity" : "transition-opacity"}>
                <StatCards stats={stats.data} days={range.days} recurring={renewals.data} />
              </div>
            )}
            <Section
              id="revenue"
              title="Revenue"
              description="Customers' successful payments per day: gross, and net of Coverdesk's fees."
              query={revenue}
              actions={revenue.data && <RevenueTotals revenue={revenue.data} />}
            >
              {(r) =>
                r.totals.payments === 0 ? (
                  <EmptyState
                    icon={<LineChart className="h-10 w-10" />}
                    title="No revenue in this period"
                    description="Choose a longer period, or share a policy's payment link to make a sale."
                  />
                ) : (
                  <RevenueChart revenue={r} />
                )
              }
            </Section>
            <div className="grid gap-6 lg:grid-cols-2">
              <UsageSection query={usage} />
              <Section
                id="top-policies"
                title="Top policies"
                description="By gross revenue in this period."
                query={stats}
                skeleton={<ListSkeleton />}
                actions={<ViewAll href="/policies">All policies</ViewAll>}
              >
                {(s) => <TopPolicies stats={s} />}
              </Section>
            </div>
            <div className="grid gap-6 lg:grid-cols-2">
              <Section
                id="recent-payments"
                title="Recent payments"
                description="The newest five, whatever the period."
                query={stats}
                skeleton={<ListSkeleton />}
                actions={<ViewAll href="/payments">All payments</ViewAll>}
              >
                {(s) => <RecentPayments stats={s} />}
              </Section>
              <Section
                id="recent-claims"
                title="Recent claims"
                description="The newest five, whatever the period."
                query={stats}
                skeleton={<ListSkeleton />}
                actions={<ViewAll href="/claims">All claims</ViewAll>}
              >
                {(s) => <RecentClaims stats={s} />}
              </Section>
            </div>
            <ActivityFeed />
          </>
        )}
      </div>
    </>
  );
}

function RevenueTotals({ revenue }: { revenue: { currency: string; totals: { gross: string; net: string } } }) {
  return (
    <dl className="flex gap-4 text-right text-sm">
      <div>
        <dt className="text-xs text-slate-600">Gross</dt>
        <dd className="font-semibold tabular-nums text-slate-900" data-testid="revenue-gross">
          {displayMoney(revenue.totals.gross, revenue.currency)}
        </dd>
      </div>
      <div>
        <dt className="text-xs text-slate-600">Net</dt>
        <dd className="font-semibold tabular-nums text-slate-900" data-testid="revenue-net">
          {displayMoney(revenue.totals.net, revenue.currency)}
        </dd>
      </div>
    </dl>
  );
}

function UsageSection({ query }: { query: UseQueryResult<ApiUsage, unknown> }) {
  return (
    <Section
      id="api-usage"
      title="API usage"
      description="Requests made with your API keys, and how many failed."
      query={query}
      actions={<ViewAll href="/analytics">Details</ViewAll>}
    >
      {(u) =>
        u.totals.requests === 0 ? (
          <EmptyState
            icon={<LineChart className="h-10 w-10" />}
            title="No API requests in this period"
            description="Requests made with your API keys appear here."
            action={
              <div className="flex flex-wrap justify-center gap-2">
                <Button asChild variant="secondary" size="sm">
                  <Link href="/api-keys">API keys</Link>
                </Button>
                <Button asChild variant="ghost" size="sm">
                  <a href="/docs">API reference</a>
                </Button>
              </div>
            }
          />
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600">
              <span className="font-semibold tabular-nums text-slate-900">{formatCount(u.totals.requests)}</span>{" "}
              {u.totals.requests === 1 ? "request" : "requests"} ·{" "}
              <span className="font-semibold tabular-nums text-slate-900">{formatPercent(u.totals.errorRate)}</span> of them
              failed
            </p>
            <UsageChart usage={u} />
          </>
        )
      }
    </Section>
  );
}

/** A business that has sold nothing yet: what to do next. */
function GettingStarted({
  overview,
  canCreate,
  canLoadSample,
}: {
  overview: AnalyticsOverview;
  canCreate: boolean;
  /** In test mode, an admin may fill the empty test data with a sample business. */
  canLoadSample: boolean;
}) {
  const hasPolicies = overview.policies.total > 0;
  return (
    <Card data-testid="getting-started">
      <EmptyState
        icon={<FileText className="h-10 w-10" />}
        title={hasPolicies ? "No sales yet" : "Sell your first policy"}
        description={
          hasPolicies
            ? "Open a policy and send its payment link to a customer, or sell it from your website through the API. Revenue, customers and claims show here from the first payment."
            : "Create a policy your customers can buy, then send its payment link or sell it through the API. Revenue, customers and claims show here from the first payment."
        }
        action={
          <div className="flex flex-wrap justify-center gap-2">
            {canCreate && (
              <Button asChild>
                <Link href={hasPolicies ? "/policies" : "/policies/new"}>
                  <FilePlus2 className="h-4 w-4" aria-hidden /> {hasPolicies ? "Go to your policies" : "Create a policy"}
                </Link>
              </Button>
            )}
            <Button asChild variant="secondary">
              <a href="/docs">
                <BookOpen className="h-4 w-4" aria-hidden /> Read the API docs
              </a>
            </Button>
            {canLoadSample && !hasPolicies && <LoadSampleData />}
          </div>
        }
      />
    </Card>
  );
}

/** Test mode, nothing there yet: a sample business to look around in (the test data only). */
function LoadSampleData({ finish = false }: { finish?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const load = useMutation(
    trpc.sampleData.load.mutationOptions({
      onSuccess: (r) => {
        setConfirming(false);
        toast.success(
          r.created
            ? `Sample data loaded: ${r.policies} policies, ${r.payments} payments, ${r.claims} claims`
            : "Nothing was added: your test data already has its policies, or a load is still running",
        );
        void queryClient.invalidateQueries();
      },
      onError: (err) => {
        setConfirming(false);
        toast.error(errorInfo(err).message);
      },
    }),
  );
  return (
    <>
      <Button variant="secondary" onClick={() => setConfirming(true)} disabled={load.isPending}>
        <DatabaseZap className="h-4 w-4" aria-hidden /> {finish ? "Finish loading sample data" : "Load sample data"}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !load.isPending && setConfirming(open)}
        title="Load sample data?"
        description="Fills your test data with a sample business: policies, customers, payments and renewals, claims in every state with their evidence, a payout, a withdrawal, a webhook and API usage. Your live data is not touched. It takes a few seconds."
        confirmLabel={load.isPending ? "Loading…" : "Load sample data"}
        confirmVariant="primary"
        cancelLabel="Cancel"
        loading={load.isPending}
        onConfirm={() => load.mutate()}
      />
    </>
  );
}
