"use client";

// The forms of two-factor sign-in (./two-factor-card loads them, with
// react-hook-form, zod and better-auth's client, when a step first opens):
// the password step, scanning the QR code and confirming a code, turning off.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { authClient } from "@/lib/auth-client";
import { z } from "@/lib/messages";

const Password = z.object({ password: z.string().min(1, "Enter your password").max(128) });
const Code = z.object({ code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code from your app") });
const TurnOff = z.object({
  password: z.string().min(1, "Enter your password").max(128),
  code: z
    .string()
    .trim()
    .regex(/^(\d{6}|[A-Za-z0-9]{5}-[A-Za-z0-9]{5})$/, "Enter the 6-digit code from your app, or a backup code"),
});

type AuthError = { code?: string; status: number; message?: string };

function problemText(error: AuthError, what: string) {
  if (error.status === 429) return "Too many attempts. Wait a minute, then try again.";
  return `Could not ${what}. Try again.`;
}

/** The key of an otpauth:// URI, in groups of 4 for typing. */
function keyOf(uri: string) {
  const key = new URL(uri).searchParams.get("secret") ?? "";
  return key.replace(/(.{4})/g, "$1 ").trim();
}

export function PasswordStep({
  email,
  intro,
  submitLabel,
  what,
  run,
  onCancel,
}: {
  email: string;
  intro: string;
  submitLabel: string;
  what: string;
  /** Null when done; else the server's error. */
  run: (password: string) => Promise<AuthError | null>;
  onCancel: () => void;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(Password), defaultValues: { password: "" } });
  const { errors, isSubmitting } = form.formState;
  const { setFocus } = form;
  useEffect(() => setFocus("password"), [setFocus]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setFormError(null);
    const error = await run(password);
    if (!error) return;
    if (error.code === "INVALID_PASSWORD") form.setError("password", { message: "This is not your password" });
    else setFormError(problemText(error, what));
  });

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 max-w-md space-y-4 border-t border-slate-200 pt-6">
      <p className="text-sm text-slate-700">{intro}</p>
      <FormError message={formError} />
      <input type="email" name="username" autoComplete="username" hidden readOnly value={email} />
      <Field id="tf-password" label="Password" error={errors.password?.message}>
        <Input
          id="tf-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          aria-describedby={errors.password ? "tf-password-error" : undefined}
          {...form.register("password")}
        />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

export function ScanStep({ uri, onCancel, onConfirmed }: { uri: string; onCancel: () => void; onConfirmed: () => void }) {
  const [qr, setQr] = useState<string | null>(null);
  const [qrFailed, setQrFailed] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(Code), defaultValues: { code: "" } });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    let live = true;
    import("qrcode")
      .then((q) => q.toDataURL(uri, { margin: 1, width: 200, errorCorrectionLevel: "M" }))
      .then((url) => live && setQr(url))
      .catch(() => live && setQrFailed(true));
    return () => {
      live = false;
    };
  }, [uri]);

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    const { error } = await authClient.twoFactor.verifyTotp({ code });
    if (!error) return onConfirmed();
    if (error.code === "INVALID_CODE") form.setError("code", { message: "This code is not right. Enter the code your app shows now" });
    else if (error.code === "CODE_ALREADY_USED") form.setError("code", { message: "This code was already used. Enter the next one" });
    else setFormError(problemText(error, "confirm the code"));
  });

  return (
    <div className="mt-6 space-y-6 border-t border-slate-200 pt-6">
      <div className="flex flex-col gap-6 sm:flex-row">
        <div className="flex h-[200px] w-[200px] shrink-0 items-center justify-center rounded-md border border-slate-200 bg-white">
          {qr ? (
            // eslint-disable-next-line @next/next/no-img-element -- a data URL made in the browser
            <img src={qr} width={200} height={200} alt="QR code to scan with your authenticator app" />
          ) : (
            <span className="px-4 text-center text-sm text-slate-500">{qrFailed ? "The QR code could not be drawn: enter the key." : "Drawing the QR code…"}</span>
          )}
        </div>
        <div className="min-w-0 space-y-3 text-sm text-slate-700">
          <p>
            <strong>1.</strong> Scan the QR code with your authenticator app.
          </p>
          <p>Can&apos;t scan it? Add an account by hand with this key (time-based, 6 digits):</p>
          <p>
            <code data-testid="totp-key" className="block break-words rounded bg-slate-100 px-2 py-1.5 font-mono text-sm text-slate-900">
              {keyOf(uri)}
            </code>
          </p>
          <p>
            <strong>2.</strong> Enter the code the app shows.
          </p>
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
        <FormError message={formError} />
        <Field id="tf-code" label="Code from the app" error={errors.code?.message}>
          <Input
            id="tf-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            aria-invalid={!!errors.code}
            aria-describedby={errors.code ? "tf-code-error" : undefined}
            {...form.register("code")}
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Confirm and turn on
          </Button>
        </div>
      </form>
    </div>
  );
}

export function TurnOffStep({ email, onCancel, onDone }: { email: string; onCancel: () => void; onDone: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useForm({ resolver: zodResolver(TurnOff), defaultValues: { password: "", code: "" } });
  const { errors } = form.formState;
  const { setFocus } = form;
  useEffect(() => setFocus("password"), [setFocus]);

  const turnOff = async () => {
    const { password, code } = form.getValues();
    setBusy(true);
    setFormError(null);
    try {
      // The server checks the password, then the code (an authenticator code is used up, as is a backup code).
      const { error } = await authClient.twoFactor.disable({ password, code: code.trim() } as { password: string });
      if (error) {
        setConfirming(false);
        if (error.code === "INVALID_PASSWORD") form.setError("password", { message: "This is not your password" });
        else if (error.code === "CODE_ALREADY_USED") form.setError("code", { message: "This code was already used. Enter the next one" });
        else if (error.code === "INVALID_CODE") form.setError("code", { message: "This code is not right" });
        else if (error.code === "TWO_FACTOR_REQUIRED_BY_ORGANIZATION")
          setFormError("Your organization requires two-factor sign-in: it cannot be turned off while you are a member.");
        else setFormError(problemText(error, "turn off two-factor sign-in"));
        return;
      }
      setConfirming(false);
      onDone();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={form.handleSubmit(() => setConfirming(true))} noValidate className="mt-6 max-w-md space-y-4 border-t border-slate-200 pt-6">
      <p className="text-sm text-slate-700">Enter your password and a code from your app (or a backup code).</p>
      <FormError message={formError} />
      <input type="email" name="username" autoComplete="username" hidden readOnly value={email} />
      <Field id="off-password" label="Password" error={errors.password?.message}>
        <Input
          id="off-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          aria-describedby={errors.password ? "off-password-error" : undefined}
          {...form.register("password")}
        />
      </Field>
      <Field id="off-code" label="Code from the app or a backup code" error={errors.code?.message}>
        <Input
          id="off-code"
          autoComplete="one-time-code"
          aria-invalid={!!errors.code}
          aria-describedby={errors.code ? "off-code-error" : undefined}
          {...form.register("code")}
        />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" loading={busy}>
          Turn off
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !busy && setConfirming(open)}
        title="Turn off two-factor sign-in?"
        description="Signing in will ask only for your password. Your backup codes stop working."
        confirmLabel="Turn off"
        loading={busy}
        onConfirm={() => void turnOff()}
      />
    </form>
  );
}
