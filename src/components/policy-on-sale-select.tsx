"use client";

// A choice among the policies on sale, each with its price (loaded when shown),
// for the forms that start a sale: a payment link, a payment for one customer.
import { useQuery } from "@tanstack/react-query";
import { ErrorState } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { displayMoney } from "@/lib/money-format";
import { errorInfo, useTRPC } from "@/trpc/react";

export function PolicyOnSaleSelect({
  id,
  value,
  onChange,
  error,
  enabled = true,
}: {
  id: string;
  value: string;
  onChange: (policyId: string) => void;
  error?: string;
  enabled?: boolean;
}) {
  const trpc = useTRPC();
  const policies = useQuery(trpc.policies.list.queryOptions({ limit: 100, isActive: "true" }, { enabled }));
  return (
    <>
      <Field id={id} label="Policy" error={error}>
        <NativeSelect
          id={id}
          value={value}
          disabled={policies.isPending}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.value)}
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
    </>
  );
}

/** The same list, to read the chosen policy's price. */
export function usePoliciesOnSale(enabled = true) {
  const trpc = useTRPC();
  return useQuery(trpc.policies.list.queryOptions({ limit: 100, isActive: "true" }, { enabled }));
}
