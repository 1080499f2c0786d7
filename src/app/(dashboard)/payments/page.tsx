"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { CreditCard, ExternalLink } from "lucide-react";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { StatusBadge } from "@/components/status-badge";
import { PageHeader } from "@/components/ui/card";
import { NativeSelect } from "@/components/ui/select";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money";
import { PAYMENT_STATUSES, type Payment } from "@/server/payments/schemas";
import { useTRPC } from "@/trpc/react";

type Status = "all" | (typeof PAYMENT_STATUSES)[number];

export default function PaymentsPage() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<Status>("all");
  const payments = useInfiniteQuery(
    trpc.payments.list.infiniteQueryOptions(
      { limit: 20, status: status === "all" ? undefined : status },
      { getNextPageParam: (l) => l.nextCursor ?? undefined },
    ),
  );
  return (
    <>
      <PageHeader
        title="Payments"
        description="Customers' payments for your policies. Create a payment link from a policy's page."
      />
      <div className="mb-4 max-w-xs">
        <NativeSelect aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as Status)}>
          <option value="all">All statuses</option>
          {PAYMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s[0]!.toUpperCase() + s.slice(1)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <DataTable<Payment>
        label="Payments"
        query={payments}
        rowKey={(p) => p.reference}
        empty={{
          icon: <CreditCard className="h-10 w-10" />,
          title: status === "all" ? "No payments yet" : "No payments with this status",
          description: "Open a policy and create a payment link to send to a customer.",
        }}
        columns={[
          {
            header: "Customer",
            cell: (p) => (
              <>
                <span className="block break-all font-medium text-slate-900">{p.email}</span>
                <span className="block break-all font-mono text-xs text-slate-500">{p.reference}</span>
              </>
            ),
          },
          {
            header: "Amount",
            className: "text-right tabular-nums whitespace-nowrap",
            cell: (p) => displayMoney(p.amount, p.currency),
          },
          {
            header: "Status",
            cell: (p) => (
              <span className="flex flex-col items-start gap-1">
                <StatusBadge status={p.status} />
                {p.status === "pending" && (
                  <a
                    href={p.authorizationUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex items-center gap-1 text-xs text-brand-600 hover:underline"
                  >
                    Checkout <ExternalLink className="h-3 w-3" aria-hidden />
                  </a>
                )}
              </span>
            ),
          },
          {
            header: "Date",
            className: "hidden sm:table-cell whitespace-nowrap text-slate-600",
            cell: (p) => formatDateTime(p.paidAt ?? p.createdAt),
          },
        ]}
      />
    </>
  );
}
