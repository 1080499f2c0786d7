"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { M, z } from "@/lib/messages";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, FormError } from "@/components/ui/field";
import { displayMoney } from "@/lib/money-format";
import type { Payment } from "@/lib/schemas/payments";
import type { Policy } from "@/lib/schemas/policies";
import { errorInfo, useTRPC } from "@/trpc/react";

const Customer = z.object({ email: z.string().trim().min(1, M.requiredWhat("the customer's email")).pipe(z.email(M.email)) });

/** Creates a payment for the policy's price and shows the checkout link to send. */
export function PaymentLinkDialog({
  policy,
  open,
  onOpenChange,
}: {
  policy: Policy;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [payment, setPayment] = useState<Payment | null>(null);
  const close = (next: boolean) => {
    if (!next) setPayment(null);
    onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Payment for one customer"
      description={`${policy.name} · ${displayMoney(policy.price, policy.currency)}`}
    >
      {payment ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">Send this link to {payment.email}. It opens the checkout for this payment.</p>
          <code data-testid="payment-link" className="block break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-xs">
            {payment.authorizationUrl}
          </code>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" asChild>
              <a href={payment.authorizationUrl} target="_blank" rel="noreferrer">
                Open checkout <ExternalLink className="h-4 w-4" aria-hidden />
              </a>
            </Button>
            <CopyButton value={payment.authorizationUrl} label="Copy link" />
          </div>
        </div>
      ) : (
        open && <CustomerForm policy={policy} onCreated={setPayment} onCancel={() => close(false)} />
      )}
    </Dialog>
  );
}

function CustomerForm({
  policy,
  onCreated,
  onCancel,
}: {
  policy: Policy;
  onCreated: (p: Payment) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const initialize = useMutation(trpc.payments.initialize.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(Customer), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ email }) => {
    setFormError(null);
    try {
      const payment = await initialize.mutateAsync({ email, policyId: policy.id, amount: Number(policy.price) });
      await queryClient.invalidateQueries({ queryKey: trpc.payments.pathKey() });
      onCreated(payment);
    } catch (err) {
      setFormError(errorInfo(err).message);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field
        id="customer-email"
        label="Customer email"
        hint="Their coverage is tied to this address."
        error={errors.email?.message}
      >
        <Input id="customer-email" type="email" autoFocus aria-invalid={!!errors.email} {...form.register("email")} />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Create link
        </Button>
      </div>
    </form>
  );
}
