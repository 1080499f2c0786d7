"use client";

import { keepPreviousData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Download, ScrollText } from "lucide-react";
import { useState } from "react";
import { DataTable } from "@/components/data-table";
import { lazyDialog } from "@/components/lazy-dialog";
import { DateRangeFilter, FilterBar, FilterSelect, SearchBox } from "@/components/list-filters";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { formatDate, formatTime } from "@/lib/format";
import type { AuditLogEntry, ListAuditLogsQuery } from "@/lib/schemas/audit";
import { toast } from "@/lib/toast";
import { useQueryState } from "@/lib/use-query-state";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ACTOR_TYPES, ActorBadge } from "./actor-badge";
import { auditCsv } from "./csv";

const EntryDrawer = lazyDialog(
  () => import("./entry-drawer").then((m) => m.EntryDrawer),
  (props: { entry: AuditLogEntry | null }) => props.entry !== null,
);

const FILTERS = ["action", "actorType", "from", "to"] as const;
/** The most entries one CSV holds (100 a page). */
export const CSV_MAX_ROWS = 10_000;

type ActorType = NonNullable<ListAuditLogsQuery["actorType"]>;

export function AuditLogView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [f, setFilters] = useQueryState(FILTERS);
  const filters = {
    action: f.action || undefined,
    actorType: ACTOR_TYPES.some((t) => t.value === f.actorType) ? (f.actorType as ActorType) : undefined,
    from: /^\d{4}-\d{2}-\d{2}$/.test(f.from) ? f.from : undefined,
    to: /^\d{4}-\d{2}-\d{2}$/.test(f.to) ? f.to : undefined,
  };
  const filtered = Object.values(filters).some(Boolean);
  const entries = useInfiniteQuery(
    trpc.auditLogs.list.infiniteQueryOptions(
      { limit: 25, ...filters },
      { getNextPageParam: (l) => l.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  const [open, setOpen] = useState<AuditLogEntry | null>(null);
  const [exporting, setExporting] = useState(false);

  /** Every entry the filters match (at most CSV_MAX_ROWS), fetched a page of 100 at a time, as a CSV file. */
  async function downloadCsv() {
    setExporting(true);
    try {
      const all: AuditLogEntry[] = [];
      let cursor: string | undefined;
      do {
        const page = await queryClient.fetchQuery(trpc.auditLogs.list.queryOptions({ limit: 100, ...filters, cursor }));
        all.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && all.length < CSV_MAX_ROWS);
      const rows = all.slice(0, CSV_MAX_ROWS);
      const url = URL.createObjectURL(new Blob([auditCsv(rows)], { type: "text/csv;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `audit-log-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      if (cursor)
        toast.success(`Downloaded the newest ${CSV_MAX_ROWS.toLocaleString("en")} entries: narrow the dates for older ones`);
    } catch (err) {
      toast.error(errorInfo(err).message);
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed what in your organization — team members, API keys, policyholders and Coverdesk itself. Entries can never be changed or deleted."
        actions={
          <Button
            variant="secondary"
            size="sm"
            className="shrink-0 whitespace-nowrap"
            loading={exporting}
            onClick={() => void downloadCsv()}
          >
            <Download className="h-4 w-4" aria-hidden /> Download CSV
          </Button>
        }
      />
      <FilterBar>
        <SearchBox
          id="audit-action"
          label="Action"
          placeholder="api_key. or api_key.created"
          value={f.action}
          onChange={(action) => setFilters({ action })}
        />
        <FilterSelect
          id="audit-actor-type"
          label="Actor"
          allLabel="Anyone"
          value={filters.actorType ?? ""}
          onChange={(actorType) => setFilters({ actorType })}
          options={ACTOR_TYPES.map((t) => ({ value: t.value, label: t.label }))}
        />
        <DateRangeFilter idPrefix="audit" from={f.from} to={f.to} onChange={(range) => setFilters(range)} />
      </FilterBar>
      <DataTable<AuditLogEntry>
        label="Audit log entries"
        query={entries}
        rowKey={(e) => e.id}
        testId="audit-row"
        empty={{
          icon: <ScrollText className="h-10 w-10" />,
          title: filtered ? "No entries match these filters" : "No entries yet",
          description: filtered
            ? "Change or clear the filters to see more. An action filter is exact, or a prefix ending in a dot (api_key.)."
            : "Changes to keys, the team, money out, claims, policies and settings appear here.",
        }}
        columns={[
          {
            header: "When",
            className: "whitespace-nowrap text-slate-600",
            cell: (e) => (
              <>
                <span className="md:block">{formatDate(e.createdAt)}</span>{" "}
                <span className="text-slate-600 md:block md:text-xs">{formatTime(e.createdAt)}</span>
              </>
            ),
          },
          {
            header: "Who",
            wide: true,
            cell: (e) => (
              <span className="flex min-w-0 flex-wrap items-center gap-2">
                <ActorBadge type={e.actor.type} />
                <span className="min-w-0 text-slate-900">{e.actor.label}</span>
              </span>
            ),
          },
          {
            header: "Action",
            className: "whitespace-nowrap",
            cell: (e) => (
              <button
                type="button"
                onClick={() => setOpen(e)}
                className="text-left font-mono text-xs font-medium text-slate-900 hover:underline"
                aria-label={`${e.action}: details`}
              >
                {e.action}
              </button>
            ),
          },
          {
            header: "Resource",
            cell: (e) => (
              <span className="font-mono text-xs text-slate-700">
                <span className="block">{e.resource.type}</span>
                {e.resource.id && <span className="block text-slate-600">{e.resource.id}</span>}
              </span>
            ),
          },
          {
            header: "IP",
            className: "whitespace-nowrap",
            cell: (e) => <span className="font-mono text-xs text-slate-700">{e.ipAddress ?? "—"}</span>,
          },
          {
            header: "Actions",
            className: "whitespace-nowrap text-right",
            cell: (e) => (
              <Button variant="secondary" size="sm" onClick={() => setOpen(e)}>
                Details
              </Button>
            ),
          },
        ]}
      />
      <EntryDrawer entry={open} onClose={() => setOpen(null)} />
    </>
  );
}
