"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { FileText, Plus, Search } from "lucide-react";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { Input } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { cn } from "@/lib/cn";
import { displayMoney } from "@/lib/money-format";
import { POLICY_TYPES } from "@/lib/enums";
import { errorInfo, useTRPC } from "@/trpc/react";
import { LazyPolicyForm } from "./lazy-policy-form";
import { DURATION_LABELS, TYPE_LABELS } from "@/lib/policy-labels";

type Status = "all" | "true" | "false";
/** The list's columns from md: name, type, price, status (the header row and every row share them). */
const COLUMNS = "md:grid-cols-[minmax(0,1fr)_9rem_10rem_6rem] md:items-start md:gap-x-4";
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
            <Link href="/policies/new" onPointerEnter={LazyPolicyForm.preload} onFocus={LazyPolicyForm.preload}>
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
                  <Link href="/policies/new" onPointerEnter={LazyPolicyForm.preload} onFocus={LazyPolicyForm.preload}>Create a policy</Link>
                </Button>
              }
            />
          )
        ) : (
          <>
            {/* One list at every width (a row per policy, so specs and screen readers meet each once): columns
                under a visual header from md, a stacked card with every field labelled below it. */}
            <div
              aria-hidden
              className={cn(
                COLUMNS,
                "hidden border-b border-slate-200 bg-slate-50 px-6 py-3 text-xs font-medium uppercase tracking-wide text-slate-600 md:grid",
              )}
            >
              <span>Name</span>
              <span>Type</span>
              <span className="text-right">Price</span>
              <span>Status</span>
            </div>
            <ul aria-label="Policies" className="divide-y divide-slate-200">
              {rows.map((p) => (
                <li key={p.id} data-testid="policy-row" className={cn(COLUMNS, "px-4 py-3 text-sm hover:bg-slate-50 sm:px-6 md:grid")}>
                  <Link
                    href={`/policies/${p.id}`}
                    className="font-medium text-slate-900 [overflow-wrap:anywhere] hover:text-brand-700 hover:underline"
                  >
                    {p.name}
                  </Link>
                  <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 md:col-span-3 md:mt-0 md:grid-cols-subgrid md:gap-y-0">
                    <div className="min-w-0">
                      <dt className="text-xs text-slate-600 md:sr-only">Type</dt>
                      <dd className="text-slate-700">{TYPE_LABELS[p.type]}</dd>
                    </div>
                    <div className="min-w-0 md:text-right">
                      <dt className="text-xs text-slate-600 md:sr-only">Price</dt>
                      <dd className="tabular-nums text-slate-900">
                        {displayMoney(p.price, p.currency)}
                        <span className="block text-xs text-slate-600">{DURATION_LABELS[p.duration].toLowerCase()}</span>
                      </dd>
                    </div>
                    <div className="min-w-0">
                      <dt className="text-xs text-slate-600 md:sr-only">Status</dt>
                      <dd>
                        <Badge tone={p.isActive ? "green" : "slate"}>{p.isActive ? "Active" : "Inactive"}</Badge>
                      </dd>
                    </div>
                  </dl>
                </li>
              ))}
            </ul>
          </>
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
