"use client";

// Paying an approved claim: the claimant's bank (searchable list) and account
// number, the account holder's name as the bank gives it, the amount, then a
// confirmation naming who is paid what (./pay-claim-dialog, loaded when first
// opened) — and the claim's payouts, whose status updates by itself until each
// is paid or failed.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { ClaimantAccount } from "@/lib/schemas/claim-payouts";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

const POLL_MS = 2000;
const inFlight = (status: string) => status === "pending" || status === "processing";

/** The claim's payouts, newest first; refreshed while one is under way. */
export function ClaimPayouts({ claimId }: { claimId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const payouts = useQuery(
    trpc.claimPayouts.list.queryOptions(
      { id: claimId },
      {
        refetchInterval: (q) => (q.state.data?.data.some((p) => inFlight(p.status)) ? POLL_MS : false),
      },
    ),
  );
  // A payout that settled changes the claim (paid, or still approved): read it again.
  const settledIds = payouts.data?.data
    .filter((p) => !inFlight(p.status))
    .map((p) => p.id)
    .join(",");
  useEffect(() => {
    if (settledIds !== undefined) void queryClient.invalidateQueries({ queryKey: trpc.claims.detail.queryKey({ id: claimId }) });
  }, [settledIds, claimId, queryClient, trpc]);

  if (payouts.isPending) return <Skeleton className="h-24 w-full" />;
  if (payouts.isError) {
    return (
      <Card className="p-6">
        <ErrorState message={errorInfo(payouts.error).message} onRetry={() => payouts.refetch()} />
      </Card>
    );
  }
  if (payouts.data.data.length === 0) return null;
  return (
    <Card className="p-6" role="region" aria-label="Payouts">
      <h2 className="text-base font-semibold">Payouts</h2>
      <ul className="mt-4 divide-y divide-slate-100">
        {payouts.data.data.map((p) => (
          <li key={p.id} className="flex flex-wrap items-start justify-between gap-2 py-3" data-testid="claim-payout">
            <div className="min-w-0">
              <p className="text-sm font-medium">
                {displayMoney(p.amount, p.currency)} to {p.accountName}
              </p>
              <p className="text-xs text-slate-500">
                {p.bankName} ••••{p.accountNumberLast4} · {formatDateTime(p.createdAt)}
                {p.paidAt && ` · paid ${formatDateTime(p.paidAt)}`}
              </p>
              {p.failureReason && <p className="mt-1 text-xs text-red-700">{p.failureReason}</p>}
            </div>
            <span data-testid="claim-payout-status">
              <StatusBadge status={p.status} />
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** After a payout was sent: say so, and read the claim and its payouts again. */
export function usePayoutSent() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (p: { amount: string; currency: string; accountName: string }) => {
    toast.success(`Payout of ${displayMoney(p.amount, p.currency)} to ${p.accountName} sent`);
    void queryClient.invalidateQueries({ queryKey: trpc.claimPayouts.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.claims.pathKey() });
  };
}

// Loaded when first opened (its form, the API's schema and zod with it).
export const PayClaimDialog = lazyDialog(() => import("./pay-claim-dialog").then((m) => m.PayClaimDialog));

/**
 * The account the policyholder gave in the portal for this approved claim, and
 * paying the approved amount to it: one click, confirmed. (Another account, or
 * part of the amount, goes through "Pay claim".)
 */
export function ClaimantAccountCard({
  claimId,
  account,
  approved,
  currency,
  canPay,
}: {
  claimId: string;
  account: ClaimantAccount;
  approved: string | null;
  currency: string;
  canPay: boolean;
}) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The same list the Payouts card reads (one request): no second payout while one is under way or paid.
  const payouts = useQuery(trpc.claimPayouts.list.queryOptions({ id: claimId }));
  const underWay = payouts.data?.data.some((p) => inFlight(p.status) || p.status === "paid") ?? true;
  const sent = usePayoutSent();
  const pay = useMutation(
    trpc.claimPayouts.create.mutationOptions({
      onSuccess: (p) => {
        sent(p);
        setConfirming(false);
        setError(null);
      },
      onError: (err) => {
        setConfirming(false);
        setError(errorInfo(err).message);
      },
    }),
  );
  const who = `${account.accountName}, ${account.bankName} ••••${account.accountNumberLast4}`;
  return (
    <Card className="p-6" role="region" aria-label="Policyholder's payout account" data-testid="claimant-account">
      <h2 className="text-base font-semibold">Where the policyholder asked to be paid</h2>
      <p className="mt-2 text-sm">
        <strong>{account.accountName}</strong>
        <span className="text-slate-600">
          {" "}
          · {account.bankName} ••••{account.accountNumberLast4}
        </span>
      </p>
      <p className="text-xs text-slate-500">
        Given in the portal {formatDateTime(account.givenAt)}; the name is as the bank gives it.
      </p>
      {canPay && approved !== null && !underWay && (
        <div className="mt-4 space-y-2">
          <Button onClick={() => setConfirming(true)} data-testid="pay-claimant-account">
            Pay {displayMoney(approved, currency)} to this account
          </Button>
          <FormError message={error} />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!next) setConfirming(false);
        }}
        title="Send this payout?"
        description={
          <>
            {displayMoney(approved ?? "0", currency)} to <strong>{who}</strong>. The money leaves your balance now; if the bank
            refuses it, it comes back and you can pay again.
          </>
        }
        confirmLabel="Send payout"
        confirmVariant="primary"
        loading={pay.isPending}
        onConfirm={() => pay.mutate({ id: claimId, data: {} })}
      />
    </Card>
  );
}
