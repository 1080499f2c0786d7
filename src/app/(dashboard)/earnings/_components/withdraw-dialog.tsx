"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "@/lib/toast";
import { M, z } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { displayMoney, formatMinor, oneMajor, parseDecimal } from "@/lib/money-format";
import { errorInfo, useTRPC } from "@/trpc/react";
import type { WithdrawState } from "./types";


/** The form's rules, the server's too: at least 1.00, at most 2 decimals, no more than is available. */
const schemaFor = (available: bigint, currency: string) =>
  z.object({
    amount: z
      .string()
      .trim()
      .min(1)
      .superRefine((text, ctx) => {
        const minor = parseDecimal(text, currency);
        if (minor === null) ctx.addIssue({ code: "custom", message: M.amount });
        else if (minor < oneMajor(currency))
          ctx.addIssue({ code: "custom", message: `Withdraw at least ${displayMoney(formatMinor(oneMajor(currency), currency), currency)}` });
        else if (minor > available) ctx.addIssue({ code: "custom", message: "This is more than your available balance" });
      }),
    bankAccountId: z.string().min(1, "Choose the bank account to pay into"),
  });
type Values = z.infer<ReturnType<typeof schemaFor>>;

export function WithdrawDialog({
  open,
  onOpenChange,
  state,
  onWithdrawn,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  state: WithdrawState;
  onWithdrawn: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Withdraw to your bank"
      description={
        <>
          Available to withdraw:{" "}
          <strong className="font-semibold text-slate-900" data-testid="withdraw-available">
            {displayMoney(state.available, state.currency)}
          </strong>
        </>
      }
    >
      {open && <WithdrawForm state={state} onCancel={() => onOpenChange(false)} onWithdrawn={onWithdrawn} />}
    </Dialog>
  );
}

function WithdrawForm({ state, onCancel, onWithdrawn }: { state: WithdrawState; onCancel: () => void; onWithdrawn: () => void }) {
  const trpc = useTRPC();
  const accounts = useQuery(trpc.bankAccounts.list.queryOptions({ limit: 100 }));
  const verified = (accounts.data?.data ?? []).filter((a) => a.status === "verified");
  const withdraw = useMutation(trpc.earnings.withdraw.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const schema = useMemo(() => schemaFor(parseDecimal(state.available, state.currency) ?? 0n, state.currency), [state.available, state.currency]);
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { amount: "", bankAccountId: "" } });
  const { errors, isSubmitting } = form.formState;
  // The default account is preselected once the list arrives (unless one was chosen already).
  const picked = useWatch({ control: form.control, name: "bankAccountId" });
  const chosen = picked || verified.find((a) => a.isDefault)?.id || verified[0]?.id || "";

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const created = await withdraw.mutateAsync({ amount: Number(values.amount), bankAccountId: values.bankAccountId });
      toast.success(`Withdrawal of ${displayMoney(created.amount, created.currency)} requested`);
      onWithdrawn();
    } catch (err) {
      const info = errorInfo(err);
      const amount = info.fieldErrors.find((e) => e.path === "amount");
      if (amount) form.setError("amount", { message: amount.message });
      else setFormError(info.message);
    }
  });

  if (accounts.isPending) return <Skeleton className="h-32 w-full" />;
  if (accounts.isError) return <FormError message={`Could not load your bank accounts: ${errorInfo(accounts.error).message}`} />;

  return (
    <form
      onSubmit={(e) => {
        form.setValue("bankAccountId", chosen);
        return submit(e);
      }}
      noValidate
      className="space-y-4"
    >
      <FormError message={formError} />
      <Field id="withdraw-amount" label={`Amount (${state.currency})`} error={errors.amount?.message} hint="At least 1.00">
        <Input
          id="withdraw-amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          autoFocus
          aria-invalid={!!errors.amount}
          aria-describedby={errors.amount ? "withdraw-amount-error" : undefined}
          {...form.register("amount")}
        />
      </Field>
      <button
        type="button"
        className="-mt-2 text-xs font-medium text-brand-600 hover:underline"
        onClick={() => form.setValue("amount", state.available, { shouldValidate: true })}
      >
        Withdraw everything ({displayMoney(state.available, state.currency)})
      </button>
      <Field id="withdraw-account" label="Bank account" error={errors.bankAccountId?.message}>
        <NativeSelect
          id="withdraw-account"
          value={chosen}
          aria-invalid={!!errors.bankAccountId}
          onChange={(e) => form.setValue("bankAccountId", e.target.value, { shouldValidate: true })}
        >
          {verified.length === 0 && <option value="">No verified bank account</option>}
          {verified.map((a) => (
            <option key={a.id} value={a.id}>
              {a.bankName} ••••{a.accountNumberLast4} — {a.accountName}
              {a.isDefault ? " (default)" : ""}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Withdraw
        </Button>
      </div>
    </form>
  );
}
