"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { authClient } from "@/lib/auth-client";
import { M, z } from "@/lib/messages";

const ChangePassword = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password").max(128, M.maxChars(128)),
    newPassword: z.string().min(8, M.minChars(8)).max(128, M.maxChars(128)),
    confirm: z.string().min(1, "Enter the new password again"),
  })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: "Enter the same password in both fields" })
  .refine((v) => v.newPassword !== v.currentPassword, {
    path: ["newPassword"],
    message: "Choose a password different from the current one",
  });

/** The signed-in user's own password; every other session of theirs is signed out. */
export function ChangePasswordDialog({
  email,
  open,
  onOpenChange,
}: {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Change password"
      description="Your other devices will be signed out; this one stays signed in."
    >
      {/* Mounted with the open dialog: every opening starts empty. */}
      <ChangePasswordForm email={email} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ChangePasswordForm({ email, onDone }: { email: string; onDone: () => void }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(ChangePassword),
    defaultValues: { currentPassword: "", newPassword: "", confirm: "" },
  });
  const { errors, isSubmitting } = form.formState;

  // Runs before the dialog's own first focus (on its close button), which then leaves focus here.
  const { setFocus } = form;
  useEffect(() => setFocus("currentPassword"), [setFocus]);

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    setFormError(null);
    const { error } = await authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true });
    if (error) {
      if (error.code === "INVALID_PASSWORD") form.setError("currentPassword", { message: "This is not your current password" });
      else if (error.code === "PASSWORD_TOO_SHORT") form.setError("newPassword", { message: M.minChars(8) });
      else if (error.code === "PASSWORD_TOO_LONG") form.setError("newPassword", { message: M.maxChars(128) });
      else if (error.status === 429) setFormError("Too many attempts. Wait a minute, then try again.");
      else setFormError("Could not change the password. Try again.");
      return;
    }
    toast.success("Password changed. Your other devices were signed out.");
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      {/* For password managers: the account whose password this is. */}
      <input type="email" name="username" autoComplete="username" hidden readOnly value={email} />
      <Field id="current-password" label="Current password" error={errors.currentPassword?.message}>
        <Input
          id="current-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.currentPassword}
          aria-describedby={errors.currentPassword ? "current-password-error" : undefined}
          {...form.register("currentPassword")}
        />
      </Field>
      <Field id="new-password" label="New password" hint="8 to 128 characters." error={errors.newPassword?.message}>
        <Input
          id="new-password"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.newPassword}
          aria-describedby={errors.newPassword ? "new-password-error" : undefined}
          {...form.register("newPassword")}
        />
      </Field>
      <Field id="confirm-password" label="Confirm new password" error={errors.confirm?.message}>
        <Input
          id="confirm-password"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.confirm}
          aria-describedby={errors.confirm ? "confirm-password-error" : undefined}
          {...form.register("confirm")}
        />
      </Field>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Change password
        </Button>
      </div>
    </form>
  );
}
