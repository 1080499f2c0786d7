"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { M, z } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { errorInfo, useTRPC } from "@/trpc/react";
import type { BankAccount } from "../../earnings/_components/types";

const Values = z.object({
  bankName: z.string().trim().min(2, M.requiredWhat("the bank's name")).max(100),
  // A NUBAN: exactly 10 digits (spaces people type between groups are ignored).
  accountNumber: z
    .string()
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{10}$/, "Enter the 10-digit account number (NUBAN)")),
  accountName: z.string().trim().min(2, M.requiredWhat("the account holder's name")).max(200),
});
type Input = z.input<typeof Values>;
type Output = z.output<typeof Values>;
const FIELDS = ["bankName", "accountNumber", "accountName"] as const;

export function AddBankAccountDialog({
  open,
  onOpenChange,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdded: (account: BankAccount) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add a bank account"
      description="We send a small deposit with a code to confirm the account is yours, then you verify it here."
    >
      {open && <AddForm onCancel={() => onOpenChange(false)} onAdded={onAdded} />}
    </Dialog>
  );
}

function AddForm({ onCancel, onAdded }: { onCancel: () => void; onAdded: (account: BankAccount) => void }) {
  const trpc = useTRPC();
  const add = useMutation(trpc.bankAccounts.add.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(Values),
    defaultValues: { bankName: "", accountNumber: "", accountName: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onAdded(await add.mutateAsync(values));
    } catch (err) {
      const info = errorInfo(err);
      let placed = false;
      for (const e of info.fieldErrors) {
        const field = FIELDS.find((f) => f === e.path);
        if (field) {
          form.setError(field, { message: e.message });
          placed = true;
        }
      }
      // A duplicate (409) concerns the account number.
      if (info.code === "conflict") form.setError("accountNumber", { message: info.message });
      else if (!placed) setFormError(info.message);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="bank-name" label="Bank" error={errors.bankName?.message}>
        <Input
          id="bank-name"
          placeholder="e.g. GTBank"
          autoComplete="off"
          autoFocus
          aria-invalid={!!errors.bankName}
          {...form.register("bankName")}
        />
      </Field>
      <Field id="bank-account-number" label="Account number" error={errors.accountNumber?.message} hint="10 digits (NUBAN)">
        <Input
          id="bank-account-number"
          inputMode="numeric"
          autoComplete="off"
          maxLength={13}
          placeholder="0123456789"
          aria-invalid={!!errors.accountNumber}
          {...form.register("accountNumber")}
        />
      </Field>
      <Field id="bank-account-name" label="Account name" error={errors.accountName?.message} hint="As the bank has it">
        <Input id="bank-account-name" autoComplete="off" aria-invalid={!!errors.accountName} {...form.register("accountName")} />
      </Field>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Add account
        </Button>
      </div>
    </form>
  );
}
