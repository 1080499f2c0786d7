"use client";

// Sign-in's second step, for an account with two-factor sign-in on: the code
// from the authenticator app (or a backup code), and whether to trust this
// device for 30 days. A wrong code is a field error; a spent or expired
// challenge sends the user back to the password.
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { loadAuthClient } from "@/lib/lazy-auth-client";

type Values = { code: string; trustDevice: boolean };

export function TwoFactorStep({ onSignedIn, onRestart }: { onSignedIn: () => void; onRestart: (message: string) => void }) {
  const [backup, setBackup] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: { code: "", trustDevice: false } });
  const { errors, isSubmitting } = form.formState;
  const { setFocus } = form;
  useEffect(() => setFocus("code"), [setFocus, backup]);

  const onSubmit = form.handleSubmit(async ({ code, trustDevice }) => {
    setFormError(null);
    const value = code.trim();
    if (!backup && !/^\d{6}$/.test(value)) return form.setError("code", { message: "Enter the 6-digit code from your app" });
    if (backup && !/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(value))
      return form.setError("code", { message: "Enter a backup code, like abcde-12345" });
    const authClient = await loadAuthClient();
    const { error } = backup
      ? await authClient.twoFactor.verifyBackupCode({
          code: value.includes("-") ? value : `${value.slice(0, 5)}-${value.slice(5)}`,
          trustDevice,
        })
      : await authClient.twoFactor.verifyTotp({ code: value, trustDevice });
    if (!error) return onSignedIn();
    switch (error.code) {
      case "INVALID_CODE":
        return form.setError("code", { message: "This code is not right. Enter the code your app shows now" });
      case "INVALID_BACKUP_CODE":
        return form.setError("code", { message: "This backup code is not right, or was already used" });
      case "CODE_ALREADY_USED":
        return form.setError("code", { message: "This code was already used. Enter the next one" });
      case "ACCOUNT_TEMPORARILY_LOCKED":
        return setFormError("Too many wrong codes. Try again in 15 minutes, or use a backup code then.");
      case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
        return onRestart("Too many wrong codes. Sign in again.");
      case "INVALID_TWO_FACTOR_COOKIE":
        return onRestart("This sign-in took too long. Sign in again.");
      default:
        return setFormError(error.status === 429 ? "Too many attempts. Wait a minute, then try again." : "Could not check the code. Try again.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Two-factor sign-in</h1>
        <p className="mt-1 text-sm text-slate-600">
          {backup ? "Enter one of your backup codes. Each works once." : "Enter the 6-digit code from your authenticator app."}
        </p>
      </div>
      <FormError message={formError} />
      <Field id="code" label={backup ? "Backup code" : "Authentication code"} error={errors.code?.message}>
        <Input
          id="code"
          inputMode={backup ? "text" : "numeric"}
          autoComplete="one-time-code"
          maxLength={backup ? 11 : 6}
          aria-invalid={!!errors.code}
          aria-describedby={errors.code ? "code-error" : undefined}
          {...form.register("code")}
        />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...form.register("trustDevice")} />
        Trust this device for 30 days
      </label>
      <Button type="submit" className="w-full" loading={isSubmitting}>
        Verify
      </Button>
      <p className="text-center text-sm">
        <button
          type="button"
          className="font-medium text-brand-600 hover:underline"
          onClick={() => {
            setBackup((b) => !b);
            form.reset({ code: "", trustDevice: form.getValues("trustDevice") });
            setFormError(null);
          }}
        >
          {backup ? "Use your authenticator app instead" : "Use a backup code instead"}
        </button>
      </p>
    </form>
  );
}
