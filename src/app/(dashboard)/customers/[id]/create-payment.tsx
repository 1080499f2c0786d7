"use client";

// "Create payment" on a customer's page: a payment of one of the policies on
// sale for this customer's email (prefilled), and the checkout link to send them.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CreditCard } from "lucide-react";
import { useState } from "react";
import { CheckoutLink } from "@/components/checkout-link";
import { PolicyOnSaleSelect, usePoliciesOnSale } from "@/components/policy-on-sale-select";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { Payment } from "@/lib/schemas/payments";
import { errorInfo, useTRPC } from "@/trpc/react";

export function CreatePaymentButton({ email }: { email: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [policyId, setPolicyId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [payment, setPayment] = useState<Payment | null>(null);
  const policies = usePoliciesOnSale(open);
  const initialize = useMutation(trpc.payments.initialize.mutationOptions());
  const policy = policies.data?.data.find((p) => p.id === policyId);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <CreditCard className="h-4 w-4" aria-hidden /> Create payment
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (next) {
            setPolicyId("");
            setError(null);
            setPayment(null);
          }
          setOpen(next);
        }}
        title="Create payment"
        description={`A checkout link for ${email}: their cover starts when they pay.`}
      >
        {payment ? (
          <CheckoutLink email={payment.email} url={payment.authorizationUrl} testId="customer-payment-link" />
        ) : (
          <form
            className="space-y-4"
            noValidate
            onSubmit={async (e) => {
              e.preventDefault();
              if (!policy) return setError("Choose a policy");
              setError(null);
              try {
                setPayment(await initialize.mutateAsync({ email, policyId: policy.id, amount: Number(policy.price) }));
                void queryClient.invalidateQueries({ queryKey: trpc.payments.pathKey() });
              } catch (err) {
                setError(errorInfo(err).message);
              }
            }}
          >
            <PolicyOnSaleSelect
              id="customer-payment-policy"
              value={policyId}
              onChange={setPolicyId}
              error={error ?? undefined}
              enabled={open}
            />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={initialize.isPending}>
                Create payment
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
