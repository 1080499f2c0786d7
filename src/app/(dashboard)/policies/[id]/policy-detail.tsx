"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Link2, Pencil, Share2, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { lazyDialog } from "@/components/lazy-dialog";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { displayMoney } from "@/lib/money-format";
import { formatDateTime } from "@/lib/format";
import { errorInfo, useTRPC } from "@/trpc/react";
import { DURATION_LABELS, TYPE_LABELS } from "@/lib/policy-labels";
import { PolicyAnalyticsPanel } from "./policy-analytics";

// Loaded when first opened (its form, schema and zod with it).
const PaymentLinkDialog = lazyDialog(() => import("./payment-link-dialog").then((m) => m.PaymentLinkDialog));

export function PolicyDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = useQuery(trpc.policies.get.queryOptions({ id }));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [linking, setLinking] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.policies.pathKey() });
  const setStatus = useMutation(
    trpc.policies.setStatus.mutationOptions({
      onSuccess: (p) => {
        toast.success(p.isActive ? "Policy activated: customers can buy it" : "Policy deactivated: no new purchases");
        void refresh();
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );
  const remove = useMutation(
    trpc.policies.delete.mutationOptions({
      onSuccess: () => {
        setConfirmDelete(false);
        toast.success("Policy deleted. It stays listed as inactive.");
        void refresh();
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );

  if (policy.isPending) {
    return (
      <div className="space-y-4" aria-label="Loading policy">
        <Skeleton className="h-8 w-1/3" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (policy.isError) {
    const info = errorInfo(policy.error);
    return info.code === "not_found" ? (
      <Card>
        <EmptyState
          title="Policy not found"
          description="It does not exist or belongs to another organization."
          action={
            <Link className="text-sm font-medium text-brand-600 hover:underline" href="/policies">
              Back to policies
            </Link>
          }
        />
      </Card>
    ) : (
      <Card>
        <ErrorState message={info.message} onRetry={() => policy.refetch()} />
      </Card>
    );
  }
  const p = policy.data;

  return (
    <>
      <Link href="/policies" className="mb-4 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Policies
      </Link>
      <PageHeader
        title={p.name}
        description={`${TYPE_LABELS[p.type]} · ${DURATION_LABELS[p.duration]} · ${displayMoney(p.price, p.currency)}`}
        actions={
          <>
            {p.isActive && (
              <>
                <Button asChild>
                  <Link href={`/payment-links?policyId=${encodeURIComponent(p.id)}`}>
                    <Share2 className="h-4 w-4" aria-hidden /> Share
                  </Link>
                </Button>
                <Button variant="secondary" onClick={() => setLinking(true)}>
                  <Link2 className="h-4 w-4" aria-hidden /> Payment for one customer
                </Button>
              </>
            )}
            <Button variant="secondary" asChild>
              <Link href={`/policies/${p.id}/edit`}>
                <Pencil className="h-4 w-4" aria-hidden /> Edit
              </Link>
            </Button>
            {p.isActive && (
              <Button variant="danger" onClick={() => setConfirmDelete(true)}>
                <Trash2 className="h-4 w-4" aria-hidden /> Delete
              </Button>
            )}
          </>
        }
      />

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="space-y-5 p-6 lg:col-span-2">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex items-center gap-2">
              <span className="text-sm font-medium text-slate-700">Status</span>
              <Badge tone={p.isActive ? "green" : "slate"}>{p.isActive ? "Active" : "Inactive"}</Badge>
            </div>
            <label className="flex cursor-pointer items-center gap-3 text-sm">
              <span>{p.isActive ? "On sale" : "Not on sale"}</span>
              <button
                type="button"
                role="switch"
                aria-checked={p.isActive}
                aria-label="On sale"
                disabled={setStatus.isPending}
                onClick={() => setStatus.mutate({ id: p.id, isActive: !p.isActive })}
                className={`relative inline-flex h-6 w-11 items-center rounded-full transition-colors disabled:opacity-60 ${p.isActive ? "bg-brand-600" : "bg-slate-300"}`}
              >
                <span
                  className={`inline-block h-5 w-5 transform rounded-full bg-white shadow transition-transform ${p.isActive ? "translate-x-5" : "translate-x-0.5"}`}
                />
              </button>
            </label>
          </div>
          {p.description && <Section title="Description">{p.description}</Section>}
          {p.coverage && <Section title="What is covered">{p.coverage}</Section>}
          <div className="grid gap-5 sm:grid-cols-2">
            <Items title="Benefits" items={p.benefits} />
            <Items title="Exclusions" items={p.exclusions} />
          </div>
          <p className="text-xs text-slate-600">
            Created {formatDateTime(p.createdAt)} · Updated {formatDateTime(p.updatedAt)} · ID{" "}
            <code className="font-mono">{p.id}</code>
          </p>
        </Card>
        <PolicyAnalyticsPanel id={p.id} />
      </div>

      <PaymentLinkDialog policy={p} open={linking} onOpenChange={setLinking} />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete “${p.name}”?`}
        description="Customers will no longer be able to buy it. This is a soft delete: the policy stays listed as inactive, with its payments, coverages and claims, and you can reactivate it later."
        confirmLabel="Delete policy"
        loading={remove.isPending}
        onConfirm={() => remove.mutate({ id: p.id })}
      />
    </>
  );
}

function Section({ title, children }: { title: string; children: string }) {
  return (
    <div>
      <h2 className="text-sm font-medium text-slate-700">{title}</h2>
      <p className="mt-1 whitespace-pre-line text-sm text-slate-600">{children}</p>
    </div>
  );
}

function Items({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <h2 className="text-sm font-medium text-slate-700">{title}</h2>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">None listed</p>
      ) : (
        <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-600" aria-label={title}>
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
