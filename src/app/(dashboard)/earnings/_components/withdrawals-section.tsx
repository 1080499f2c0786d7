"use client";

import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { Landmark } from "lucide-react";
import { DataTable } from "@/components/data-table";
import { WithdrawalStatusBadge } from "@/components/withdrawal-status-badge";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import type { BankAccount, Withdrawal } from "./types";

export function WithdrawalsSection({
  withdrawals,
  accounts,
}: {
  withdrawals: UseInfiniteQueryResult<InfiniteData<{ data: Withdrawal[]; nextCursor: string | null }>, unknown>;
  accounts: BankAccount[];
}) {
  const accountLabel = (id: string) => {
    const a = accounts.find((x) => x.id === id);
    return a ? `${a.bankName} ••••${a.accountNumberLast4}` : "Removed account";
  };
  return (
    <section aria-labelledby="withdrawals-heading" className="space-y-3">
      <div>
        <h2 id="withdrawals-heading" className="text-base font-semibold text-slate-900">
          Withdrawals
        </h2>
        <p className="text-sm text-slate-600">Payouts to your bank accounts. A failed one returns its amount to your balance.</p>
      </div>
      <DataTable<Withdrawal>
        label="Withdrawals"
        query={withdrawals}
        rowKey={(w) => w.id}
        empty={{
          icon: <Landmark className="h-10 w-10" />,
          title: "No withdrawals yet",
          description: "Withdrawals you request appear here with their progress.",
        }}
        columns={[
          {
            header: "Amount",
            className: "whitespace-nowrap tabular-nums",
            cell: (w) => <span className="font-medium text-slate-900">{displayMoney(w.amount, w.currency)}</span>,
          },
          {
            header: "Bank account",
            className: "text-slate-600",
            cell: (w) => accountLabel(w.bankAccountId),
          },
          {
            header: "Status",
            cell: (w) => <WithdrawalStatusBadge status={w.status} failureReason={w.failureReason} />,
          },
          {
            header: "Requested",
            className: "text-slate-600 md:whitespace-nowrap",
            cell: (w) => formatDateTime(w.createdAt),
          },
          {
            header: "Completed",
            className: "text-slate-600 md:whitespace-nowrap",
            cell: (w) => formatDateTime(w.completedAt),
          },
        ]}
      />
    </section>
  );
}
