"use client";

import { ArrowDownRight, ArrowUpRight } from "lucide-react";
import type { ReactNode } from "react";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { cn } from "@/lib/cn";
import { displayMoney } from "@/lib/money-format";
import { errorInfo } from "@/trpc/react";
import { percentChange, signedMinor } from "./signed-money";
import type { EarningsOverview } from "./types";

export function BalanceCards({
  overview,
  isPending,
  error,
  onRetry,
}: {
  overview: EarningsOverview | undefined;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  if (isPending) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Loading balances">
        {[0, 1, 2, 3].map((i) => (
          <Card key={i} className="space-y-3 p-5">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-7 w-32" />
          </Card>
        ))}
      </div>
    );
  }
  if (error || !overview) {
    return (
      <Card>
        <ErrorState message={errorInfo(error).message} onRetry={onRetry} />
      </Card>
    );
  }
  const money = (amount: string) => displayMoney(amount, overview.currency);
  const { net, previous30DaysNet } = overview.last30Days;
  const change = percentChange(net, previous30DaysNet);
  const up = (signedMinor(net) ?? 0n) >= (signedMinor(previous30DaysNet) ?? 0n);
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Stat testId="balance-available" label="Available balance" value={money(overview.availableBalance)} emphasis>
          Payments less fees, withdrawals, refunds and claim payouts
        </Stat>
        <Stat testId="balance-pending" label="Pending withdrawals" value={money(overview.pendingWithdrawals)}>
          On their way to your bank
        </Stat>
        <Stat testId="balance-withdrawn" label="Total withdrawn" value={money(overview.totalWithdrawn)}>
          Paid out to your bank
        </Stat>
        <Stat testId="balance-fees" label="Platform fees" value={money(overview.platformFees)}>
          Coverdesk&apos;s fees on your payments
        </Stat>
        <Stat testId="balance-refunded" label="Refunded" value={money(overview.totalRefunded)}>
          Back to customers (failed refunds came back)
        </Stat>
        <Stat testId="balance-claims-paid" label="Claims paid" value={money(overview.totalClaimsPaid)}>
          Paid out through Coverdesk
        </Stat>
      </div>
      <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <p className="text-sm text-slate-600">Total earned</p>
          <p className="text-lg font-semibold tabular-nums text-slate-900" data-testid="balance-total-earned">
            {money(overview.totalEarned)}
          </p>
        </div>
        <div className="sm:text-right">
          <p className="text-sm text-slate-600">Net, last 30 days</p>
          <p className="flex flex-wrap items-center gap-2 text-lg font-semibold tabular-nums text-slate-900 sm:justify-end">
            {money(net)}
            {change && (
              <span
                className={cn(
                  "inline-flex items-center gap-0.5 rounded-full px-2 py-0.5 text-xs font-medium",
                  up ? "bg-emerald-50 text-emerald-700" : "bg-red-50 text-red-700",
                )}
              >
                {up ? <ArrowUpRight className="h-3 w-3" aria-hidden /> : <ArrowDownRight className="h-3 w-3" aria-hidden />}
                {change}
              </span>
            )}
          </p>
          <p className="text-xs text-slate-600">Previous 30 days: {money(previous30DaysNet)}</p>
        </div>
      </Card>
    </div>
  );
}

function Stat({
  label,
  value,
  children,
  emphasis,
  testId,
}: {
  label: string;
  value: string;
  children: ReactNode;
  emphasis?: boolean;
  testId: string;
}) {
  return (
    <Card className={cn("p-5", emphasis && "border-brand-100 bg-brand-50/50")}>
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 break-words text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
      <p className="mt-1 text-xs text-slate-600">{children}</p>
    </Card>
  );
}
