"use client";

import { CircleCheck, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { loadAuthClient, preloadAuthClient } from "@/lib/lazy-auth-client";
import { lazyResolver } from "@/lib/lazy-resolver";
import { M } from "@/lib/field-messages";

// The schema (and zod) load when the form is first used, the auth client on submit.
const resolver = lazyResolver(() => import("../schemas").then((m) => m.newPassword));
const preload = () => {
  resolver.preload();
  preloadAuthClient();
};

type State = "form" | "invalid" | "done";

export function ResetPasswordForm({ token }: { token: string | null }) {
  const [state, setState] = useState<State>(token ? "form" : "invalid");
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver, defaultValues: { password: "", confirm: "" } });
  const { errors, isSubmitting } = form.formState;
  const heading = useRef<HTMLHeadingElement>(null);
  const [moved, setMoved] = useState(false);
  const show = (next: State) => {
    setState(next);
    setMoved(true);
  };
  // When the form gives way to an answer, focus moves to its heading so a screen reader reads it.
  useEffect(() => {
    if (moved) heading.current?.focus();
  }, [moved, state]);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setFormError(null);
    const authClient = await loadAuthClient();
    const { error } = await authClient.resetPassword({ newPassword: password, token: token ?? "" });
    if (!error) return show("done");
    if (error.code === "INVALID_TOKEN") return show("invalid");
    if (error.code === "PASSWORD_TOO_SHORT") return form.setError("password", { message: M.minChars(8) });
    if (error.code === "PASSWORD_TOO_LONG") return form.setError("password", { message: M.maxChars(128) });
    setFormError(
      error.status === 429
        ? "Too many attempts from this connection. Wait a minute, then try again."
        : "Could not change the password. Try again.",
    );
  });

  if (state === "invalid") {
    return (
      <div className="space-y-4">
        <TriangleAlert className="h-8 w-8 text-amber-600" aria-hidden />
        <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
          This reset link has expired or is invalid
        </h1>
        <p className="text-sm text-slate-700">A link to reset your password works once, for 1 hour. Ask for a new one below.</p>
        <div className="flex flex-col gap-2">
          <Button asChild className="w-full">
            <Link href="/forgot-password">Request a new link</Link>
          </Button>
          <Button asChild variant="ghost" className="w-full">
            <Link href="/sign-in">Back to sign in</Link>
          </Button>
        </div>
      </div>
    );
  }

  if (state === "done") {
    return (
      <div className="space-y-4">
        <CircleCheck className="h-8 w-8 text-green-600" aria-hidden />
        <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
          Your password was changed
        </h1>
        <p className="text-sm text-slate-700">
          Sign in with your new password. Every device that was signed in to your account was signed out.
        </p>
        <Button asChild className="w-full">
          <Link href="/sign-in">Sign in</Link>
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Choose a new password</h1>
        <p className="mt-1 text-sm text-slate-600">Once it is changed, every device signed in to your account is signed out.</p>
      </div>
      <FormError message={formError} />
      <Field id="password" label="New password" hint="8 to 128 characters." error={errors.password?.message}>
        <Input
          id="password"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.password}
          aria-describedby={errors.password ? "password-error" : undefined}
          {...form.register("password")}
        />
      </Field>
      <Field id="confirm" label="Confirm new password" error={errors.confirm?.message}>
        <Input
          id="confirm"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.confirm}
          aria-describedby={errors.confirm ? "confirm-error" : undefined}
          {...form.register("confirm")}
        />
      </Field>
      <Button type="submit" className="w-full" loading={isSubmitting}>
        Change password
      </Button>
      <p className="text-center text-sm text-slate-600">
        <Link href="/sign-in" className="font-medium text-brand-600 hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
