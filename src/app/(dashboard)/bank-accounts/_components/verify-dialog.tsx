"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { errorInfo, useTRPC } from "@/trpc/react";
import type { BankAccount } from "../../earnings/_components/types";

/** The attempts a wrong code leaves (the server puts them in the error's data). */
const attemptsRemainingOf = (err: unknown): number | null => {
  if (!(err instanceof TRPCClientError)) return null;
  const left = (err.data as { attemptsRemaining?: unknown } | undefined)?.attemptsRemaining;
  return typeof left === "number" ? left : null;
};

/** The server's message without the field name it starts with ("verificationCode: is not…"). */
const serverSaid = (message: string) => {
  const text = message.replace(/^verificationCode:\s*/, "").replace(/\.$/, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
};

export function VerifyDialog({
  account,
  onOpenChange,
  onVerified,
  onFailed,
}: {
  account: BankAccount | null;
  onOpenChange: (open: boolean) => void;
  onVerified: () => void;
  /** A wrong code changed the account (attempts used; the last one fails it). */
  onFailed: () => void;
}) {
  return (
    <Dialog
      open={account !== null}
      onOpenChange={onOpenChange}
      title="Verify your bank account"
      description={
        account && (
          <>
            Enter the code from the small deposit we sent to {account.bankName} ••••{account.accountNumberLast4}. Its description
            on your statement holds the code.
          </>
        )
      }
    >
      {account && (
        <VerifyForm
          key={account.id}
          account={account}
          onCancel={() => onOpenChange(false)}
          onVerified={onVerified}
          onFailed={onFailed}
        />
      )}
    </Dialog>
  );
}

function VerifyForm({
  account,
  onCancel,
  onVerified,
  onFailed,
}: {
  account: BankAccount;
  onCancel: () => void;
  onVerified: () => void;
  onFailed: () => void;
}) {
  const trpc = useTRPC();
  const hint = useQuery(trpc.bankAccounts.sandboxHint.queryOptions());
  const verify = useMutation(trpc.bankAccounts.verify.mutationOptions());
  const [code, setCode] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [locked, setLocked] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const verificationCode = code.trim();
    if (!verificationCode) {
      setFieldError("Enter the code");
      return;
    }
    setFieldError(null);
    try {
      await verify.mutateAsync({ id: account.id, verificationCode });
      onVerified();
    } catch (err) {
      const info = errorInfo(err);
      const left = attemptsRemainingOf(err);
      if (left === null) {
        setFormError(info.message);
        return;
      }
      onFailed();
      const said = serverSaid(info.message);
      if (left === 0) {
        setLocked(true);
        setFormError(`${said}. Verification failed after 3 wrong codes: remove this account and add it again.`);
      } else {
        // The server's message may name the attempts already; say them once.
        const attempts = `${left} ${left === 1 ? "attempt" : "attempts"} left`;
        setFieldError(said.includes(attempts) ? `${said}.` : `${said}. ${attempts}.`);
      }
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {hint.data?.code && (
        <p role="note" className="rounded-md border border-brand-100 bg-brand-50 px-3 py-2 text-sm text-brand-700">
          Sandbox: the code is <strong className="font-mono">{hint.data.code}</strong>
        </p>
      )}
      <FormError message={formError} />
      {!locked && (
        <Field id="verification-code" label="Verification code" error={fieldError ?? undefined}>
          <Input
            id="verification-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            autoFocus
            maxLength={32}
            className="font-mono"
            aria-invalid={!!fieldError}
            aria-describedby={fieldError ? "verification-code-error" : undefined}
          />
        </Field>
      )}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          {locked ? "Close" : "Cancel"}
        </Button>
        {!locked && (
          <Button type="submit" loading={verify.isPending}>
            Verify
          </Button>
        )}
      </div>
    </form>
  );
}
