"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, CircleX, Clock, FileSearch, type LucideIcon } from "lucide-react";
import { useEffect, type ReactNode } from "react";
import { lazyComponent } from "@/components/lazy-component";
import { KybStatusBadge } from "@/components/kyb-status-badge";
import { Card, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { formatDateTime } from "@/lib/format";
import type { Kyb } from "@/lib/schemas/kyb";
import { errorInfo, useTRPC } from "@/trpc/react";
import { ReadOnlyNotice, useMe } from "../../_components/me";
import { KybDocuments } from "./kyb-documents";

// The upload form (dropzones, uploadthing's hook) loads alongside the status, not with the page.
const KybSubmitForm = lazyComponent(
  () => import("./kyb-submit-form").then((m) => m.KybSubmitForm),
  <Skeleton className="h-96 w-full" />,
);

export function KybView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const kyb = useQuery(trpc.kyb.status.queryOptions());
  useEffect(() => {
    if (can.admin) KybSubmitForm.preload();
  }, [can.admin]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.kyb.status.queryKey() });

  return (
    <>
      <PageHeader
        title="Verification (KYB)"
        description="Know your business: we verify who you are before money leaves Coverdesk for your bank account."
      />
      {kyb.isPending ? (
        <Card className="space-y-3 p-6" aria-label="Loading verification status">
          <Skeleton className="h-6 w-32" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </Card>
      ) : kyb.isError ? (
        <Card>
          <ErrorState message={errorInfo(kyb.error).message} onRetry={() => kyb.refetch()} />
        </Card>
      ) : (
        <div className="space-y-6">
          <StatusCard kyb={kyb.data} canSubmit={can.admin} />
          {!can.admin && kyb.data.status !== "approved" && kyb.data.status !== "pending" && (
            <ReadOnlyNotice>Only owners and admins submit the verification documents. Ask one of them to do it.</ReadOnlyNotice>
          )}
          {can.admin && kyb.data.status === "not_submitted" && <KybSubmitForm mode="submit" onSubmitted={refresh} />}
          {can.admin && kyb.data.status === "rejected" && <KybSubmitForm mode="resubmit" onSubmitted={refresh} />}
          {kyb.data.documents.length > 0 && (
            <KybDocuments
              documents={kyb.data.documents}
              title={kyb.data.status === "rejected" ? "Documents you submitted" : "Your documents"}
            />
          )}
        </div>
      )}
    </>
  );
}

const ICON: Record<Kyb["status"], { icon: LucideIcon; className: string }> = {
  not_submitted: { icon: FileSearch, className: "bg-slate-100 text-slate-600" },
  pending: { icon: Clock, className: "bg-amber-50 text-amber-700" },
  approved: { icon: CircleCheck, className: "bg-emerald-50 text-emerald-700" },
  rejected: { icon: CircleX, className: "bg-red-50 text-red-700" },
};

function StatusCard({ kyb, canSubmit }: { kyb: Kyb; canSubmit: boolean }) {
  const { icon: Icon, className } = ICON[kyb.status];
  return (
    <Card className="p-4 sm:p-6" data-testid="kyb-status">
      <div className="flex items-start gap-4">
        <span className={`hidden h-10 w-10 shrink-0 items-center justify-center rounded-full sm:flex ${className}`}>
          <Icon className="h-5 w-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-base font-semibold text-slate-900">Verification status</h2>
            <KybStatusBadge status={kyb.status} />
          </div>
          <Explanation kyb={kyb} canSubmit={canSubmit} />
        </div>
      </div>
    </Card>
  );
}

function Explanation({ kyb, canSubmit }: { kyb: Kyb; canSubmit: boolean }): ReactNode {
  switch (kyb.status) {
    case "not_submitted":
      return (
        <div className="space-y-2 text-sm text-slate-600">
          <p>
            Withdrawals to your bank account need an approved verification. Upload two documents and a Coverdesk reviewer checks
            them:
          </p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              your <strong className="font-medium text-slate-800">certificate of incorporation</strong>, showing the business is
              registered;
            </li>
            <li>
              your <strong className="font-medium text-slate-800">tax certificate</strong> (TIN), showing it is registered for
              tax.
            </li>
          </ul>
        </div>
      );
    case "pending":
      return (
        <p className="text-sm text-slate-600">
          Your documents were submitted on {formatDateTime(kyb.submittedAt)} and are being reviewed. This page shows the decision
          as soon as a reviewer makes it; withdrawals open once it is approved.
        </p>
      );
    case "approved":
      return (
        <p className="text-sm text-slate-600">
          Your business was verified on {formatDateTime(kyb.reviewedAt)}. Withdrawals to your bank account are open.
        </p>
      );
    case "rejected":
      return (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            A reviewer rejected the documents submitted on {formatDateTime(kyb.submittedAt)} (decided{" "}
            {formatDateTime(kyb.reviewedAt)}). Withdrawals stay closed until a resubmission is approved.
          </p>
          <div role="note" aria-label="Reason for rejection" className="rounded-md border border-red-200 bg-red-50 px-4 py-3">
            <p className="text-xs font-medium uppercase tracking-wide text-red-700">Reason</p>
            <p className="mt-1 whitespace-pre-line break-words text-sm text-red-900" data-testid="kyb-rejection-reason">
              {kyb.rejectionReason ?? "No reason was given."}
            </p>
          </div>
          {canSubmit && <p className="text-sm text-slate-600">Correct what the reason points out and resubmit both documents.</p>}
        </div>
      );
  }
}
