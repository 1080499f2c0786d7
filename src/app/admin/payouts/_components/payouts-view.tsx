"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Banknote, RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { DataTable } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { tabPanelProps, Tabs } from "@/components/ui/tabs";
import { WithdrawalStatusBadge } from "@/components/withdrawal-status-badge";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { AppRouter } from "@/server/trpc/root";
import { errorInfo, useTRPC } from "@/trpc/react";

type Payout = inferRouterOutputs<AppRouter>["admin"]["payouts"]["data"][number];
export type PayoutFilter = "all" | "pending" | "processing" | "paid" | "failed";

const EMPTY: Record<PayoutFilter, string> = {
  all: "No payouts yet",
  pending: "No pending payouts",
  processing: "No payouts processing",
  paid: "No paid payouts",
  failed: "No failed payouts",
};

/** Keeps the list current while payouts are on their way. */
const POLL_MS = 5_000;

export function PayoutsView({ initialFilter }: { initialFilter: PayoutFilter }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<PayoutFilter>(initialFilter);
  const [retrying, setRetrying] = useState<Payout | null>(null);
  const payouts = useInfiniteQuery(
    trpc.admin.payouts.infiniteQueryOptions(
      { status: filter === "all" ? undefined : filter, limit: 20 },
      {
        getNextPageParam: (l) => l.nextCursor ?? undefined,
        refetchInterval: (q) =>
          q.state.data?.pages.some((p) => p.data.some((w) => w.status === "pending" || w.status === "processing"))
            ? POLL_MS
            : false,
      },
    ),
  );
  const retry = useMutation(
    trpc.admin.retryPayout.mutationOptions({
      onSuccess: () => {
        toast.success("Payout queued again");
        setRetrying(null);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.payouts.pathKey() });
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );

  const choose = (next: PayoutFilter) => {
    setFilter(next);
    router.replace(next === "all" ? "/admin/payouts" : `/admin/payouts?status=${next}`, { scroll: false });
  };

  return (
    <>
      <PageHeader title="Payouts" description="Businesses' withdrawals to their bank accounts, newest first." />
      <Tabs<PayoutFilter>
        id="payouts"
        label="Filter by status"
        value={filter}
        onChange={choose}
        items={[
          { value: "all", label: "All" },
          { value: "pending", label: "Pending" },
          { value: "processing", label: "Processing" },
          { value: "paid", label: "Paid" },
          { value: "failed", label: "Failed" },
        ]}
      />
      <div {...tabPanelProps("payouts", filter)} className="pt-4 focus-visible:outline-none">
        <DataTable<Payout>
          label="Payouts"
          query={payouts}
          rowKey={(p) => p.id}
          empty={{
            icon: <Banknote className="h-10 w-10" />,
            title: EMPTY[filter],
            description: "Withdrawals businesses request appear here.",
          }}
          columns={[
            {
              header: "Organization",
              cell: (p) => (
                <span className="block min-w-0">
                  <span className="block font-medium text-slate-900 [overflow-wrap:anywhere]">{p.organizationName}</span>
                  <span className="block text-xs font-normal text-slate-600 [overflow-wrap:anywhere]">
                    {p.bankName} ••••{p.accountNumberLast4}
                  </span>
                </span>
              ),
            },
            {
              header: "Amount",
              numeric: true,
              cell: (p) => displayMoney(p.amount, p.currency),
            },
            {
              header: "Status",
              cell: (p) => (
                <span className="flex flex-col items-start gap-2">
                  <WithdrawalStatusBadge status={p.status} failureReason={p.failureReason} />
                  {p.status === "failed" && <RetryButton onClick={() => setRetrying(p)} />}
                </span>
              ),
            },
            {
              header: "Requested",
              className: "text-slate-600 md:whitespace-nowrap",
              cell: (p) => formatDateTime(p.createdAt),
            },
            {
              header: "Completed",
              className: "text-slate-600 md:whitespace-nowrap",
              cell: (p) => formatDateTime(p.completedAt),
            },
          ]}
        />
      </div>
      <ConfirmDialog
        open={retrying !== null}
        onOpenChange={(open) => !open && setRetrying(null)}
        title="Retry this payout?"
        description={
          retrying &&
          `${displayMoney(retrying.amount, retrying.currency)} to ${retrying.organizationName}'s ${retrying.bankName} ••••${retrying.accountNumberLast4} is sent again. The amount is taken from their balance again; if it no longer covers it, the retry is refused.`
        }
        confirmLabel="Retry payout"
        confirmVariant="primary"
        loading={retry.isPending}
        onConfirm={() => retrying && retry.mutate({ id: retrying.id })}
      />
    </>
  );
}

function RetryButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="secondary" size="sm" onClick={onClick}>
      <RotateCcw className="h-4 w-4" aria-hidden /> Retry
    </Button>
  );
}
