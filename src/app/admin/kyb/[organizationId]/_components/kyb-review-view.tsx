"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Check, X } from "lucide-react";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { toast } from "@/lib/toast";
import { lazyDialog } from "@/components/lazy-dialog";
import { inKindOrder, KybStatusBadge } from "@/components/kyb-status-badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { formatDateTime } from "@/lib/format";
import { errorInfo, useTRPC } from "@/trpc/react";
import { DecisionHistory } from "./decision-history";
import { InlineDocument } from "./inline-document";

// Loaded when first opened (its form, schema and zod with it).
const RejectDialog = lazyDialog(() => import("./reject-dialog").then((m) => m.RejectDialog));

export function KybReviewView({ organizationId }: { organizationId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const review = useQuery(trpc.admin.kybReview.queryOptions({ organizationId }));
  const [approving, setApproving] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  // The review and the queue both show the status.
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });

  const approve = useMutation(
    trpc.admin.approveKyb.mutationOptions({
      onSuccess: () => {
        toast.success("KYB approved");
        setApproving(false);
        void refresh();
      },
      onError: (err) => {
        toast.error(errorInfo(err).message);
        setApproving(false);
        void refresh();
      },
    }),
  );

  const back = (
    <Link
      href="/admin/kyb"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-900"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden /> All submissions
    </Link>
  );

  if (review.isPending)
    return (
      <>
        {back}
        <Card className="space-y-3 p-6" aria-label="Loading the submission">
          <Skeleton className="h-7 w-1/3" />
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-64 w-full" />
        </Card>
      </>
    );
  if (review.isError) {
    const info = errorInfo(review.error);
    return (
      <>
        {back}
        <Card>
          {info.code === "not_found" ? (
            <EmptyState
              title="No submission here"
              description="This organization has not submitted KYB documents, or does not exist."
            />
          ) : (
            <ErrorState message={info.message} onRetry={() => review.refetch()} />
          )}
        </Card>
      </>
    );
  }

  const { organization, kyb, decisions } = review.data;
  const pending = kyb.status === "pending";
  return (
    <>
      {back}
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">{organization.name}</h1>
            <KybStatusBadge status={kyb.status} />
          </div>
          <p className="mt-1 text-sm text-slate-600">KYB submitted {formatDateTime(kyb.submittedAt)}</p>
        </div>
        {pending && (
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button variant="danger" onClick={() => setRejecting(true)}>
              <X className="h-4 w-4" aria-hidden /> Reject
            </Button>
            <Button onClick={() => setApproving(true)}>
              <Check className="h-4 w-4" aria-hidden /> Approve
            </Button>
          </div>
        )}
      </div>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="self-start p-4 sm:p-6 lg:col-span-1">
          <h2 className="text-base font-semibold text-slate-900">Organization</h2>
          <dl className="mt-3 space-y-3 text-sm">
            <Detail label="Name">{organization.name}</Detail>
            <Detail label="Email">{organization.email ?? "—"}</Detail>
            <Detail label="Organization ID">
              <span className="break-all font-mono text-xs">{organization.id}</span>
            </Detail>
            <Detail label="Customer since">{formatDateTime(organization.createdAt)}</Detail>
            <Detail label="Submitted">{formatDateTime(kyb.submittedAt)}</Detail>
            <Detail label="Reviewed">{kyb.reviewedAt ? formatDateTime(kyb.reviewedAt) : "Not yet"}</Detail>
          </dl>
          {kyb.status === "rejected" && (
            <div className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2">
              <p className="text-xs font-medium uppercase tracking-wide text-red-700">Rejection reason</p>
              <p className="mt-1 whitespace-pre-line break-words text-sm text-red-900">{kyb.rejectionReason ?? "—"}</p>
            </div>
          )}
          {!pending && (
            <p className="mt-4 text-xs text-slate-600">
              {kyb.status === "approved"
                ? "Approved: nothing left to decide."
                : "Rejected: the business must resubmit before another decision."}
            </p>
          )}
        </Card>
        <div className="space-y-6 lg:col-span-2">
          {kyb.documents.length === 0 ? (
            <Card>
              <EmptyState title="No documents" description="This submission has no current documents." />
            </Card>
          ) : (
            inKindOrder(kyb.documents).map((d) => <InlineDocument key={d.id} document={d} />)
          )}
          <DecisionHistory decisions={decisions} />
        </div>
      </div>

      <ConfirmDialog
        open={approving}
        onOpenChange={setApproving}
        title={`Approve ${organization.name}?`}
        description="The business is verified at once and its withdrawals open. Check both documents first."
        confirmLabel="Approve KYB"
        confirmVariant="primary"
        loading={approve.isPending}
        onConfirm={() => approve.mutate({ organizationId })}
      />
      <RejectDialog open={rejecting} onOpenChange={setRejecting} organization={organization} onDecided={() => void refresh()} />
    </>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}
