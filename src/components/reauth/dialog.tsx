"use client";

// "Confirm it's you": the password, or a code from the authenticator app (or a
// backup code) when two-factor is on. Accepted, the session may move money,
// change keys, webhooks and roles for 10 minutes without asking again.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { z } from "@/lib/messages";
import { errorInfo, useTRPC } from "@/trpc/react";

const Password = z.object({ password: z.string().min(1, "Enter your password").max(128) });
const Code = z.object({
  code: z
    .string()
    .trim()
    .regex(/^(\d{6}|[A-Za-z0-9]{5}-[A-Za-z0-9]{5})$/, "Enter the 6-digit code from your app, or a backup code"),
});

export function ReauthDialog({
  open,
  email,
  twoFactor,
  onConfirmed,
  onCancel,
}: {
  open: boolean;
  email: string;
  twoFactor: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const [withCode, setWithCode] = useState(twoFactor);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title="Confirm it's you"
      description="This change needs your password or a two-factor code from the last 10 minutes. You will not be asked again for 10 minutes."
    >
      {withCode ? (
        <CodeForm key="code" onConfirmed={onConfirmed} onCancel={onCancel} usePassword={() => setWithCode(false)} />
      ) : (
        <PasswordForm
          key="password"
          email={email}
          onConfirmed={onConfirmed}
          onCancel={onCancel}
          useCode={twoFactor ? () => setWithCode(true) : undefined}
        />
      )}
    </Dialog>
  );
}

function useReauthenticate() {
  const trpc = useTRPC();
  return useMutation(trpc.profile.reauthenticate.mutationOptions());
}

function PasswordForm({
  email,
  onConfirmed,
  onCancel,
  useCode,
}: {
  email: string;
  onConfirmed: () => void;
  onCancel: () => void;
  useCode?: () => void;
}) {
  const confirm = useReauthenticate();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(Password), defaultValues: { password: "" } });
  const { errors, isSubmitting } = form.formState;
  const { setFocus } = form;
  useEffect(() => setFocus("password"), [setFocus]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setFormError(null);
    try {
      await confirm.mutateAsync({ password });
      onConfirmed();
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((e) => e.path === "password");
      if (field) form.setError("password", { message: field.message });
      else setFormError(info.message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      <input type="email" name="username" autoComplete="username" hidden readOnly value={email} />
      <Field id="reauth-password" label="Password" error={errors.password?.message}>
        <Input
          id="reauth-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          aria-describedby={errors.password ? "reauth-password-error" : undefined}
          {...form.register("password")}
        />
      </Field>
      {useCode && (
        <button type="button" className="text-sm font-medium text-brand-700 hover:underline" onClick={useCode}>
          Use a code from your authenticator app instead
        </button>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Confirm
        </Button>
      </div>
    </form>
  );
}

function CodeForm({ onConfirmed, onCancel, usePassword }: { onConfirmed: () => void; onCancel: () => void; usePassword: () => void }) {
  const confirm = useReauthenticate();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(Code), defaultValues: { code: "" } });
  const { errors, isSubmitting } = form.formState;
  const { setFocus } = form;
  useEffect(() => setFocus("code"), [setFocus]);

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      await confirm.mutateAsync({ code });
      onConfirmed();
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((e) => e.path === "code");
      if (field) form.setError("code", { message: field.message });
      else setFormError(info.message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="reauth-code" label="Code from your app or a backup code" error={errors.code?.message}>
        <Input
          id="reauth-code"
          inputMode="text"
          autoComplete="one-time-code"
          aria-invalid={!!errors.code}
          aria-describedby={errors.code ? "reauth-code-error" : undefined}
          {...form.register("code")}
        />
      </Field>
      <button type="button" className="text-sm font-medium text-brand-700 hover:underline" onClick={usePassword}>
        Use your password instead
      </button>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Confirm
        </Button>
      </div>
    </form>
  );
}
