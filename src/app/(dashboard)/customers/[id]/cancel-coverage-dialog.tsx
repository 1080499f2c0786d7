"use client";

// The cancellation dialog (./cancel-coverage loads it when "Cancel cover" is
// first clicked, with the API's schema and zod): the quote first — what would
// be refunded and by which rule — then a reason and whether to refund, then a
// confirmation naming who gets what back.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState, Skeleton } from "@/components/ui/card";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Field, FormError, Textarea } from "@/components/ui/field";
import { formatDate } from "@/lib/format";
import { displayMoney, parseDecimal } from "@/lib/money-format";
import { ruleSentence } from "@/lib/cancellation";
import { CancelCoverageInput } from "@/lib/schemas/coverages";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

export function CancelCoverageDialog({
  coverageId,
  policyName,
  email,
  onClose,
}: {
  coverageId: string;
  policyName: string;
  email: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const quote = useQuery(trpc.cancellations.quote.queryOptions({ id: coverageId }, { staleTime: 0, gcTime: 0 }));
  const [reason, setReason] = useState("");
  const [refund, setRefund] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation(
    trpc.cancellations.create.mutationOptions({
      onSuccess: (c) => {
        toast.success(
          c.refund
            ? `Cover cancelled; ${displayMoney(c.refund.amount, c.refund.currency)} is on its way back`
            : "Cover cancelled",
        );
        onClose();
        void queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.coverages.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.refunds.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.earnings.pathKey() });
      },
      onError: (err) => {
        setConfirming(false);
        const info = errorInfo(err);
        setErrors(Object.fromEntries(info.fieldErrors.map((f) => [f.path.replace(/^data\./, ""), f.message])));
        setFormError(info.fieldErrors.length ? null : info.message);
      },
    }),
  );

  const q = quote.data;
  const refundable = !!q && (parseDecimal(q.refundAmount, q.currency) ?? 0n) > 0n;
  const withRefund = refundable && refund;

  const check = () => {
    const parsed = CancelCoverageInput.safeParse({ reason, refund: withRefund ? "auto" : "none" });
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
    setErrors(found);
    setFormError(null);
    return Object.keys(found).length === 0;
  };

  return (
    <>
      <Dialog
        open={!confirming}
        onOpenChange={(next) => {
          if (!next) onClose();
        }}
        title={`Cancel cover: ${policyName}`}
        description={`For ${email}. The cover ends now: no reminders, no renewal, and its certificate shows it cancelled.`}
      >
        {quote.isPending ? (
          <div role="status" aria-label="Loading the cancellation quote" className="space-y-2">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : quote.isError ? (
          <ErrorState message={errorInfo(quote.error).message} onRetry={() => quote.refetch()} />
        ) : (
          <form
            className="space-y-4"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (check()) setConfirming(true);
            }}
          >
            <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="cancellation-quote">
              <p className="font-medium">
                Refund by the rule: <span data-testid="quote-amount">{displayMoney(q!.refundAmount, q!.currency)}</span>
              </p>
              <p className="mt-1 text-slate-600">{ruleSentence(q!)}</p>
              <p className="mt-1 text-xs text-slate-600">
                Period {formatDate(q!.periodStart)} – {formatDate(q!.periodEnd)} · premium {displayMoney(q!.premium, q!.currency)}
              </p>
            </div>
            <Field
              id="cancel-reason"
              label="Reason"
              error={errors.reason}
              hint="Kept with the coverage and sent in coverage.cancelled"
            >
              <Textarea
                id="cancel-reason"
                rows={2}
                value={reason}
                aria-invalid={!!errors.reason}
                aria-describedby={errors.reason ? "cancel-reason-error" : undefined}
                onChange={(e) => {
                  setReason(e.target.value);
                  setErrors(({ reason: _gone, ...rest }) => rest);
                }}
              />
            </Field>
            {refundable && (
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 rounded border-slate-300"
                  checked={refund}
                  onChange={(e) => setRefund(e.target.checked)}
                />
                <span>
                  Refund {displayMoney(q!.refundAmount, q!.currency)} to {email}
                  <span className="block text-xs text-slate-600">Untick to cancel without a refund.</span>
                </span>
              </label>
            )}
            <FormError message={formError} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="secondary" onClick={onClose}>
                Keep cover
              </Button>
              <Button type="submit" variant="danger">
                Review cancellation
              </Button>
            </div>
          </form>
        )}
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!next) setConfirming(false);
        }}
        title="Cancel this cover now?"
        description={
          withRefund
            ? `${email}'s ${policyName} cover ends now and ${displayMoney(q!.refundAmount, q!.currency)} goes back to them, leaving your balance now.`
            : `${email}'s ${policyName} cover ends now, without a refund.`
        }
        confirmLabel="Cancel cover"
        cancelLabel="Keep cover"
        loading={cancel.isPending}
        onConfirm={() => cancel.mutate({ id: coverageId, data: { reason, refund: withRefund ? "auto" : "none" } })}
      />
    </>
  );
}
