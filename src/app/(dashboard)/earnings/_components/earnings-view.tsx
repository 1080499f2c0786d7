"use client";

import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { Banknote } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { useTRPC } from "@/trpc/react";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { BalanceCards } from "./balance-cards";
import { NetRevenueChart } from "./net-revenue-chart";
import { TransactionsSection } from "./transactions-section";
import { isInFlight, type WithdrawState } from "./types";
import { WithdrawalsSection } from "./withdrawals-section";

// Loaded when first opened (its form, schema and zod with it).
const WithdrawDialog = lazyDialog(() => import("./withdraw-dialog").then((m) => m.WithdrawDialog));

/** While a withdrawal is on its way, its status (and the balances) are re-read this often. */
const POLL_MS = 3_000;

export function EarningsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const [withdrawing, setWithdrawing] = useState(false);

  const overview = useQuery(trpc.earnings.overview.queryOptions());
  const state = useQuery(trpc.earnings.withdrawState.queryOptions(undefined, { enabled: can.admin }));
  const accounts = useQuery(trpc.bankAccounts.list.queryOptions({ limit: 100 }));
  const withdrawals = useInfiniteQuery(
    trpc.earnings.withdrawals.infiniteQueryOptions(
      { limit: 20 },
      {
        getNextPageParam: (l) => l.nextCursor ?? undefined,
        refetchInterval: (q) => (q.state.data?.pages.some((p) => p.data.some((w) => isInFlight(w.status))) ? POLL_MS : false),
      },
    ),
  );

  // A withdrawal that settles moves money (a failure returns it): re-read the balances then.
  const statuses = withdrawals.data?.pages.flatMap((p) => p.data.map((w) => `${w.id}:${w.status}`)).join(",");
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    const before = seen.current;
    seen.current = statuses;
    if (before === undefined || statuses === undefined || before === statuses) return;
    void queryClient.invalidateQueries({ queryKey: trpc.earnings.overview.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.earnings.withdrawState.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.earnings.transactions.pathKey() });
  }, [statuses, queryClient, trpc]);

  const afterWithdrawal = () => {
    setWithdrawing(false);
    void queryClient.invalidateQueries({ queryKey: trpc.earnings.pathKey() });
  };

  return (
    <>
      <PageHeader
        title="Earnings"
        description="Your customers' payments, net of Coverdesk's fees, and withdrawals to your bank."
        actions={can.admin && <WithdrawButton state={state.data} onClick={() => setWithdrawing(true)} />}
      />
      {can.admin && state.data?.disabledReason && <DisabledReason state={state.data} />}
      {!can.admin && (
        <div className="mb-4">
          <ReadOnlyNotice>
            Only owners and admins manage bank accounts and withdraw. You can see the balances and history.
          </ReadOnlyNotice>
        </div>
      )}
      <div className="space-y-8">
        <BalanceCards
          overview={overview.data}
          isPending={overview.isPending}
          error={overview.error}
          onRetry={() => overview.refetch()}
        />
        <NetRevenueChart currency={overview.data?.currency ?? "NGN"} />
        <WithdrawalsSection withdrawals={withdrawals} accounts={accounts.data?.data ?? []} />
        <TransactionsSection />
      </div>
      {state.data && (
        <WithdrawDialog open={withdrawing} onOpenChange={setWithdrawing} state={state.data} onWithdrawn={afterWithdrawal} />
      )}
    </>
  );
}

function WithdrawButton({ state, onClick }: { state: WithdrawState | undefined; onClick: () => void }) {
  return (
    <Button
      onClick={onClick}
      disabled={!state || state.disabledReason !== null}
      aria-describedby={state?.disabledReason ? "withdraw-disabled-reason" : undefined}
    >
      <Banknote className="h-4 w-4" aria-hidden /> Withdraw
    </Button>
  );
}

function DisabledReason({ state }: { state: WithdrawState }) {
  const reason = {
    kyb_not_approved: (
      <>
        Your business verification (KYB) must be approved before you can withdraw.{" "}
        <Link href="/kyb" className="font-medium text-brand-700 underline">
          Go to verification
        </Link>
      </>
    ),
    no_verified_account: (
      <>
        Add and verify a bank account to withdraw to.{" "}
        <Link href="/bank-accounts" className="font-medium text-brand-700 underline">
          Go to bank accounts
        </Link>
      </>
    ),
    nothing_available: <>There is nothing available to withdraw yet. Your customers&apos; payments add to your balance.</>,
  }[state.disabledReason as NonNullable<WithdrawState["disabledReason"]>];
  return (
    <p
      id="withdraw-disabled-reason"
      role="note"
      data-testid="withdraw-disabled-reason"
      className="mb-6 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      {reason ?? "Withdrawals are not available right now."}
    </p>
  );
}
