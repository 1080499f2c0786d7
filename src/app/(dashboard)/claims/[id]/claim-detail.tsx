"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Textarea } from "@/components/ui/field";
import { formatDateTime } from "@/lib/format";
import { displayMoney } from "@/lib/money";
import { CLAIM_MOVES, type ClaimStatus } from "@/server/claims/schemas";
import { errorInfo, useTRPC } from "@/trpc/react";

type Move = Exclude<ClaimStatus, "submitted">;

const ACTIONS: Record<Move, { label: string; variant: "primary" | "secondary" | "danger"; askNote: boolean }> = {
  under_review: { label: "Start review", variant: "primary", askNote: false },
  approved: { label: "Approve", variant: "primary", askNote: false },
  rejected: { label: "Reject", variant: "danger", askNote: true },
  paid: { label: "Mark paid", variant: "primary", askNote: false },
};

export function ClaimDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const claim = useQuery(trpc.claims.get.queryOptions({ id }));
  const policy = useQuery({ ...trpc.policies.get.queryOptions({ id: claim.data?.policyId ?? "" }), enabled: !!claim.data });
  const [rejecting, setRejecting] = useState(false);
  const [note, setNote] = useState("");
  const update = useMutation(
    trpc.claims.updateStatus.mutationOptions({
      onSuccess: (c) => {
        toast.success(`Claim ${c.status.replace("_", " ")}`);
        setRejecting(false);
        setNote("");
        void queryClient.invalidateQueries({ queryKey: trpc.claims.pathKey() });
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );

  if (claim.isPending) return <Skeleton className="h-64 w-full" />;
  if (claim.isError) {
    const info = errorInfo(claim.error);
    return (
      <Card>
        {info.code === "not_found" ? (
          <EmptyState title="Claim not found" description="It does not exist or belongs to another organization." />
        ) : (
          <ErrorState message={info.message} onRetry={() => claim.refetch()} />
        )}
      </Card>
    );
  }
  const c = claim.data;
  const moves = CLAIM_MOVES[c.status] as Move[];

  return (
    <>
      <Link href="/claims" className="mb-4 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Claims
      </Link>
      <PageHeader
        title={`${c.type[0]!.toUpperCase()}${c.type.slice(1)} claim · ${displayMoney(c.amount, c.currency)}`}
        description={policy.data ? `On ${policy.data.name}` : undefined}
        actions={moves.map((m) => (
          <Button
            key={m}
            variant={ACTIONS[m].variant}
            loading={update.isPending && update.variables?.data.status === m}
            onClick={() => (ACTIONS[m].askNote ? setRejecting(true) : update.mutate({ id: c.id, data: { status: m } }))}
          >
            {ACTIONS[m].label}
          </Button>
        ))}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="space-y-4 p-6 lg:col-span-2">
          <div className="flex items-center gap-2">
            <span className="text-sm font-medium text-slate-700">Status</span>
            <StatusBadge status={c.status} />
          </div>
          <div>
            <h2 className="text-sm font-medium text-slate-700">Description</h2>
            <p className="mt-1 whitespace-pre-line text-sm text-slate-600">{c.description}</p>
          </div>
          <p className="text-xs text-slate-500">
            {c.coverageId ? "Linked to the customer's coverage." : "Not linked to a coverage."} Filed{" "}
            {formatDateTime(c.createdAt)} · ID <code className="font-mono">{c.id}</code>
          </p>
        </Card>
        <Card className="p-6">
          <h2 className="text-base font-semibold">History</h2>
          <ol className="mt-4 space-y-4 border-l border-slate-200 pl-4" aria-label="Claim history">
            {c.history.map((h) => (
              <li key={h.id} className="relative">
                <span className="absolute -left-[21px] top-1.5 h-2.5 w-2.5 rounded-full bg-brand-600" aria-hidden />
                <p className="text-sm font-medium capitalize">{h.toStatus.replace("_", " ")}</p>
                <p className="text-xs text-slate-500">
                  {formatDateTime(h.createdAt)} · {h.by}
                </p>
                {h.note && <p className="mt-1 text-sm text-slate-600">“{h.note}”</p>}
              </li>
            ))}
          </ol>
        </Card>
      </div>
      <Dialog
        open={rejecting}
        onOpenChange={setRejecting}
        title="Reject this claim?"
        description="Say why: the note is kept in the claim's history."
      >
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ id: c.id, data: { status: "rejected", note } });
          }}
        >
          <Field id="reject-note" label="Reason">
            <Textarea id="reject-note" rows={3} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => setRejecting(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={update.isPending}>
              Reject claim
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
