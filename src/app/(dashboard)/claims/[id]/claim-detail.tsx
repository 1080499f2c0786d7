"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { toast } from "@/lib/toast";
import { BackLink, Facts } from "@/components/detail";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, ErrorState, PageHeader, Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Textarea } from "@/components/ui/field";
import { formatDate, formatDateTime } from "@/lib/format";
import { M } from "@/lib/field-messages";
import { displayMoney, parseDecimal } from "@/lib/money-format";
import { CLAIM_MOVES, type ClaimStatus } from "@/lib/enums";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";
import { ClaimEvidence } from "./claim-evidence";
import { ClaimantAccountCard, ClaimPayouts, PayClaimDialog } from "./claim-payouts";

type Move = Exclude<ClaimStatus, "submitted">;

// Rejecting asks for a reason, approving for the amount and marking paid for how it was paid, in a dialog;
// starting the review happens at once. Paying through Coverdesk is "Pay claim" (owners and admins).
const ACTIONS: Record<Move, { label: string; variant: "primary" | "secondary" | "danger" }> = {
  under_review: { label: "Start review", variant: "primary" },
  approved: { label: "Approve", variant: "primary" },
  rejected: { label: "Reject", variant: "danger" },
  paid: { label: "Mark paid outside Coverdesk", variant: "secondary" },
};

export function ClaimDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const { can } = useMe();
  const queryClient = useQueryClient();
  const claim = useQuery(trpc.claims.detail.queryOptions({ id }));
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const [paying, setPaying] = useState(false);
  const [markingPaid, setMarkingPaid] = useState(false);
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState<string | null>(null);
  const update = useMutation(
    trpc.claims.updateStatus.mutationOptions({
      onSuccess: (c) => {
        toast.success(`Claim ${c.status.replace("_", " ")}`);
        setRejecting(false);
        setApproving(false);
        setMarkingPaid(false);
        setNote("");
        setNoteError(null);
        void queryClient.invalidateQueries({ queryKey: trpc.claims.pathKey() });
      },
      onError: (err) => toast.error(errorInfo(err).message),
    }),
  );

  if (claim.isPending) return <Skeleton className="h-64 w-full" />;
  if (claim.isError) {
    const info = errorInfo(claim.error);
    return (
      <>
        <BackLink href="/claims">Claims</BackLink>
        <Card>
          {info.code === "not_found" ? (
            <EmptyState title="Claim not found" description="It does not exist or belongs to another organization." />
          ) : (
            <ErrorState message={info.message} onRetry={() => claim.refetch()} />
          )}
        </Card>
      </>
    );
  }
  const c = claim.data;
  const moves = CLAIM_MOVES[c.status] as Move[];

  return (
    <>
      <BackLink href="/claims">Claims</BackLink>
      <PageHeader
        title={`${c.type[0]!.toUpperCase()}${c.type.slice(1)} claim · ${displayMoney(c.amount, c.currency)}`}
        description={`On ${c.policyName}`}
        actions={
          can.manage ? (
            <>
              {c.status === "approved" && can.admin && (
                <Button onClick={() => setPaying(true)} data-testid="pay-claim">
                  Pay claim
                </Button>
              )}
              {moves.map((m) => (
                <Button
                  key={m}
                  variant={ACTIONS[m].variant}
                  loading={update.isPending && update.variables?.data.status === m}
                  onClick={() =>
                    m === "rejected"
                      ? setRejecting(true)
                      : m === "approved"
                        ? setApproving(true)
                        : m === "paid"
                          ? setMarkingPaid(true)
                          : update.mutate({ id: c.id, data: { status: m } })
                  }
                >
                  {ACTIONS[m].label}
                </Button>
              ))}
            </>
          ) : undefined
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card className="space-y-4 p-6">
            <div className="flex items-center gap-2">
              <span className="text-sm font-medium text-slate-700">Status</span>
              <StatusBadge status={c.status} />
            </div>
            <div>
              <h2 className="text-sm font-medium text-slate-700">Description</h2>
              <p className="mt-1 whitespace-pre-line text-sm text-slate-600">{c.description}</p>
            </div>
            <Facts
              items={[
                { label: "Amount claimed", value: displayMoney(c.amount, c.currency) },
                {
                  label: "Approved amount",
                  testId: "claim-approved-amount",
                  value: c.approvedAmount === null ? "—" : displayMoney(c.approvedAmount, c.currency),
                },
                {
                  label: "Policy",
                  value: (
                    <Link href={`/policies/${c.policyId}`} className="font-medium text-brand-700 hover:underline">
                      {c.policyName}
                    </Link>
                  ),
                },
                {
                  label: "Customer",
                  testId: "claim-customer",
                  value: !c.customer ? (
                    "Not given"
                  ) : c.customer.id ? (
                    <Link href={`/customers/${c.customer.id}`} className="font-medium text-brand-700 hover:underline">
                      {c.customer.name ?? c.customer.email}
                    </Link>
                  ) : (
                    c.customer.email
                  ),
                },
                {
                  label: "Coverage",
                  testId: "claim-coverage",
                  value: c.coverage ? (
                    <span>
                      {formatDate(c.coverage.startsAt)} – {formatDate(c.coverage.endsAt)}{" "}
                      <StatusBadge status={c.coverage.status} />
                      {c.coverage.renewalCount > 0 && ` · renewed ${c.coverage.renewalCount}×`}
                    </span>
                  ) : (
                    "No coverage of this policy for this customer"
                  ),
                },
                { label: "Filed", value: formatDateTime(c.createdAt) },
              ]}
            />
            <p className="text-xs text-slate-600">
              ID <code className="font-mono">{c.id}</code>
            </p>
          </Card>
          {c.payoutAccount && c.status === "approved" && (
            <ClaimantAccountCard
              claimId={c.id}
              account={c.payoutAccount}
              approved={c.approvedAmount}
              currency={c.currency}
              canPay={can.admin}
            />
          )}
          <ClaimPayouts claimId={c.id} />
          <ClaimEvidence claimId={c.id} attachments={c.attachments} canManage={can.manage} />
        </div>
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
      <Dialog
        open={markingPaid}
        onOpenChange={(next) => {
          setMarkingPaid(next);
          setNoteError(null);
        }}
        title="Mark paid outside Coverdesk?"
        description="For a claim you paid another way (cash, cheque, your own bank): no money moves through Coverdesk. Say how it was paid; it is kept in the claim's history."
      >
        <form
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!note.trim()) return setNoteError("Say how the claim was paid outside Coverdesk");
            setNoteError(null);
            update.mutate({ id: c.id, data: { status: "paid", settledOutside: true, note } });
          }}
        >
          <Field id="paid-note" label="How it was paid" error={noteError ?? undefined}>
            <Textarea
              id="paid-note"
              rows={3}
              maxLength={2000}
              value={note}
              aria-invalid={!!noteError}
              aria-describedby={noteError ? "paid-note-error" : undefined}
              onChange={(e) => setNote(e.target.value)}
            />
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => setMarkingPaid(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Mark paid
            </Button>
          </div>
        </form>
      </Dialog>
      {c.status === "approved" && c.approvedAmount !== null && (
        <PayClaimDialog open={paying} onOpenChange={setPaying} claimId={c.id} approved={c.approvedAmount} currency={c.currency} />
      )}
      <ApproveDialog
        open={approving}
        onOpenChange={setApproving}
        claimed={c.amount}
        currency={c.currency}
        saving={update.isPending}
        onApprove={(approvedAmount, approveNote) =>
          update.mutateAsync({ id: c.id, data: { status: "approved", approvedAmount, note: approveNote || undefined } })
        }
      />
    </>
  );
}

/** Approving records what will be paid: the amount claimed unless the business agreed to less. */
function ApproveDialog({
  open,
  onOpenChange,
  claimed,
  currency,
  saving,
  onApprove,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  claimed: string;
  currency: string;
  saving: boolean;
  onApprove: (approvedAmount: number, note: string) => Promise<unknown>;
}) {
  const [amount, setAmount] = useState(claimed);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const claimedMinor = parseDecimal(claimed, currency) ?? 0n;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          setAmount(claimed);
          setError(null);
        }
        onOpenChange(next);
      }}
      title="Approve this claim?"
      description={`${displayMoney(claimed, currency)} was claimed. Approve it in full, or the part you agreed to pay.`}
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          const minor = parseDecimal(amount, currency);
          if (minor === null || minor <= 0n) return setError(M.amount);
          if (minor > claimedMinor) return setError(`Approve at most the amount claimed, ${claimed}`);
          setError(null);
          try {
            await onApprove(Number(amount), note);
          } catch (err) {
            const info = errorInfo(err);
            setError(info.fieldErrors.find((f) => f.path === "approvedAmount")?.message ?? info.message);
          }
        }}
      >
        <Field
          id="approved-amount"
          label={`Approved amount (${currency})`}
          error={error ?? undefined}
          hint="At most the amount claimed"
        >
          <Input
            id="approved-amount"
            inputMode="decimal"
            value={amount}
            aria-invalid={!!error}
            onChange={(e) => setAmount(e.target.value)}
          />
        </Field>
        <Field id="approve-note" label="Note (optional)">
          <Textarea id="approve-note" rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Approve claim
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
