"use client";

// Renewals: the recurring premium auto-renewing covers bring, and the covers
// by where their renewal stands — due in the next 7 days, past due (declined,
// in their grace period, with the next try), recovered after a decline.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { AutoRenewCell } from "@/components/auto-renew-cell";
import { ResponsiveTable } from "@/components/responsive-table";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { tabPanelProps, Tabs } from "@/components/ui/tabs";
import { formatDate, formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { RenewalSummary } from "@/lib/schemas/renewals";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

type View = "due" | "past_due" | "recovered";

const VIEWS: { value: View; label: string }[] = [
  { value: "due", label: "Due in 7 days" },
  { value: "past_due", label: "Past due" },
  { value: "recovered", label: "Recovered" },
];

const EMPTY: Record<View, { title: string; description: string }> = {
  due: {
    title: "No renewals in the next 7 days",
    description: "Covers whose policyholder agreed to renew automatically show here a week before their card is charged.",
  },
  past_due: {
    title: "No renewal is past due",
    description:
      "When a renewal charge is declined, the cover stays valid for 7 days while the card is tried again: it shows here.",
  },
  recovered: {
    title: "Nothing recovered yet",
    description: "Renewals paid by a retry after a declined charge show here.",
  },
};

export function RenewalsView() {
  const trpc = useTRPC();
  const [view, setView] = useState<View>("due");
  const summary = useQuery(trpc.renewals.summary.queryOptions());
  return (
    <>
      <PageHeader
        title="Renewals"
        description="Monthly and quarterly covers renew themselves when the policyholder agreed at the checkout: their saved card is charged at the end of each period, a declined charge is tried again after 1, 3 and 5 days, and the cover stays valid for 7 days meanwhile."
      />
      {summary.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Loading renewal figures">
          {Array.from({ length: 4 }, (_, i) => (
            <Card key={i} className="space-y-3 p-5">
              <Skeleton className="h-4 w-24" />
              <Skeleton className="h-7 w-28" />
            </Card>
          ))}
        </div>
      ) : summary.isError ? (
        <Card>
          <ErrorState message={errorInfo(summary.error).message} onRetry={() => summary.refetch()} />
        </Card>
      ) : (
        <SummaryCards summary={summary.data} />
      )}
      <div className="mt-6">
        <Tabs id="renewals" label="Renewals" items={VIEWS} value={view} onChange={setView} />
        <div {...tabPanelProps("renewals", view)} className="mt-4">
          <RenewalList view={view} />
        </div>
      </div>
    </>
  );
}

function SummaryCards({ summary }: { summary: RenewalSummary }) {
  const money = (a: string) => displayMoney(a, summary.currency);
  const max = Math.max(1, ...summary.collected.map((m) => Number(m.amount)));
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Card className="p-5 lg:col-span-1" data-testid="renewals-recurring">
        <p className="text-sm text-slate-600">Recurring premium per month</p>
        <p className="mt-1 text-2xl font-semibold text-slate-900">{money(summary.recurringPremiumPerMonth)}</p>
        <p className="mt-1 text-xs text-slate-600">
          {summary.autoRenewing} {summary.autoRenewing === 1 ? "cover" : "covers"} on automatic renewal · quarterly ÷ 3, yearly ÷
          12
        </p>
        <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-xs text-slate-600">Due in 7 days</dt>
            <dd className="font-medium" data-testid="renewals-due-count">
              {summary.dueNext7Days}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Past due</dt>
            <dd className={summary.pastDue ? "font-medium text-amber-700" : "font-medium"} data-testid="renewals-past-due-count">
              {summary.pastDue}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-600">Recovered (30 d)</dt>
            <dd className="font-medium">{summary.recoveredLast30Days}</dd>
          </div>
        </dl>
      </Card>
      <Card className="p-5 lg:col-span-2">
        <p className="text-sm text-slate-600">Collected by automatic renewal</p>
        <ol className="mt-3 grid grid-cols-6 items-end gap-2" aria-label="Renewal charges paid per month">
          {summary.collected.map((m) => {
            const label = new Date(`${m.month}-01T00:00:00Z`).toLocaleDateString("en-GB", { month: "short", timeZone: "UTC" });
            const height = Math.round((Number(m.amount) / max) * 96);
            return (
              <li
                key={m.month}
                className="flex flex-col items-center gap-1"
                aria-label={`${label}: ${money(m.amount)}, ${m.charges} charges`}
              >
                <span className="text-[11px] text-slate-600 [overflow-wrap:anywhere]">{m.charges || ""}</span>
                <span
                  className="block w-full rounded-t bg-brand-500"
                  style={{ height: `${Math.max(height, 2)}px` }}
                  aria-hidden
                />
                <span className="text-xs text-slate-600">{label}</span>
              </li>
            );
          })}
        </ol>
        <p className="mt-2 text-xs text-slate-600">
          Renewal charges paid per month, the last 6 months (the figure above a bar: charges).
        </p>
      </Card>
    </div>
  );
}

function RenewalList({ view }: { view: View }) {
  const trpc = useTRPC();
  const { can } = useMe();
  const list = useInfiniteQuery(
    trpc.renewals.list.infiniteQueryOptions({ view, limit: 20 }, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  if (list.isPending)
    return (
      <Card className="space-y-3 p-6" aria-label="Loading renewals">
        <Skeleton className="h-5 w-1/3" />
        <Skeleton className="h-5 w-2/3" />
      </Card>
    );
  if (list.isError)
    return (
      <Card>
        <ErrorState message={errorInfo(list.error).message} onRetry={() => list.refetch()} />
      </Card>
    );
  if (rows.length === 0)
    return (
      <Card>
        <EmptyState icon={<RefreshCw className="h-10 w-10" />} {...EMPTY[view]} />
      </Card>
    );
  return (
    <Card>
      <ResponsiveTable
        label={VIEWS.find((v) => v.value === view)!.label}
        rows={rows}
        rowKey={(r) => `${r.coverageId}:${r.paymentReference ?? ""}`}
        testId="renewal-row"
        columns={[
          {
            header: "Customer",
            cell: (r) => (
              <div className="min-w-0">
                <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{r.customerName ?? r.customerEmail}</p>
                {r.customerName && <p className="text-xs text-slate-600 [overflow-wrap:anywhere]">{r.customerEmail}</p>}
              </div>
            ),
          },
          {
            header: "Policy",
            cell: (r) => (
              <Link href={`/policies/${r.policyId}`} className="font-medium text-brand-700 hover:underline">
                {r.policyName}
              </Link>
            ),
          },
          { header: "Amount", numeric: true, cell: (r) => displayMoney(r.amount, r.currency) },
          ...(view === "due"
            ? [{ header: "Charged on", cell: (r: (typeof rows)[number]) => formatDate(r.endsAt) }]
            : view === "past_due"
              ? [
                  {
                    header: "Declined",
                    wide: true,
                    cell: (r: (typeof rows)[number]) => (
                      <div className="space-y-0.5 text-xs">
                        <p>
                          {r.attempts} of 4 tries · covered until {formatDate(r.graceEndsAt ?? r.endsAt)}
                        </p>
                        <p className="text-slate-600">
                          {r.nextAttemptAt ? `Next try ${formatDateTime(r.nextAttemptAt)}` : "No more tries"}
                        </p>
                        {r.lastFailureReason && <p className="text-red-700 [overflow-wrap:anywhere]">{r.lastFailureReason}</p>}
                      </div>
                    ),
                  },
                ]
              : [
                  {
                    header: "Paid",
                    cell: (r: (typeof rows)[number]) => (
                      <span className="text-xs">
                        {r.renewedAt ? formatDateTime(r.renewedAt) : "—"} · try {r.attempts}
                      </span>
                    ),
                  },
                ]),
          { header: "Status", cell: (r) => <StatusBadge status={r.status} /> },
          {
            header: "Renewal",
            wide: true,
            cell: (r) => (
              <AutoRenewCell
                coverage={{ id: r.coverageId, autoRenew: r.autoRenew, card: r.card, status: r.status, policyName: r.policyName }}
                canChange={can.admin && view !== "recovered"}
              />
            ),
          },
          {
            header: "Charge",
            cell: (r) =>
              r.paymentReference ? (
                <Link href={`/payments/${r.paymentReference}`} className="font-mono text-xs text-brand-700 hover:underline">
                  {r.paymentReference.slice(0, 12)}…
                </Link>
              ) : (
                <span className="text-xs text-slate-600">—</span>
              ),
          },
        ]}
      />
      {list.hasNextPage && (
        <div className="border-t border-slate-200 p-4 text-center">
          <Button variant="secondary" loading={list.isFetchingNextPage} onClick={() => list.fetchNextPage()}>
            Show more
          </Button>
        </div>
      )}
    </Card>
  );
}
