"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RotateCw } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { DataTable } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { Badge, ErrorState, Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { NativeSelect } from "@/components/ui/select";
import { formatDateTime } from "@/lib/format";
import { EVENT_TYPES } from "@/lib/enums";
import type { Webhook, WebhookDelivery } from "@/lib/schemas/webhooks";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

/** Request and response text: wrapped (long signatures and URLs included), scrolled only downwards, reachable by keyboard. */
const PRE =
  "mt-1 max-h-40 overflow-y-auto overflow-x-hidden whitespace-pre-wrap rounded bg-slate-100 p-2 text-xs text-slate-900 [overflow-wrap:anywhere] focus-visible:outline-2 focus-visible:outline-brand-600";

type EventFilter = "all" | (typeof EVENT_TYPES)[number] | "ping";

export function DeliveryLog({ webhooks }: { webhooks: Webhook[] }) {
  const trpc = useTRPC();
  const [webhookId, setWebhookId] = useState("all");
  const [event, setEvent] = useState<EventFilter>("all");
  const [status, setStatus] = useState<"all" | "succeeded" | "failed">("all");
  const [open, setOpen] = useState<string | null>(null);
  const urlOf = new Map(webhooks.map((w) => [w.id, w.url]));
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
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
      <DataTable<WebhookDelivery>
        label="Deliveries"
        query={deliveries}
        rowKey={(d) => d.id}
        empty={{ title: "No deliveries yet", description: "Attempts appear here, one row each. Send a test event to see one." }}
        testId="delivery-row"
        columns={[
          {
            header: "Event",
            cell: (d) => (
              <button type="button" onClick={() => setOpen(d.id)} className="text-left hover:underline">
                <span className="block font-mono text-xs font-medium text-slate-900 [overflow-wrap:anywhere]">{d.event}</span>
                <span className="block text-xs text-slate-600">attempt {d.attempt}</span>
              </button>
            ),
          },
          {
            header: "Endpoint",
            wide: true,
            cell: (d) => (
              <span className="font-mono text-xs text-slate-700 [overflow-wrap:anywhere]">{urlOf.get(d.webhookId) ?? "—"}</span>
            ),
          },
          {
            header: "Result",
            cell: (d) => (
              <span className="flex flex-col items-start gap-1">
                <Badge tone={d.status === "succeeded" ? "green" : "red"}>{d.status}</Badge>
                <span className="text-xs text-slate-600 [overflow-wrap:anywhere]">
                  {d.responseStatus ? `HTTP ${d.responseStatus}` : (d.error ?? "")}
                  {d.durationMs !== null ? ` · ${d.durationMs} ms` : ""}
                </span>
              </span>
            ),
          },
          {
            header: "Time",
            className: "text-slate-600 md:whitespace-nowrap",
            cell: (d) => (
              <>
                <span className="md:block">{formatDateTime(d.createdAt)}</span>
                {d.nextRetryAt && (
                  <span className="block text-xs text-slate-600">next try {formatDateTime(d.nextRetryAt)}</span>
                )}
              </>
            ),
          },
          {
            header: "Actions",
            className: "text-right",
            cell: (d) => (
              <Button variant="secondary" size="sm" onClick={() => setOpen(d.id)}>
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
              {d.requestBody}
            </pre>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-600" id="delivery-response">
              Response {d.responseStatus ? `(HTTP ${d.responseStatus}, ${d.durationMs} ms)` : ""}
            </h3>
            <pre className={PRE} tabIndex={0} aria-labelledby="delivery-response">
              {d.responseExcerpt || d.error || "—"}
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
