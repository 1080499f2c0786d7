"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ClipboardList } from "lucide-react";
import Link from "next/link";
import { DataTable } from "@/components/data-table";
import { FilterBar, FilterSelect, SearchBox } from "@/components/list-filters";
import { StatusBadge } from "@/components/status-badge";
import { PageHeader } from "@/components/ui/card";
import { formatDate, formatTime } from "@/lib/format";
import { displayMoney } from "@/lib/money-format";
import { useQueryState } from "@/lib/use-query-state";
import { CLAIM_STATUSES, CLAIM_TYPES } from "@/lib/enums";
import type { ClaimRow } from "@/lib/schemas/claims";
import { useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";
import { FileClaimButton } from "./file-claim-button";
import { CLAIM_FILTERS, claimFilters } from "./filters";

const label = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1).replace("_", " ")}`;

export function ClaimsView() {
  const trpc = useTRPC();
  const { can } = useMe();
  const [f, setFilters] = useQueryState(CLAIM_FILTERS);
  const filters = claimFilters(f);
  const filtered = Object.values(filters).some(Boolean);
  const policies = useQuery(trpc.policies.list.queryOptions({ limit: 100 }));
  const claims = useInfiniteQuery(
    trpc.claims.search.infiniteQueryOptions(
      { limit: 20, ...filters },
      { getNextPageParam: (l) => l.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  return (
    <>
      <PageHeader
        title="Claims"
        description="Claims your customers filed, and where each one is in its review."
        actions={can.manage ? <FileClaimButton /> : undefined}
      />
      <FilterBar>
        <SearchBox
          id="claims-search"
          label="Search"
          placeholder="Customer email or description"
          value={f.q}
          onChange={(q) => setFilters({ q })}
        />
        <FilterSelect
          id="claims-status"
          label="Status"
          allLabel="All statuses"
          value={filters.status ?? ""}
          onChange={(status) => setFilters({ status })}
          options={CLAIM_STATUSES.map((s) => ({ value: s, label: label(s) }))}
        />
        <FilterSelect
          id="claims-type"
          label="Type"
          allLabel="All types"
          value={filters.type ?? ""}
          onChange={(type) => setFilters({ type })}
          options={CLAIM_TYPES.map((t) => ({ value: t, label: label(t) }))}
        />
        <FilterSelect
          id="claims-policy"
          label="Policy"
          allLabel="All policies"
          value={f.policyId}
          onChange={(policyId) => setFilters({ policyId })}
          options={(policies.data?.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </FilterBar>
      <DataTable<ClaimRow>
        label="Claims"
        query={claims}
        rowKey={(c) => c.id}
        testId="claim-row"
        empty={{
          icon: <ClipboardList className="h-10 w-10" />,
          title: filtered ? "No claims match these filters" : "No claims yet",
          description: filtered
            ? "Change or clear the filters to see more."
            : "Claims arrive through the API (POST /api/v1/claims), or file one here for a customer.",
        }}
        columns={[
          {
            header: "Claim",
            cell: (c) => (
              <Link href={`/claims/${c.id}`} className="group block md:max-w-xs">
                <span className="block font-medium text-slate-900 group-hover:underline">{label(c.type)} claim</span>
                <span className="line-clamp-2 text-xs text-slate-600">{c.description}</span>
              </Link>
            ),
          },
          { header: "Policy", cell: (c) => c.policyName },
          {
            header: "Customer",
            wide: true,
            cell: (c) => <span className="md:whitespace-nowrap">{c.customerEmail ?? "—"}</span>,
          },
          { header: "Amount", numeric: true, cell: (c) => displayMoney(c.amount, c.currency) },
          { header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
          {
            header: "Filed",
            className: "whitespace-nowrap text-slate-600",
            cell: (c) => (
              <>
                <span className="md:block">{formatDate(c.createdAt)}</span>{" "}
                <span className="text-slate-600 md:block md:text-xs">{formatTime(c.createdAt)}</span>
              </>
            ),
          },
        ]}
      />
    </>
  );
}
