"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { StatusBadge } from "@/components/status-badge";
import { PageHeader } from "@/components/ui/card";
import { NativeSelect } from "@/components/ui/select";
import { formatDate } from "@/lib/format";
import type { Coverage } from "@/server/coverages/schemas";
import { useTRPC } from "@/trpc/react";

type Status = "all" | "active" | "expired";

export default function PolicyholdersPage() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<Status>("all");
  const policies = useInfiniteQuery(
    trpc.policies.list.infiniteQueryOptions({ limit: 100 }, { getNextPageParam: (l) => l.nextCursor ?? undefined }),
  );
  const names = new Map((policies.data?.pages.flatMap((p) => p.data) ?? []).map((p) => [p.id, p.name]));
  const coverages = useInfiniteQuery(
    trpc.coverages.list.infiniteQueryOptions(
      { limit: 20, status: status === "all" ? undefined : status },
      { getNextPageParam: (l) => l.nextCursor ?? undefined },
    ),
  );
  return (
    <>
      <PageHeader title="Policyholders" description="Customers covered by your policies. A renewal extends the same coverage." />
      <div className="mb-4 max-w-xs">
        <NativeSelect aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as Status)}>
          <option value="all">All coverages</option>
          <option value="active">Active</option>
          <option value="expired">Expired</option>
        </NativeSelect>
      </div>
      <DataTable<Coverage>
        label="Coverages"
        query={coverages}
        rowKey={(c) => c.id}
        empty={{
          icon: <ShieldCheck className="h-10 w-10" />,
          title: "No policyholders yet",
          description: "A customer appears here after their first successful payment.",
        }}
        columns={[
          { header: "Customer", cell: (c) => <span className="break-all font-medium text-slate-900">{c.customerEmail}</span> },
          { header: "Policy", className: "hidden sm:table-cell", cell: (c) => names.get(c.policyId) ?? c.policyId },
          { header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
          {
            header: "Covered",
            className: "hidden sm:table-cell whitespace-nowrap text-slate-600",
            cell: (c) =>
              `${formatDate(c.startsAt)} – ${formatDate(c.endsAt)}${c.renewalCount ? ` · ${c.renewalCount} renewal${c.renewalCount > 1 ? "s" : ""}` : ""}`,
          },
        ]}
      />
    </>
  );
}
