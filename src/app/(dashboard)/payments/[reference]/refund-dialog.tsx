"use client";

// "Refund" on a payment (./payment-refunds loads it when first opened, with
// the API's schema and zod): the amount (what is left by default) and a
// reason, then a confirmation naming who gets what back.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input, Textarea } from "@/components/ui/field";
import { displayMoney, parseDecimal } from "@/lib/money-format";
import { RefundPaymentInput } from "@/lib/schemas/refunds";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

export function RefundDialog({
  open,
  onOpenChange,
  reference,
  left,
  currency,
  email,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  reference: string;
  left: string;
  currency: string;
  email: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(left);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const refund = useMutation(
    trpc.refunds.create.mutationOptions({
      onSuccess: (r) => {
        toast.success(`Refund of ${displayMoney(r.amount, r.currency)} sent`);
        setConfirming(false);
        onOpenChange(false);
        void queryClient.invalidateQueries({ queryKey: trpc.refunds.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.payments.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.earnings.pathKey() });
      },
      onError: (err) => {
        setConfirming(false);
        const info = errorInfo(err);
        setErrors(Object.fromEntries(info.fieldErrors.map((f) => [f.path, f.message])));
        setFormError(info.fieldErrors.length ? null : info.message);
      },
    }),
  );

  const check = () => {
    const minor = parseDecimal(amount, currency);
    const parsed = RefundPaymentInput.safeParse({ amount: minor === null ? Number.NaN : Number(amount), reason: reason || undefined });
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
    if (!found.amount && minor !== null && minor > (parseDecimal(left, currency) ?? 0n)) {
      found.amount = `Refund at most what is left of the payment, ${displayMoney(left, currency)}`;
    }
    setErrors(found);
    setFormError(null);
    return Object.keys(found).length === 0;
  };

  return (
    <>
      <Dialog
        open={open && !confirming}
        onOpenChange={(next) => {
          if (next) {
            setAmount(left);
            setReason("");
            setErrors({});
            setFormError(null);
          }
          onOpenChange(next);
        }}
        title="Refund this payment"
        description={`Give the customer back all or part of what is left, ${displayMoney(left, currency)}. The platform fee is not returned.`}
      >
        <form
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (check()) setConfirming(true);
          }}
        >
          <Field id="refund-amount" label={`Amount (${currency})`} error={errors.amount} hint="At most what is left to refund">
            <Input
              id="refund-amount"
              inputMode="decimal"
              value={amount}
              aria-invalid={!!errors.amount}
              aria-describedby={errors.amount ? "refund-amount-error" : undefined}
              onChange={(e) => {
                setAmount(e.target.value);
                setErrors(({ amount: _gone, ...rest }) => rest);
              }}
            />
          </Field>
          <Field id="refund-reason" label="Reason (optional)" error={errors.reason}>
            <Textarea
              id="refund-reason"
              rows={2}
              value={reason}
              aria-invalid={!!errors.reason}
              aria-describedby={errors.reason ? "refund-reason-error" : undefined}
              onChange={(e) => {
                setReason(e.target.value);
                setErrors(({ reason: _gone, ...rest }) => rest);
              }}
            />
          </Field>
          <FormError message={formError} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit">Review refund</Button>
          </div>
        </form>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!next) setConfirming(false);
        }}
        title="Send this refund?"
        description={`${displayMoney(amount || "0", currency)} goes back to ${email}, and leaves your balance now. If the card issuer refuses it, the money comes back to your balance.`}
        confirmLabel="Send refund"
        loading={refund.isPending}
        onConfirm={() => refund.mutate({ reference, data: { amount: Number(amount), ...(reason ? { reason } : {}) } })}
      />
    </>
  );
}
