"use client";

// Refunds of one payment: the list (updating by itself while one is pending),
// and for owners and admins "Refund" — the amount (what is left by default)
// and a reason, then a confirmation naming who gets what back (./refund-dialog,
// loaded when first opened).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { lazyDialog } from "@/components/lazy-dialog";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";
import { displayMoney, formatMinor, parseDecimal } from "@/lib/money-format";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

const POLL_MS = 2000;

// Loaded when first opened (its form, the API's schema and zod with it).
const RefundDialog = lazyDialog(() => import("./refund-dialog").then((m) => m.RefundDialog));

const minus = (a: string, b: string, currency: string) =>
  formatMinor((parseDecimal(a, currency) ?? 0n) - (parseDecimal(b, currency) ?? 0n), currency);

export function PaymentRefunds({
  reference,
  status,
  amount,
  amountRefunded,
  currency,
  email,
}: {
  reference: string;
  status: string;
  amount: string;
  amountRefunded: string;
  currency: string;
  email: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const refunds = useQuery(
    trpc.refunds.list.queryOptions(
      { paymentReference: reference, limit: 50 },
      { refetchInterval: (q) => (q.state.data?.data.some((r) => r.status === "pending") ? POLL_MS : false) },
    ),
  );
  // A refund that settled (processed, or failed and given back) changes the payment's figures.
  const settled = refunds.data?.data.filter((r) => r.status !== "pending").length;
  useEffect(() => {
    if (settled !== undefined) void queryClient.invalidateQueries({ queryKey: trpc.payments.detail.queryKey({ reference }) });
  }, [settled, reference, queryClient, trpc]);

  const left = minus(amount, amountRefunded, currency);
  const refundable = status === "success" && (parseDecimal(left, currency) ?? 0n) > 0n;
  const [open, setOpen] = useState(false);

  return (
    <Card className="p-6" role="region" aria-label="Refunds">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">Refunds</h2>
        {can.admin && refundable && (
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Refund
          </Button>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-600" data-testid="payment-refunded">
        Refunded {displayMoney(amountRefunded, currency)} of {displayMoney(amount, currency)}
      </p>
      {refunds.isPending ? (
        <Skeleton className="mt-4 h-12 w-full" />
      ) : refunds.isError ? (
        <ErrorState message={errorInfo(refunds.error).message} onRetry={() => refunds.refetch()} />
      ) : refunds.data.data.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">No refunds.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {refunds.data.data.map((r) => (
            <li key={r.id} className="flex flex-wrap items-start justify-between gap-2 py-3" data-testid="refund-row">
              <div className="min-w-0">
                <p className="text-sm font-medium">{displayMoney(r.amount, r.currency)}</p>
                <p className="text-xs text-slate-500">
                  {formatDateTime(r.createdAt)}
                  {r.reason && ` · ${r.reason}`}
                </p>
                {r.failureReason && <p className="mt-1 text-xs text-red-700">{r.failureReason}</p>}
              </div>
              <span data-testid="refund-status">
                <StatusBadge status={r.status} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {refundable && (
        <RefundDialog open={open} onOpenChange={setOpen} reference={reference} left={left} currency={currency} email={email} />
      )}
    </Card>
  );
}
