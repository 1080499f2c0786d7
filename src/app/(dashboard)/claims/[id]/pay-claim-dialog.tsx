"use client";

// "Pay claim" (./claim-payouts loads it when first opened, with the API's
// schema and zod): the claimant's bank (searchable list) and account number,
// the account holder's name as the bank gives it, the amount, then a
// confirmation naming who is paid what.
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/card";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { displayMoney, parseDecimal } from "@/lib/money-format";
import { PayClaimInput } from "@/lib/schemas/claim-payouts";
import { errorInfo, useTRPC } from "@/trpc/react";
import { usePayoutSent } from "./claim-payouts";

interface Draft {
  filter: string;
  bankCode: string;
  accountNumber: string;
  amount: string;
}

/** "Pay claim": the form, then a confirmation; the payout is created only on confirm. */
export function PayClaimDialog({
  open,
  onOpenChange,
  claimId,
  approved,
  currency,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  claimId: string;
  approved: string;
  currency: string;
}) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<Draft>({ filter: "", bankCode: "", accountNumber: "", amount: approved });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  /** A field changed: its old error goes (the others stay until the next check). */
  const edit = (field: keyof Draft, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const banks = useQuery(trpc.banks.list.queryOptions(undefined, { enabled: open, staleTime: 10 * 60_000 }));
  const shown = useMemo(() => {
    const q = draft.filter.trim().toLowerCase();
    const all = banks.data?.data ?? [];
    return q ? all.filter((b) => b.name.toLowerCase().includes(q) || b.code === q) : all;
  }, [banks.data, draft.filter]);
  const bank = banks.data?.data.find((b) => b.code === draft.bankCode);
  const ready = /^\d{10}$/.test(draft.accountNumber) && !!draft.bankCode;
  const resolved = useQuery(
    trpc.banks.resolve.queryOptions(
      { accountNumber: draft.accountNumber, bankCode: draft.bankCode },
      { enabled: open && ready, retry: false, placeholderData: keepPreviousData, staleTime: 60_000 },
    ),
  );
  const accountName = ready && !resolved.isError && !resolved.isPlaceholderData ? resolved.data?.accountName : undefined;
  const resolveError = ready && resolved.isError ? errorInfo(resolved.error) : null;

  const sent = usePayoutSent();
  const pay = useMutation(
    trpc.claimPayouts.create.mutationOptions({
      onSuccess: (p) => {
        sent(p);
        setConfirming(false);
        onOpenChange(false);
      },
      onError: (err) => {
        setConfirming(false);
        const info = errorInfo(err);
        const fields = Object.fromEntries(info.fieldErrors.map((f) => [f.path, f.message]));
        setErrors(fields);
        setFormError(info.fieldErrors.length ? null : info.message);
      },
    }),
  );

  /** The same schema the API checks, then what only the server knows (the name at the bank). */
  const check = (): boolean => {
    const amountMinor = parseDecimal(draft.amount, currency);
    const parsed = PayClaimInput.safeParse({
      accountNumber: draft.accountNumber.trim(),
      bankCode: draft.bankCode,
      amount: amountMinor === null ? Number.NaN : Number(draft.amount),
    });
    const found: Record<string, string> = {};
    for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
    const approvedMinor = parseDecimal(approved, currency) ?? 0n;
    if (!found.amount && amountMinor !== null && amountMinor > approvedMinor) {
      found.amount = `Pay at most the approved amount, ${displayMoney(approved, currency)}`;
    }
    if (!found.accountNumber && resolveError) found.accountNumber = resolveError.fieldErrors[0]?.message ?? resolveError.message;
    setErrors(found);
    setFormError(null);
    return Object.keys(found).length === 0 && !!accountName;
  };

  return (
    <>
      <Dialog
        open={open && !confirming}
        onOpenChange={(next) => {
          if (next) {
            setDraft({ filter: "", bankCode: "", accountNumber: "", amount: approved });
            setErrors({});
            setFormError(null);
          }
          onOpenChange(next);
        }}
        title="Pay this claim"
        description={`Send the approved ${displayMoney(approved, currency)} (or part of it) to the claimant's bank account. It leaves your balance at once.`}
      >
        <form
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (check()) setConfirming(true);
          }}
        >
          <Field id="payout-bank-filter" label="Find the bank" hint="Type part of the bank's name">
            <Input
              id="payout-bank-filter"
              value={draft.filter}
              autoComplete="off"
              onChange={(e) => edit("filter", e.target.value)}
            />
          </Field>
          <Field id="payout-bank" label="Bank" error={errors.bankCode}>
            {banks.isError ? (
              <ErrorState message={errorInfo(banks.error).message} onRetry={() => banks.refetch()} />
            ) : (
              <NativeSelect
                id="payout-bank"
                value={draft.bankCode}
                aria-invalid={!!errors.bankCode}
                aria-describedby={errors.bankCode ? "payout-bank-error" : undefined}
                disabled={banks.isPending}
                onChange={(e) => edit("bankCode", e.target.value)}
              >
                <option value="">{banks.isPending ? "Loading banks…" : `Choose a bank (${shown.length})`}</option>
                {shown.map((b) => (
                  <option key={b.code} value={b.code}>
                    {b.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field
            id="payout-account"
            label="Account number"
            error={
              errors.accountNumber ?? (resolveError ? (resolveError.fieldErrors[0]?.message ?? resolveError.message) : undefined)
            }
            hint="The claimant's 10-digit NUBAN"
          >
            <Input
              id="payout-account"
              inputMode="numeric"
              maxLength={10}
              autoComplete="off"
              value={draft.accountNumber}
              aria-invalid={!!errors.accountNumber || !!resolveError}
              aria-describedby={errors.accountNumber || resolveError ? "payout-account-error" : undefined}
              onChange={(e) => edit("accountNumber", e.target.value.replace(/\D/g, ""))}
            />
          </Field>
          <p className="min-h-5 text-sm" aria-live="polite" data-testid="payout-account-name">
            {ready && resolved.isFetching && !accountName && "Looking up the account…"}
            {accountName && (
              <>
                Account name: <strong>{accountName}</strong>
              </>
            )}
          </p>
          <Field id="payout-amount" label={`Amount (${currency})`} error={errors.amount} hint="At most the approved amount">
            <Input
              id="payout-amount"
              inputMode="decimal"
              value={draft.amount}
              aria-invalid={!!errors.amount}
              aria-describedby={errors.amount ? "payout-amount-error" : undefined}
              onChange={(e) => edit("amount", e.target.value)}
            />
          </Field>
          <FormError message={formError} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={ready && resolved.isFetching && !accountName}>
              Review payout
            </Button>
          </div>
        </form>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          if (!next) setConfirming(false);
        }}
        title="Send this payout?"
        description={
          <>
            {displayMoney(draft.amount || "0", currency)} to <strong>{accountName}</strong>, {bank?.name} ••••
            {draft.accountNumber.slice(-4)}. The money leaves your balance now; if the bank refuses it, it comes back and you can
            pay again.
          </>
        }
        confirmLabel="Send payout"
        confirmVariant="primary"
        loading={pay.isPending}
        onConfirm={() =>
          pay.mutate({
            id: claimId,
            data: { accountNumber: draft.accountNumber, bankCode: draft.bankCode, amount: Number(draft.amount) },
          })
        }
      />
    </>
  );
}
