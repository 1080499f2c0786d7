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

const Password = z.object({ value: z.string().min(1, "Enter your password").max(128) });
const Code = z.object({
  value: z
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
      <ConfirmForm
        key={withCode ? "code" : "password"}
        way={withCode ? "code" : "password"}
        email={email}
        onConfirmed={onConfirmed}
        onCancel={onCancel}
        switchWay={twoFactor ? () => setWithCode(!withCode) : undefined}
      />
    </Dialog>
  );
}

/** How each way of confirming is asked for. */
const WAYS = {
  password: {
    schema: Password,
    label: "Password",
    input: { type: "password", autoComplete: "current-password" },
    other: "Use a code from your authenticator app instead",
  },
  code: {
    schema: Code,
    label: "Code from your app or a backup code",
    input: { type: "text", autoComplete: "one-time-code" },
    other: "Use your password instead",
  },
} as const;

type Way = keyof typeof WAYS;

function ConfirmForm({
  way,
  email,
  onConfirmed,
  onCancel,
  switchWay,
}: {
  way: Way;
  email: string;
  onConfirmed: () => void;
  onCancel: () => void;
  /** The other way, when there is one (a code only with two-factor on). */
  switchWay?: () => void;
}) {
  const trpc = useTRPC();
  const confirm = useMutation(trpc.profile.reauthenticate.mutationOptions());
  const spec = WAYS[way];
  const id = `reauth-${way}`;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ value: string }>({
    resolver: zodResolver(spec.schema as typeof Password),
    defaultValues: { value: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const { setFocus } = form;
  useEffect(() => setFocus("value"), [setFocus]);

  const onSubmit = form.handleSubmit(async ({ value }) => {
    setFormError(null);
    try {
      await confirm.mutateAsync(way === "password" ? { password: value } : { code: value });
      onConfirmed();
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((e) => e.path === way);
      if (field) form.setError("value", { message: field.message });
      else setFormError(info.message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      {way === "password" && <input type="email" name="username" autoComplete="username" hidden readOnly value={email} />}
      <Field id={id} label={spec.label} error={errors.value?.message}>
        <Input
          id={id}
          {...spec.input}
          aria-invalid={!!errors.value}
          aria-describedby={errors.value ? `${id}-error` : undefined}
          {...form.register("value")}
        />
      </Field>
      {switchWay && (
        <button type="button" className="text-sm font-medium text-brand-700 hover:underline" onClick={switchWay}>
          {spec.other}
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
