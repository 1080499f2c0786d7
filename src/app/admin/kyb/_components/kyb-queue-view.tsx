"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { ChevronRight, Inbox } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { KybStatusBadge } from "@/components/kyb-status-badge";
import { PageHeader } from "@/components/ui/card";
import { tabPanelProps, Tabs } from "@/components/ui/tabs";
import { formatDateTime } from "@/lib/format";
import type { KybQueueItem } from "@/lib/schemas/admin";
import { useTRPC } from "@/trpc/react";

export type QueueFilter = "pending" | "approved" | "rejected" | "all";

const EMPTY: Record<QueueFilter, { title: string; description: string }> = {
  pending: { title: "Nothing to review", description: "Every submission has been decided. New ones appear here, oldest first." },
  approved: { title: "No approved businesses yet", description: "Businesses you approve are listed here." },
  rejected: { title: "No rejected submissions", description: "Submissions you reject are listed here until resubmitted." },
  all: { title: "No submissions yet", description: "Businesses appear here once they submit their KYB documents." },
};

export function KybQueueView({ initialFilter }: { initialFilter: QueueFilter }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [filter, setFilter] = useState<QueueFilter>(initialFilter);
  const queue = useInfiniteQuery(
    trpc.admin.kybQueue.infiniteQueryOptions(
      { status: filter === "all" ? undefined : filter, limit: 20 },
      { getNextPageParam: (l) => l.nextCursor ?? undefined },
    ),
  );

  const choose = (next: QueueFilter) => {
    setFilter(next);
    // In the address, so coming back from a review keeps the tab.
    router.replace(next === "pending" ? "/admin/kyb" : `/admin/kyb?status=${next}`, { scroll: false });
  };

  return (
    <>
      <PageHeader
        title="KYB reviews"
        description="Businesses' verification documents. Pending submissions first, oldest first."
      />
      <Tabs<QueueFilter>
        id="kyb-queue"
        label="Filter by status"
        value={filter}
        onChange={choose}
        items={[
          { value: "pending", label: "Pending" },
          { value: "approved", label: "Approved" },
          { value: "rejected", label: "Rejected" },
          { value: "all", label: "All" },
        ]}
      />
      <div {...tabPanelProps("kyb-queue", filter)} className="pt-4 focus-visible:outline-none">
        <DataTable<KybQueueItem>
          label="KYB submissions"
          query={queue}
          rowKey={(r) => r.organizationId}
          empty={{ icon: <Inbox className="h-10 w-10" />, ...EMPTY[filter] }}
          columns={[
            {
              header: "Organization",
              cell: (r) => (
                <Link
                  href={`/admin/kyb/${encodeURIComponent(r.organizationId)}`}
                  className="font-medium text-slate-900 [overflow-wrap:anywhere] hover:text-brand-700 hover:underline"
                >
                  {r.organizationName}
                </Link>
              ),
            },
            {
              header: "Email",
              wide: true,
              cell: (r) => <span className="text-slate-600 [overflow-wrap:anywhere]">{r.organizationEmail ?? "—"}</span>,
            },
            {
              header: "Submitted",
              className: "md:whitespace-nowrap",
              cell: (r) => <span className="text-slate-600">{formatDateTime(r.submittedAt)}</span>,
            },
            { header: "Status", cell: (r) => <KybStatusBadge status={r.status} /> },
            {
              header: "Review",
              className: "w-24 text-right",
              cell: (r) => (
                <Link
                  href={`/admin/kyb/${encodeURIComponent(r.organizationId)}`}
                  aria-label={`Review ${r.organizationName}`}
                  className="inline-flex items-center gap-0.5 rounded text-sm font-medium text-brand-700 hover:underline"
                >
                  Review <ChevronRight className="h-4 w-4" aria-hidden />
                </Link>
              ),
            },
          ]}
        />
      </div>
    </>
  );
}
