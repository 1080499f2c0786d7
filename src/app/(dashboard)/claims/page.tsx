"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { ClipboardList } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { StatusBadge } from "@/components/status-badge";
import { PageHeader } from "@/components/ui/card";
import { NativeSelect } from "@/components/ui/select";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money";
import { CLAIM_STATUSES, type Claim } from "@/server/claims/schemas";
import { useTRPC } from "@/trpc/react";

type Status = "all" | (typeof CLAIM_STATUSES)[number];

export default function ClaimsPage() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<Status>("all");
  const claims = useInfiniteQuery(
    trpc.claims.list.infiniteQueryOptions(
      { limit: 20, status: status === "all" ? undefined : status },
      { getNextPageParam: (l) => l.nextCursor ?? undefined },
    ),
  );
  return (
    <>
      <PageHeader title="Claims" description="Claims your customers filed, and where each one is in its review." />
      <div className="mb-4 max-w-xs">
        <NativeSelect aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value as Status)}>
          <option value="all">All statuses</option>
          {CLAIM_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace("_", " ")}
            </option>
          ))}
        </NativeSelect>
      </div>
      <DataTable<Claim>
        label="Claims"
        query={claims}
        rowKey={(c) => c.id}
        empty={{
          icon: <ClipboardList className="h-10 w-10" />,
          title: status === "all" ? "No claims yet" : "No claims with this status",
          description: "Claims arrive through the API (POST /api/v1/claims).",
        }}
        columns={[
          {
            header: "Claim",
            cell: (c) => (
              <Link href={`/claims/${c.id}`} className="block max-w-[9rem] hover:underline sm:max-w-xs">
                <span className="block font-medium capitalize text-slate-900">{c.type}</span>
                <span className="block truncate text-xs text-slate-500">{c.description}</span>
              </Link>
            ),
          },
          {
            header: "Amount",
            className: "text-right tabular-nums whitespace-nowrap",
            cell: (c) => displayMoney(c.amount, c.currency),
          },
          { header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
          {
            header: "Filed",
            className: "hidden sm:table-cell whitespace-nowrap text-slate-600",
            cell: (c) => formatDateTime(c.createdAt),
          },
        ]}
      />
    </>
  );
}
