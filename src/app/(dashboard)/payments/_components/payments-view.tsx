"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { CreditCard, Download } from "lucide-react";
import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { DateRangeFilter, FilterBar, FilterSelect, SearchBox } from "@/components/list-filters";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, PageHeader, Skeleton } from "@/components/ui/card";
import { formatDate, formatTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { useQueryState } from "@/lib/use-query-state";
import { PAYMENT_STATUSES } from "@/lib/enums";
import type { PaymentRow, PaymentTotals } from "@/lib/schemas/payments";
import { useTRPC } from "@/trpc/react";
import { PAYMENT_FILTERS, paymentFilters } from "./filters";

const today = () => new Date().toISOString().slice(0, 10);

export function PaymentsView() {
  const trpc = useTRPC();
  const [f, setFilters] = useQueryState(PAYMENT_FILTERS);
  const filters = paymentFilters(f);
  const filtered = Object.values(filters).some(Boolean);
  const policies = useQuery(trpc.policies.list.queryOptions({ limit: 100 }));
  const links = useQuery(trpc.paymentLinks.list.queryOptions({ limit: 100 }));
  const org = useQuery(trpc.organizations.current.queryOptions());
  const payments = useInfiniteQuery(
    trpc.payments.search.infiniteQueryOptions(
      { limit: 20, ...filters },
      { getNextPageParam: (l) => l.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  const totals = useQuery(trpc.payments.totals.queryOptions(filters, { placeholderData: keepPreviousData }));

  // The CSV holds every payment the filters match: all time unless a range is chosen.
  const csv = new URLSearchParams({ type: "payments", format: "csv" });
  csv.set("from", filters.from ?? org.data?.createdAt.slice(0, 10) ?? "2000-01-01");
  csv.set("to", filters.to ?? today());
  if (filters.status) csv.set("status", filters.status);
  if (filters.policyId) csv.set("policyId", filters.policyId);
  if (filters.paymentLinkId) csv.set("paymentLinkId", filters.paymentLinkId);
  if (filters.q) csv.set("q", filters.q);

  return (
    <>
      <PageHeader
        title="Payments"
        description="Customers' payments for your policies. Sell with a reusable page from Payment links."
        actions={
          <Button asChild variant="secondary" size="sm">
            <a href={`/api/export?${csv}`} download>
              <Download className="h-4 w-4" aria-hidden /> Download CSV
            </a>
          </Button>
        }
      />
      <FilterBar>
        <SearchBox
          id="payments-search"
          label="Search"
          placeholder="Email, name or reference"
          value={f.q}
          onChange={(q) => setFilters({ q })}
        />
        <FilterSelect
          id="payments-status"
          label="Status"
          allLabel="All statuses"
          value={filters.status ?? ""}
          onChange={(status) => setFilters({ status })}
          options={PAYMENT_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
        />
        <FilterSelect
          id="payments-policy"
          label="Policy"
          allLabel="All policies"
          value={f.policyId}
          onChange={(policyId) => setFilters({ policyId })}
          options={(policies.data?.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
        <FilterSelect
          id="payments-link"
          label="Payment link"
          allLabel="Any or none"
          value={f.paymentLinkId}
          onChange={(paymentLinkId) => setFilters({ paymentLinkId })}
          options={(links.data?.data ?? []).map((l) => ({ value: l.id, label: l.name ?? `${l.policyName} link` }))}
        />
        <DateRangeFilter idPrefix="payments" from={f.from} to={f.to} onChange={(range) => setFilters(range)} />
      </FilterBar>
      <Totals totals={totals.data} pending={totals.isPending} failed={totals.isError} filtered={filtered} />
      <DataTable<PaymentRow>
        label="Payments"
        query={payments}
        rowKey={(p) => p.reference}
        testId="payment-row"
        empty={{
          icon: <CreditCard className="h-10 w-10" />,
          title: filtered ? "No payments match these filters" : "No payments yet",
          description: filtered
            ? "Change or clear the filters to see more."
            : "Share a payment link, or create a payment for one customer from a policy's page.",
        }}
        columns={[
          {
            header: "Customer",
            cell: (p) => (
              <Link href={`/payments/${encodeURIComponent(p.reference)}`} className="group block">
                <span className="block font-medium text-slate-900 group-hover:underline md:whitespace-nowrap">
                  {p.customerName ?? p.email}
                </span>
                {p.customerName && <span className="block text-xs text-slate-600 md:whitespace-nowrap">{p.email}</span>}
                <span className="block font-mono text-xs text-slate-600 md:whitespace-nowrap">{p.reference}</span>
              </Link>
            ),
          },
          { header: "Policy", cell: (p) => p.policyName, wide: true },
          { header: "Amount", numeric: true, cell: (p) => displayMoney(p.amount, p.currency) },
          { header: "Fee", numeric: true, cell: (p) => (p.fee === null ? "—" : displayMoney(p.fee, p.currency)) },
          { header: "Net", numeric: true, cell: (p) => (p.net === null ? "—" : displayMoney(p.net, p.currency)) },
          { header: "Status", cell: (p) => <StatusBadge status={p.status} /> },
          {
            header: "Date",
            className: "whitespace-nowrap text-slate-600",
            wide: true,
            cell: (p) => (
              <>
                <span className="md:block">{formatDate(p.paidAt ?? p.createdAt)}</span>{" "}
                <span className="text-slate-600 md:block md:text-xs">{formatTime(p.paidAt ?? p.createdAt)}</span>
              </>
            ),
          },
        ]}
      />
    </>
  );
}

function Totals({
  totals,
  pending,
  failed,
  filtered,
}: {
  totals: PaymentTotals | undefined;
  pending: boolean;
  failed: boolean;
  filtered: boolean;
}) {
  if (failed) return null;
  if (pending || !totals) return <Skeleton className="mb-4 h-20 w-full" />;
  const items = [
    {
      label: filtered ? "Matching payments" : "Payments",
      value: String(totals.count),
      sub: `${totals.succeeded} paid · ${totals.failed} failed · ${totals.pending} pending`,
    },
    { label: "Gross", value: displayMoney(totals.gross, totals.currency), sub: "Successful payments" },
    { label: "Fees", value: displayMoney(totals.fees, totals.currency), sub: "Platform fees" },
    { label: "Net", value: displayMoney(totals.net, totals.currency), sub: "What you keep" },
  ];
  return (
    <Card className="mb-4" aria-label="Totals" role="region">
      <dl className="grid grid-cols-2 divide-slate-200 lg:grid-cols-4 lg:divide-x" data-testid="payment-totals">
        {items.map((i) => (
          <div key={i.label} className="p-4">
            <dt className="text-xs font-medium text-slate-600">{i.label}</dt>
            <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900" data-testid={`total-${i.label.toLowerCase().split(" ").pop()}`}>
              {i.value}
            </dd>
            <dd className="text-xs text-slate-600">{i.sub}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
