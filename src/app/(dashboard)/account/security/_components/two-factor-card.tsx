"use client";

// Two-factor sign-in for the signed-in user (better-auth's twoFactor plugin):
// off → Turn on (password) → QR code and key → a code from the app confirms →
// the 10 backup codes, shown once → on. On → New backup codes (password), or
// Turn off (password and a current code or a backup code, after a confirmation).
import { zodResolver } from "@hookform/resolvers/zod";
import { Copy, Download, ShieldCheck, ShieldOff } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Badge, Card } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { authClient } from "@/lib/auth-client";
import { toast } from "@/lib/toast";
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

type Step =
  | { kind: "idle" }
  | { kind: "password" }
  | { kind: "scan"; uri: string; backupCodes: string[] }
  | { kind: "codes"; backupCodes: string[]; enrolled: boolean }
  | { kind: "new-codes" }
  | { kind: "turn-off" };

export function TwoFactorCard({
  enabled: initiallyEnabled,
  email,
  doneHref,
}: {
  enabled: boolean;
  email: string;
  /** Where to go once set up and the backup codes are kept (the enrolment page: the dashboard). */
  doneHref?: string;
}) {
  const router = useRouter();
  const [enabled, setEnabled] = useState(initiallyEnabled);
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const idle = () => setStep({ kind: "idle" });

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            Two-factor sign-in <Badge tone={enabled ? "green" : "slate"}>{enabled ? "On" : "Off"}</Badge>
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {enabled
              ? "Signing in asks for a code from your authenticator app after your password."
              : "Ask for a code from an authenticator app (Google Authenticator, 1Password, Authy…) after your password."}
          </p>
        </div>
        {step.kind === "idle" && (
          <div className="flex flex-wrap gap-2">
            {enabled ? (
              <>
                <Button variant="secondary" onClick={() => setStep({ kind: "new-codes" })}>
                  New backup codes
                </Button>
                <Button variant="danger" onClick={() => setStep({ kind: "turn-off" })}>
                  <ShieldOff className="h-4 w-4" aria-hidden /> Turn off
                </Button>
              </>
            ) : (
              <Button onClick={() => setStep({ kind: "password" })}>
                <ShieldCheck className="h-4 w-4" aria-hidden /> Turn on
              </Button>
            )}
          </div>
        )}
      </div>

      {step.kind === "password" && (
        <PasswordStep
          email={email}
          submitLabel="Continue"
          intro="Enter your password to set up your authenticator app."
          onCancel={idle}
          run={async (password) => {
            const { data, error } = await authClient.twoFactor.enable({ password });
            if (error || !data || !("totpURI" in data) || !data.totpURI) return error ?? { status: 500 };
            setStep({ kind: "scan", uri: data.totpURI, backupCodes: data.backupCodes ?? [] });
            return null;
          }}
          what="turn on two-factor sign-in"
        />
      )}
      {step.kind === "scan" && (
        <ScanStep
          uri={step.uri}
          onCancel={idle}
          onConfirmed={() => {
            setEnabled(true);
            setStep({ kind: "codes", backupCodes: step.backupCodes, enrolled: true });
            // On the enrolment page the refresh would leave for the dashboard before the codes are kept.
            if (!doneHref) router.refresh();
          }}
        />
      )}
      {step.kind === "codes" && (
        <BackupCodes
          codes={step.backupCodes}
          enrolled={step.enrolled}
          onDone={() => (doneHref && step.enrolled ? router.push(doneHref) : idle())}
        />
      )}
      {step.kind === "new-codes" && (
        <PasswordStep
          email={email}
          submitLabel="Make new codes"
          intro="New backup codes replace the old ones: those stop working."
          onCancel={idle}
          run={async (password) => {
            const { data, error } = await authClient.twoFactor.generateBackupCodes({ password });
            if (error || !data) return error ?? { status: 500 };
            setStep({ kind: "codes", backupCodes: data.backupCodes, enrolled: false });
            return null;
          }}
          what="make new backup codes"
        />
      )}
      {step.kind === "turn-off" && (
        <TurnOffStep
          email={email}
          onCancel={idle}
          onDone={() => {
            setEnabled(false);
            idle();
            toast.success("Two-factor sign-in is off.");
            router.refresh();
          }}
        />
      )}
    </Card>
  );
}

function PasswordStep({
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

function ScanStep({ uri, onCancel, onConfirmed }: { uri: string; onCancel: () => void; onConfirmed: () => void }) {
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

function BackupCodes({ codes, enrolled, onDone }: { codes: string[]; enrolled: boolean; onDone: () => void }) {
  const text = `Coverdesk backup codes (each works once)\n\n${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Backup codes copied.");
    } catch {
      toast.error("Could not copy: select the codes instead.");
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "coverdesk-backup-codes.txt";
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-labelledby="backup-codes-title" className="mt-6 space-y-4 border-t border-slate-200 pt-6">
      <h3 id="backup-codes-title" className="font-semibold text-slate-900">
        {enrolled ? "Two-factor sign-in is on. Keep your backup codes" : "Your new backup codes"}
      </h3>
      <p className="text-sm text-slate-700">
        Each code signs you in once if you lose your phone. They are shown only now: copy or download them and keep them
        somewhere safe.
      </p>
      <ul aria-label="Backup codes" className="grid max-w-md grid-cols-2 gap-2 font-mono text-sm text-slate-900">
        {codes.map((code) => (
          <li key={code} className="rounded bg-slate-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={copy}>
          <Copy className="h-4 w-4" aria-hidden /> Copy
        </Button>
        <Button variant="secondary" onClick={download}>
          <Download className="h-4 w-4" aria-hidden /> Download .txt
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </section>
  );
}

function TurnOffStep({ email, onCancel, onDone }: { email: string; onCancel: () => void; onDone: () => void }) {
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
