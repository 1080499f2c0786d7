"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { M, z } from "@/lib/messages";
import { CheckoutLink } from "@/components/checkout-link";
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
        <CheckoutLink email={payment.email} url={payment.authorizationUrl} testId="payment-link" />
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
