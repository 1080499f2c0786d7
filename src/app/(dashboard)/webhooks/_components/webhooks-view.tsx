"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Pencil, Plus, Send, Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/format";
import type { Webhook } from "@/lib/schemas/webhooks";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { DeliveryLog } from "./delivery-log";

// Loaded when first opened (its form, schema and zod with it).
const CreateWebhookDialog = lazyDialog(() => import("./create-webhook-dialog").then((m) => m.CreateWebhookDialog));
const RollSecretDialog = lazyDialog(
  () => import("./roll-secret-dialog").then((m) => m.RollSecretDialog),
  (props) => props.webhook !== null,
);

export function WebhooksView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const hooks = useInfiniteQuery(
    trpc.webhooks.list.infiniteQueryOptions({ limit: 50 }, { getNextPageParam: (l) => l.nextCursor ?? undefined }),
  );
  const stats = useQuery({ ...trpc.webhooks.stats.queryOptions(), refetchInterval: 15_000 });
  const statsOf = new Map((stats.data ?? []).map((x) => [x.webhookId, x]));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [rolling, setRolling] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const onError = (err: unknown) => toast.error(errorInfo(err).message);

  const setStatus = useMutation(trpc.webhooks.setStatus.mutationOptions({ onSuccess: () => refresh(), onError }));
  const test = useMutation(
    trpc.webhooks.test.mutationOptions({
      onSuccess: (d) => {
        if (d.status === "succeeded") toast.success(`Test event delivered (HTTP ${d.responseStatus})`);
        else toast.error(`Test event failed: ${d.error}`);
        void refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: () => {
        toast.success("Webhook deleted");
        setDeleting(null);
        void refresh();
      },
      onError,
    }),
  );
  const rows = hooks.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="We POST signed events to your endpoints as they happen, and retry failures for about 3 days."
        actions={
          can.admin && (
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden /> Add endpoint
            </Button>
          )
        }
      />
      {!can.admin && (
        <div className="mb-4">
          <ReadOnlyNotice>Only owners and admins manage webhooks. You can see the endpoints and their deliveries.</ReadOnlyNotice>
        </div>
      )}
      <Card>
        {hooks.isPending ? (
          <div className="space-y-3 p-6">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
          </div>
        ) : hooks.isError ? (
          <ErrorState message={errorInfo(hooks.error).message} onRetry={() => hooks.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<WebhookIcon className="h-10 w-10" />}
            title="No endpoints yet"
            description="Add an endpoint to hear about purchases, renewals, payments and claims in real time."
            action={can.admin && <Button onClick={() => setCreating(true)}>Add your first endpoint</Button>}
          />
        ) : (
          <ul role="list" className="divide-y divide-slate-200">
            {rows.map((h) => (
              <li
                key={h.id}
                data-testid="webhook-row"
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
              >
                <div className="min-w-0 space-y-1">
                  <p className="break-all font-mono text-sm text-slate-900">{h.url}</p>
                  <div className="flex flex-wrap gap-1.5">
                    <Badge tone={h.status === "enabled" ? "green" : "slate"}>{h.status}</Badge>
                    {h.events.map((e) => (
                      <Badge key={e} tone="blue">
                        {e}
                      </Badge>
                    ))}
                  </div>
                  {h.disabledReason && <p className="text-xs text-amber-700">{h.disabledReason}</p>}
                  {stats.data && <ErrorRate attempts={statsOf.get(h.id)?.attempts ?? 0} failed={statsOf.get(h.id)?.failed ?? 0} />}
                  {h.failingSince && h.status === "enabled" && (
                    <p className="text-xs text-red-700" data-testid="failing-since">
                      Every delivery has failed since {formatDateTime(h.failingSince)}. After 3 days of failures the endpoint is
                      disabled.
                    </p>
                  )}
                  {h.previousSecretExpiresAt && (
                    <p className="text-xs text-slate-600" data-testid="secret-overlap">
                      The previous secret also signs deliveries until {formatDateTime(h.previousSecretExpiresAt)}.
                    </p>
                  )}
                </div>
                {can.admin && (
                  <div className="flex flex-wrap gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      loading={test.isPending && test.variables?.id === h.id}
                      onClick={() => test.mutate({ id: h.id })}
                    >
                      <Send className="h-4 w-4" aria-hidden /> Send test event
                    </Button>
                    <Button variant="secondary" size="sm" onClick={() => setEditing(h)}>
                      <Pencil className="h-4 w-4" aria-hidden /> Edit
                    </Button>
                    <Button variant="secondary" size="sm" onClick={() => setRolling(h)}>
                      <KeyRound className="h-4 w-4" aria-hidden /> Roll secret
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setStatus.mutate({ id: h.id, status: h.status === "enabled" ? "disabled" : "enabled" })}
                    >
                      {h.status === "enabled" ? "Disable" : "Enable"}
                    </Button>
                    <Button variant="danger" size="sm" onClick={() => setDeleting(h)}>
                      Delete
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <DeliveryLog webhooks={rows} />

      <CreateWebhookDialog open={creating} onOpenChange={setCreating} onCreated={() => void refresh()} />
      <CreateWebhookDialog
        key={editing?.id ?? "none"}
        open={editing !== null}
        editing={editing}
        onOpenChange={(open) => !open && setEditing(null)}
        onCreated={() => void refresh()}
      />
      <RollSecretDialog webhook={rolling} onOpenChange={(open) => !open && setRolling(null)} onRolled={() => void refresh()} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this endpoint?"
        description={`No more events will be sent to ${deleting?.url ?? ""}. Its delivery log is deleted with it.`}
        confirmLabel="Delete endpoint"
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </>
  );
}

/** The endpoint's last 7 days: how many attempts failed. */
function ErrorRate({ attempts, failed }: { attempts: number; failed: number }) {
  if (attempts === 0) return <p className="text-xs text-slate-600" data-testid="error-rate">No deliveries in the last 7 days.</p>;
  const rate = Math.round((failed / attempts) * 1000) / 10;
  return (
    <p className={failed > 0 ? "text-xs text-red-700" : "text-xs text-slate-600"} data-testid="error-rate">
      Last 7 days: {rate}% of {attempts} {attempts === 1 ? "attempt" : "attempts"} failed.
    </p>
  );
}
