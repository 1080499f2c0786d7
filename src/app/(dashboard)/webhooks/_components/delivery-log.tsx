"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronRight, RotateCw } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { DataTable } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { Badge, ErrorState, Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { NativeSelect } from "@/components/ui/select";
import { formatDateTime } from "@/lib/format";
import { EVENT_TYPES } from "@/lib/enums";
import type { Webhook, WebhookDelivery, WebhookDeliveryGroup } from "@/lib/schemas/webhooks";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

/** Request and response text: wrapped (long signatures and URLs included), scrolled only downwards, reachable by keyboard. */
const PRE =
  "mt-1 max-h-40 overflow-y-auto overflow-x-hidden whitespace-pre-wrap rounded bg-slate-100 p-2 text-xs text-slate-900 [overflow-wrap:anywhere] focus-visible:outline-2 focus-visible:outline-brand-600";

/** A JSON object or array indented by two spaces; any other text (a cut-off excerpt too) as it came. */
function prettyJson(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? JSON.stringify(value, null, 2) : text;
  } catch {
    return text;
  }
}

type EventFilter = "all" | (typeof EVENT_TYPES)[number] | "ping";

export function DeliveryLog({ webhooks }: { webhooks: Webhook[] }) {
  const trpc = useTRPC();
  const [webhookId, setWebhookId] = useState("all");
  const [event, setEvent] = useState<EventFilter>("all");
  const [status, setStatus] = useState<"all" | "succeeded" | "failed">("all");
  const [open, setOpen] = useState<string | null>(null);
  // The groups shown open, by event and endpoint: they stay open while the log refreshes.
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const filtered = webhookId !== "all" || event !== "all" || status !== "all";
  const groups = useInfiniteQuery(
    trpc.webhooks.deliveryGroups.infiniteQueryOptions(
      {
        limit: 20,
        webhookId: webhookId === "all" ? undefined : webhookId,
        event: event === "all" ? undefined : event,
        status: status === "all" ? undefined : status,
      },
      { getNextPageParam: (l) => l.nextCursor ?? undefined, refetchInterval: 5000 },
    ),
  );

  return (
    <section className="mt-8" aria-label="Delivery log">
      <h2 className="mb-3 text-lg font-semibold">Delivery log</h2>
      <div className="mb-4 grid gap-3 sm:grid-cols-3">
        <NativeSelect aria-label="Endpoint" value={webhookId} onChange={(e) => setWebhookId(e.target.value)}>
          <option value="all">All endpoints</option>
          {webhooks.map((w) => (
            <option key={w.id} value={w.id}>
              {w.url}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect aria-label="Event" value={event} onChange={(e) => setEvent(e.target.value as EventFilter)}>
          <option value="all">All events</option>
          {[...EVENT_TYPES, "ping"].map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect aria-label="Outcome" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="all">All outcomes</option>
          <option value="succeeded">Succeeded</option>
          <option value="failed">Failed</option>
        </NativeSelect>
      </div>
      <DataTable<WebhookDeliveryGroup>
        label="Deliveries"
        query={groups}
        rowKey={groupKey}
        empty={
          filtered
            ? { title: "No deliveries match these filters" }
            : {
                title: "No deliveries yet",
                description:
                  "Each event sent to an endpoint appears here once, its attempts inside. Send a test event to see one.",
              }
        }
        testId="delivery-group"
        expanded={(g) => (expanded.has(groupKey(g)) ? <Attempts group={g} onOpen={setOpen} /> : null)}
        columns={[
          {
            header: "Event",
            cell: (g) => (
              <button
                type="button"
                aria-expanded={expanded.has(groupKey(g))}
                onClick={() => toggle(groupKey(g))}
                className="group flex items-start gap-1.5 rounded text-left hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <ChevronRight
                  className="mt-0.5 h-4 w-4 shrink-0 text-slate-500 transition-transform group-aria-expanded:rotate-90"
                  aria-hidden
                />
                <span className="min-w-0">
                  <span className="block font-mono text-xs font-medium text-slate-900 [overflow-wrap:anywhere] md:whitespace-nowrap">
                    {g.event}
                  </span>
                  <span className="block font-mono text-xs font-normal text-slate-600 [overflow-wrap:anywhere] md:whitespace-nowrap">
                    {g.eventId}
                  </span>
                </span>
              </button>
            ),
          },
          {
            header: "Endpoint",
            wide: true,
            cell: (g) => <span className="font-mono text-xs text-slate-700 [overflow-wrap:anywhere]">{g.url}</span>,
          },
          {
            header: "Result",
            cell: ({ latest: d }) => (
              <span className="flex flex-col items-start gap-1">
                <Badge tone={d.status === "succeeded" ? "green" : "red"}>{d.status}</Badge>
                <span className="text-xs text-slate-600 [overflow-wrap:anywhere]">{outcomeOf(d)}</span>
              </span>
            ),
          },
          {
            header: "Attempts",
            numeric: true,
            cell: (g) => g.attemptCount,
          },
          {
            header: "Time",
            className: "text-slate-600 md:whitespace-nowrap",
            cell: ({ latest: d }) => (
              <>
                <span className="md:block">{formatDateTime(d.createdAt)}</span>
                {d.nextRetryAt && <span className="block text-xs text-slate-600">next try {formatDateTime(d.nextRetryAt)}</span>}
              </>
            ),
          },
          {
            header: "Actions",
            className: "text-right md:whitespace-nowrap",
            cell: (g) => (
              <Button variant="secondary" size="sm" onClick={() => setOpen(g.latest.id)}>
                Details
              </Button>
            ),
          },
        ]}
      />
      <DeliveryDetail id={open} onClose={() => setOpen(null)} onRetried={(id) => setOpen(id)} />
    </section>
  );
}

const groupKey = (g: WebhookDeliveryGroup) => `${g.webhookId} ${g.eventId}`;

/** HTTP status or error, and how long the attempt took. */
const outcomeOf = (d: WebhookDelivery) =>
  `${d.responseStatus ? `HTTP ${d.responseStatus}` : (d.error ?? "")}${d.durationMs !== null ? ` · ${d.durationMs} ms` : ""}`;

/** An open group: its attempts, oldest first, each opening its details. */
function Attempts({ group, onOpen }: { group: WebhookDeliveryGroup; onOpen: (id: string) => void }) {
  const hidden = group.attemptCount - group.attempts.length;
  return (
    <div className="rounded-md border border-slate-200 bg-white">
      {hidden > 0 && (
        <p className="border-b border-slate-200 px-3 py-2 text-xs text-slate-600">
          The latest {group.attempts.length} of {group.attemptCount} attempts.
        </p>
      )}
      <ol className="divide-y divide-slate-200" aria-label="Attempts">
        {group.attempts.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-xs" data-testid="delivery-attempt">
            <span className="w-8 font-medium text-slate-700">#{a.attempt}</span>
            <Badge tone={a.status === "succeeded" ? "green" : "red"}>{a.status}</Badge>
            <span className="min-w-0 text-slate-600 [overflow-wrap:anywhere]">{outcomeOf(a)}</span>
            <span className="text-slate-600">
              {formatDateTime(a.createdAt)}
              {a.nextRetryAt ? ` · next try ${formatDateTime(a.nextRetryAt)}` : ""}
            </span>
            <Button
              variant="ghost"
              size="sm"
              className="ml-auto"
              aria-label={`Details of attempt ${a.attempt}`}
              onClick={() => onOpen(a.id)}
            >
              Details
            </Button>
          </li>
        ))}
      </ol>
    </div>
  );
}

function DeliveryDetail({ id, onClose, onRetried }: { id: string | null; onClose: () => void; onRetried: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const detail = useQuery({ ...trpc.webhooks.delivery.queryOptions({ id: id ?? "" }), enabled: id !== null });
  const retry = useMutation(
    trpc.webhooks.retry.mutationOptions({
      onSuccess: (d) => {
        toast[d.status === "succeeded" ? "success" : "error"](
          d.status === "succeeded" ? "Delivered" : `Failed again: ${d.error}`,
        );
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
        onRetried(d.id);
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );
  const d = detail.data;
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(o) => !o && onClose()}
      title="Delivery"
      description={
        d ? (
          <span className="[overflow-wrap:anywhere]">
            {d.event} → {d.url}
          </span>
        ) : undefined
      }
    >
      {detail.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : detail.isError ? (
        <ErrorState message={errorInfo(detail.error).message} onRetry={() => detail.refetch()} />
      ) : d ? (
        <div className="space-y-4 text-sm">
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-600">Attempts</h3>
            <ol className="mt-2 space-y-1" aria-label="Attempts">
              {d.attempts.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center gap-2">
                  <span className="w-8 text-xs text-slate-600">#{a.attempt}</span>
                  <Badge tone={a.status === "succeeded" ? "green" : "red"}>{a.status}</Badge>
                  <span className="min-w-0 text-xs text-slate-600 [overflow-wrap:anywhere]">
                    {a.responseStatus ? `HTTP ${a.responseStatus}` : a.error} · {formatDateTime(a.createdAt)}
                    {a.nextRetryAt ? ` · next try ${formatDateTime(a.nextRetryAt)}` : ""}
                  </span>
                </li>
              ))}
            </ol>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-600" id="delivery-request-headers">
              Request headers
            </h3>
            <pre className={PRE} tabIndex={0} aria-labelledby="delivery-request-headers">
              {Object.entries(d.requestHeaders)
                .map(([k, v]) => `${k}: ${v}`)
                .join("\n")}
            </pre>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-600" id="delivery-request-body">
              Request body
            </h3>
            <pre className={PRE} tabIndex={0} aria-labelledby="delivery-request-body">
              {prettyJson(d.requestBody)}
            </pre>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-600" id="delivery-response">
              Response {d.responseStatus ? `(HTTP ${d.responseStatus}, ${d.durationMs} ms)` : ""}
            </h3>
            <pre className={PRE} tabIndex={0} aria-labelledby="delivery-response">
              {d.responseExcerpt ? prettyJson(d.responseExcerpt) : d.error || "—"}
            </pre>
          </div>
          {can.admin && (
            <div className="flex justify-end">
              <Button loading={retry.isPending} onClick={() => retry.mutate({ id: d.id })}>
                <RotateCw className="h-4 w-4" aria-hidden /> Retry now
              </Button>
            </div>
          )}
        </div>
      ) : null}
    </Dialog>
  );
}
