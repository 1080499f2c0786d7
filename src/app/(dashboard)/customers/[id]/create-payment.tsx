"use client";

// "Create payment" on a customer's page: a payment of one of the policies on
// sale for this customer's email (prefilled), and the checkout link to send them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CreditCard, ExternalLink } from "lucide-react";
import { useState } from "react";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { displayMoney } from "@/lib/money-format";
import type { Payment } from "@/lib/schemas/payments";
import { errorInfo, useTRPC } from "@/trpc/react";

export function CreatePaymentButton({ email }: { email: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [policyId, setPolicyId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [payment, setPayment] = useState<Payment | null>(null);
  const policies = useQuery(trpc.policies.list.queryOptions({ limit: 100, isActive: "true" }, { enabled: open }));
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
          <div className="space-y-4">
            <p className="text-sm text-slate-700">Send this link to {payment.email}. It opens the checkout for this payment.</p>
            <code
              data-testid="customer-payment-link"
              className="block break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-xs"
            >
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
            <Field id="customer-payment-policy" label="Policy" error={error ?? undefined}>
              <NativeSelect
                id="customer-payment-policy"
                value={policyId}
                disabled={policies.isPending}
                aria-invalid={!!error}
                aria-describedby={error ? "customer-payment-policy-error" : undefined}
                onChange={(e) => setPolicyId(e.target.value)}
              >
                <option value="">{policies.isPending ? "Loading policies…" : "Choose a policy on sale"}</option>
                {(policies.data?.data ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} · {displayMoney(p.price, p.currency)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {policies.isError && <ErrorState message={errorInfo(policies.error).message} onRetry={() => policies.refetch()} />}
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
