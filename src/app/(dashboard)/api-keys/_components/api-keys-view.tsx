"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/format";
import type { ApiKey, ApiKeyWithSecret } from "@/lib/schemas/api-keys";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { SecretDialog } from "./secret-dialog";

// Loaded when first opened (its form, schema and zod with it).
const ApiKeyFormDialog = lazyDialog(() => import("./api-key-form-dialog").then((m) => m.ApiKeyFormDialog));

type Pending = { kind: "revoke" | "regenerate"; key: ApiKey } | null;

export function ApiKeysView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const keys = useInfiniteQuery(
    trpc.apiKeys.list.infiniteQueryOptions({ limit: 20 }, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
  );
  const [editing, setEditing] = useState<ApiKey | "new" | null>(null);
  const [secret, setSecret] = useState<ApiKeyWithSecret | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.pathKey() });

  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions());
  const regenerate = useMutation(trpc.apiKeys.regenerate.mutationOptions());

  const confirm = async () => {
    if (!pending) return;
    try {
      if (pending.kind === "revoke") {
        await revoke.mutateAsync({ id: pending.key.id });
        toast.success(`Revoked “${pending.key.name}”`);
      } else {
        setSecret(await regenerate.mutateAsync({ id: pending.key.id }));
      }
      setPending(null);
      await refresh();
    } catch (err) {
      toast.error(errorInfo(err).message);
    }
  };

  const rows = keys.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let your systems call the Coverdesk REST API. Treat them like passwords."
        actions={
          can.admin && (
            <Button onClick={() => setEditing("new")}>
              <Plus className="h-4 w-4" aria-hidden /> Create key
            </Button>
          )
        }
      />
      {!can.admin && (
        <div className="mb-4">
          <ReadOnlyNotice>Only owners and admins create, change or revoke API keys. Ask one of them for a key.</ReadOnlyNotice>
        </div>
      )}
      <Card>
        {keys.isPending ? (
          <div className="space-y-3 p-6" aria-label="Loading API keys">
            <Skeleton className="h-5 w-1/3" />
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
          </div>
        ) : keys.isError ? (
          <ErrorState message={errorInfo(keys.error).message} onRetry={() => keys.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<KeyRound className="h-10 w-10" />}
            title="No API keys yet"
            description={
              can.admin
                ? "Create a key to call the API from your website or back office."
                : "An owner or admin of your organization can create one."
            }
            action={can.admin && <Button onClick={() => setEditing("new")}>Create your first key</Button>}
          />
        ) : (
          <ul role="list" className="divide-y divide-slate-200">
            {rows.map((key) => (
              <li
                key={key.id}
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:px-6"
                data-testid="api-key-row"
              >
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{key.name}</span>
                    <Badge tone={key.mode === "test" ? "amber" : "slate"}>{key.mode === "test" ? "test" : "live"}</Badge>
                    <Badge tone={key.status === "active" ? "green" : "red"}>{key.status}</Badge>
                    {key.permissions.map((p) => (
                      <Badge key={p} tone="blue">
                        {p}
                      </Badge>
                    ))}
                  </div>
                  <p className="font-mono text-xs text-slate-600">{key.prefix}…</p>
                  <p className="text-xs text-slate-600">
                    Created {formatDateTime(key.createdAt)} · Last used{" "}
                    {key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "never"}
                  </p>
                </div>
                {can.admin && key.status === "active" && (
                  <div className="flex flex-wrap gap-2">
                    <Button variant="secondary" size="sm" onClick={() => setEditing(key)}>
                      Edit
                    </Button>
                    <Button variant="secondary" size="sm" onClick={() => setPending({ kind: "regenerate", key })}>
                      Regenerate
                    </Button>
                    <Button variant="danger" size="sm" onClick={() => setPending({ kind: "revoke", key })}>
                      Revoke
                    </Button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        {keys.hasNextPage && (
          <div className="border-t border-slate-200 p-4 text-center">
            <Button variant="secondary" size="sm" loading={keys.isFetchingNextPage} onClick={() => keys.fetchNextPage()}>
              Load more
            </Button>
          </div>
        )}
      </Card>

      <ApiKeyFormDialog
        apiKey={editing === "new" ? null : editing}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        onCreated={(created) => {
          setEditing(null);
          setSecret(created);
          void refresh();
        }}
        onUpdated={() => {
          setEditing(null);
          toast.success("Key updated");
          void refresh();
        }}
      />
      <SecretDialog apiKey={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.kind === "revoke" ? `Revoke “${pending.key.name}”?` : `Regenerate “${pending?.key.name}”?`}
        description={
          pending?.kind === "revoke"
            ? "Requests with this key will be refused at once. This cannot be undone."
            : "A new secret replaces the current one. Requests with the current secret will be refused at once."
        }
        confirmLabel={pending?.kind === "revoke" ? "Revoke key" : "Regenerate key"}
        loading={revoke.isPending || regenerate.isPending}
        onConfirm={confirm}
      />
    </>
  );
}
