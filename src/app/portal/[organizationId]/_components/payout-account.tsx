"use client";

// Where an approved claim is paid: the policyholder picks their bank (a
// searchable list) and types their account number; the server asks the bank
// for the account's name and keeps it, which is shown back so a mistake shows
// before any money moves. The account can be changed until a payout starts.
// The API's schema (and zod) loads when the form is first used, not with the page.
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { lazyModule } from "@/components/lazy-module";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import type { UploadError } from "@/components/upload/xhr-upload";
import { formatDateTime } from "@/lib/format";
import type { ClaimantAccount, ClaimantAccountInput } from "@/lib/schemas/claim-payouts";
import { portalButton, portalCall } from "./api";

/** The API's schema for the account (and zod): loaded when the form is focused or submitted. */
const accountSchema = lazyModule(() => import("@/lib/schemas/claim-payouts"));

export function PayoutAccount({
  organizationId,
  claimId,
  banks,
  account,
}: {
  organizationId: string;
  claimId: string;
  banks: { code: string; name: string }[];
  account: ClaimantAccount | null;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(account === null);
  const [filter, setFilter] = useState("");
  const [bankCode, setBankCode] = useState(account?.bankCode ?? "");
  const [accountNumber, setAccountNumber] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? banks.filter((b) => b.name.toLowerCase().includes(q) || b.code === q) : banks;
  }, [banks, filter]);

  if (!editing && account) {
    return (
      <div className="space-y-3" data-testid="portal-payout-account">
        <p className="text-sm text-slate-800">
          We will pay you at <strong>{account.accountName}</strong>, {account.bankName} ••••{account.accountNumberLast4}.
        </p>
        <p className="text-xs text-slate-600">Given {formatDateTime(account.givenAt)}. The name is as your bank gives it.</p>
        <Button type="button" variant="secondary" onClick={() => setEditing(true)}>
          Change account
        </Button>
      </div>
    );
  }

  return (
    <form
      className="space-y-4"
      noValidate
      aria-label="Your bank account"
      onFocus={accountSchema.preload}
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        // Without the schema (its chunk failed to load) the server's check, the same one, answers.
        const parsed = (await accountSchema().catch(() => null))?.ClaimantAccountInput.safeParse({ bankCode, accountNumber });
        const found: Record<string, string> = {};
        for (const issue of parsed?.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
        setErrors(found);
        if (parsed && !parsed.success) return;
        const body: ClaimantAccountInput = parsed?.data ?? { bankCode, accountNumber };
        setSaving(true);
        try {
          await portalCall(`/api/portal/${organizationId}/claims/${claimId}/payout-account`, {
            method: "POST",
            body,
          });
          setEditing(false);
          setAccountNumber("");
          router.refresh();
        } catch (err) {
          const u = err as UploadError;
          const fields = Object.fromEntries((u.fieldErrors ?? []).map((f) => [f.path, f.message]));
          setErrors(fields);
          setError(Object.keys(fields).length ? null : u.message);
        } finally {
          setSaving(false);
        }
      }}
    >
      <p className="text-sm text-slate-700">Tell us where to send the money. Only the last 4 digits are ever shown.</p>
      <Field id="portal-bank-filter" label="Find your bank" hint="Type part of its name">
        <Input id="portal-bank-filter" value={filter} autoComplete="off" onChange={(e) => setFilter(e.target.value)} />
      </Field>
      <Field id="portal-bank" label="Bank" error={errors.bankCode}>
        <NativeSelect
          id="portal-bank"
          value={bankCode}
          aria-invalid={!!errors.bankCode}
          aria-describedby={errors.bankCode ? "portal-bank-error" : undefined}
          onChange={(e) => {
            setBankCode(e.target.value);
            setErrors(({ bankCode: _gone, ...rest }) => rest);
          }}
        >
          <option value="">{`Choose your bank (${shown.length})`}</option>
          {shown.map((b) => (
            <option key={b.code} value={b.code}>
              {b.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id="portal-account-number" label="Account number" error={errors.accountNumber} hint="Your 10-digit NUBAN">
        <Input
          id="portal-account-number"
          inputMode="numeric"
          maxLength={10}
          autoComplete="off"
          value={accountNumber}
          aria-invalid={!!errors.accountNumber}
          aria-describedby={errors.accountNumber ? "portal-account-number-error" : undefined}
          onChange={(e) => {
            setAccountNumber(e.target.value.replace(/\D/g, ""));
            setErrors(({ accountNumber: _gone, ...rest }) => rest);
          }}
        />
      </Field>
      <FormError message={error} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={saving} className={portalButton}>
          Save account
        </Button>
        {account && (
          <Button type="button" variant="secondary" onClick={() => setEditing(false)}>
            Keep {account.bankName} ••••{account.accountNumberLast4}
          </Button>
        )}
      </div>
    </form>
  );
}
