"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RotateCw } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { DataTable } from "@/components/data-table";
import { Button } from "@/components/ui/button";
import { Badge, ErrorState, Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { NativeSelect } from "@/components/ui/select";
import { formatDateTime } from "@/lib/format";
import { EVENT_TYPES } from "@/server/events/record";
import type { Webhook, WebhookDelivery } from "@/server/webhooks/schemas";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

type EventFilter = "all" | (typeof EVENT_TYPES)[number] | "ping";

export function DeliveryLog({ webhooks }: { webhooks: Webhook[] }) {
  const trpc = useTRPC();
  const [webhookId, setWebhookId] = useState("all");
  const [event, setEvent] = useState<EventFilter>("all");
  const [status, setStatus] = useState<"all" | "succeeded" | "failed">("all");
  const [open, setOpen] = useState<string | null>(null);
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
        columns={[
          {
            header: "Event",
            cell: (d) => (
              <button type="button" onClick={() => setOpen(d.id)} className="text-left hover:underline">
                <span className="block font-mono text-xs font-medium text-slate-900">{d.event}</span>
                <span className="block text-xs text-slate-500">attempt {d.attempt}</span>
              </button>
            ),
          },
          {
            header: "Result",
            cell: (d) => (
              <span className="flex flex-col items-start gap-1">
                <Badge tone={d.status === "succeeded" ? "green" : "red"}>{d.status}</Badge>
                <span className="text-xs text-slate-500">{d.responseStatus ? `HTTP ${d.responseStatus}` : (d.error ?? "")}</span>
              </span>
            ),
          },
          {
            header: "Time",
            className: "hidden sm:table-cell whitespace-nowrap text-slate-600",
            cell: (d) => formatDateTime(d.createdAt),
          },
          {
            header: "",
            className: "text-right",
            cell: (d) => (
              <Button variant="ghost" size="sm" onClick={() => setOpen(d.id)}>
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
      description={d ? `${d.event} → ${d.url}` : undefined}
    >
      {detail.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : detail.isError ? (
        <ErrorState message={errorInfo(detail.error).message} onRetry={() => detail.refetch()} />
      ) : d ? (
        <div className="space-y-4 text-sm">
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-500">Attempts</h3>
            <ol className="mt-2 space-y-1" aria-label="Attempts">
              {d.attempts.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center gap-2">
                  <span className="w-20 text-xs text-slate-500">#{a.attempt}</span>
                  <Badge tone={a.status === "succeeded" ? "green" : "red"}>{a.status}</Badge>
                  <span className="text-xs text-slate-600">
                    {a.responseStatus ? `HTTP ${a.responseStatus}` : a.error} · {formatDateTime(a.createdAt)}
                    {a.nextRetryAt ? ` · next try ${formatDateTime(a.nextRetryAt)}` : ""}
                  </span>
                </li>
              ))}
            </ol>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-500">Request headers</h3>
            <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-100 p-2 text-xs">
              {Object.entries(d.requestHeaders)
                .map(([k, v]) => `${k}: ${v}`)
                .join("\n")}
            </pre>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-500">Request body</h3>
            <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 text-xs">
              {d.requestBody}
            </pre>
          </div>
          <div>
            <h3 className="text-xs font-medium uppercase text-slate-500">
              Response {d.responseStatus ? `(HTTP ${d.responseStatus}, ${d.durationMs} ms)` : ""}
            </h3>
            <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 text-xs">
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
