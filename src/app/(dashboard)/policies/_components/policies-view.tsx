"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { FileText, Plus, Search } from "lucide-react";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { Input } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { displayMoney } from "@/lib/money";
import { POLICY_TYPES } from "@/server/policies/schemas";
import { errorInfo, useTRPC } from "@/trpc/react";
import { DURATION_LABELS, TYPE_LABELS } from "./labels";

type Status = "all" | "true" | "false";
type TypeFilter = "all" | (typeof POLICY_TYPES)[number];

export function PoliciesView() {
  const trpc = useTRPC();
  const [q, setQ] = useState("");
  const [status, setStatus] = useState<Status>("all");
  const [type, setType] = useState<TypeFilter>("all");
  const search = useDeferredValue(q.trim());
  const filtered = search !== "" || status !== "all" || type !== "all";

  const policies = useInfiniteQuery(
    trpc.policies.list.infiniteQueryOptions(
      {
        limit: 20,
        q: search || undefined,
        isActive: status === "all" ? undefined : status,
        type: type === "all" ? undefined : type,
      },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const rows = policies.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <PageHeader
        title="Policies"
        description="The insurance products your customers can buy."
        actions={
          <Button asChild>
            <Link href="/policies/new">
              <Plus className="h-4 w-4" aria-hidden /> New policy
            </Link>
          </Button>
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_10rem_10rem]">
        <label className="relative block">
          <span className="sr-only">Search policies</span>
          <Search className="pointer-events-none absolute left-3 top-3 h-4 w-4 text-slate-400" aria-hidden />
          <Input placeholder="Search by name" value={q} onChange={(e) => setQ(e.target.value)} className="pl-9" />
        </label>
        <label>
          <span className="sr-only">Status</span>
          <NativeSelect value={status} onChange={(e) => setStatus(e.target.value as Status)} aria-label="Status">
            <option value="all">All statuses</option>
            <option value="true">Active</option>
            <option value="false">Inactive</option>
          </NativeSelect>
        </label>
        <label>
          <span className="sr-only">Type</span>
          <NativeSelect value={type} onChange={(e) => setType(e.target.value as TypeFilter)} aria-label="Type">
            <option value="all">All types</option>
            {POLICY_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
        </label>
      </div>
      <Card>
        {policies.isPending ? (
          <div className="space-y-3 p-6" aria-label="Loading policies">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/3" />
          </div>
        ) : policies.isError ? (
          <ErrorState message={errorInfo(policies.error).message} onRetry={() => policies.refetch()} />
        ) : rows.length === 0 ? (
          filtered ? (
            <EmptyState title="No policies match" description="Try another search or clear the filters." />
          ) : (
            <EmptyState
              icon={<FileText className="h-10 w-10" />}
              title="Publish your first policy"
              description="Describe what you cover and at what price; then share a payment link with your customers."
              action={
                <Button asChild>
                  <Link href="/policies/new">Create a policy</Link>
                </Button>
              }
            />
          )
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium sm:px-6">
                    Name
                  </th>
                  <th scope="col" className="hidden px-4 py-3 font-medium sm:table-cell">
                    Type
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-medium">
                    Price
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium sm:px-6">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {rows.map((p) => (
                  <tr key={p.id} className="hover:bg-slate-50" data-testid="policy-row">
                    <td className="px-4 py-3 sm:px-6">
                      <Link
                        href={`/policies/${p.id}`}
                        className="font-medium text-slate-900 hover:text-brand-700 hover:underline"
                      >
                        {p.name}
                      </Link>
                      <span className="block text-xs text-slate-600 sm:hidden">{TYPE_LABELS[p.type]}</span>
                    </td>
                    <td className="hidden px-4 py-3 text-slate-700 sm:table-cell">{TYPE_LABELS[p.type]}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-right tabular-nums">
                      {displayMoney(p.price, p.currency)}
                      <span className="block text-xs text-slate-600">{DURATION_LABELS[p.duration].toLowerCase()}</span>
                    </td>
                    <td className="px-4 py-3 sm:px-6">
                      <Badge tone={p.isActive ? "green" : "slate"}>{p.isActive ? "Active" : "Inactive"}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {policies.hasNextPage && (
          <div className="border-t border-slate-200 p-4 text-center">
            <Button variant="secondary" size="sm" loading={policies.isFetchingNextPage} onClick={() => policies.fetchNextPage()}>
              Load more
            </Button>
          </div>
        )}
      </Card>
    </>
  );
}
