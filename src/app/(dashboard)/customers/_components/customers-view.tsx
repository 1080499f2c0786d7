"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { Users } from "lucide-react";
import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { FilterBar, SearchBox } from "@/components/list-filters";
import { PageHeader } from "@/components/ui/card";
import { formatDate } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { useQueryState } from "@/lib/use-query-state";
import type { Customer } from "@/lib/schemas/customers";
import { useTRPC } from "@/trpc/react";

const FILTERS = ["q"] as const;

export function CustomersView() {
  const trpc = useTRPC();
  const [f, setFilters] = useQueryState(FILTERS);
  const customers = useInfiniteQuery(
    trpc.customers.list.infiniteQueryOptions(
      { limit: 20, q: f.q || undefined },
      { getNextPageParam: (l) => l.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  return (
    <>
      <PageHeader
        title="Customers"
        description="Everyone who bought one of your policies, with what they hold and paid. A renewal extends the same coverage."
      />
      <FilterBar>
        <SearchBox id="customers-search" label="Search" placeholder="Name or email" value={f.q} onChange={(q) => setFilters({ q })} />
      </FilterBar>
      <DataTable<Customer>
        label="Customers"
        query={customers}
        rowKey={(c) => c.id}
        testId="customer-row"
        empty={{
          icon: <Users className="h-10 w-10" />,
          title: f.q ? "No customers match this search" : "No customers yet",
          description: f.q
            ? "Search by a part of the name or the email."
            : "A customer appears here after their first successful payment.",
        }}
        columns={[
          {
            header: "Customer",
            cell: (c) => (
              <Link href={`/customers/${c.id}`} className="group block">
                <span className="block font-medium text-slate-900 group-hover:underline md:whitespace-nowrap">
                  {c.name ?? c.email}
                </span>
                {c.name && <span className="block text-xs text-slate-600 md:whitespace-nowrap">{c.email}</span>}
              </Link>
            ),
          },
          {
            header: "Coverages",
            cell: (c) => `${c.coverages.active} active${c.coverages.total > c.coverages.active ? ` · ${c.coverages.total - c.coverages.active} expired` : ""}`,
          },
          { header: "Payments", numeric: true, cell: (c) => c.paymentsCount },
          { header: "Total paid", numeric: true, cell: (c) => displayMoney(c.totalPaid, c.currency) },
          { header: "Customer since", cell: (c) => formatDate(c.createdAt) },
          { header: "Last paid", cell: (c) => formatDate(c.lastPaidAt) },
        ]}
      />
    </>
  );
}
