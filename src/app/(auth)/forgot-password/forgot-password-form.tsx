"use client";

import { MailCheck } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { loadAuthClient, preloadAuthClient } from "@/lib/lazy-auth-client";
import { lazyResolver } from "@/lib/lazy-resolver";

// The schema (and zod) load when the form is first used, the auth client on submit.
const resolver = lazyResolver(() => import("../schemas").then((m) => m.forgotPassword));
const preload = () => {
  resolver.preload();
  preloadAuthClient();
};

export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver, defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const heading = useRef<HTMLHeadingElement>(null);
  // The form is replaced by the answer: take focus there, so a screen reader reads it.
  useEffect(() => {
    if (sentTo) heading.current?.focus();
  }, [sentTo]);

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setFormError(null);
    // The answer is the same whether or not the email has an account; only a refusal of the request itself is shown.
    const authClient = await loadAuthClient();
    const { error } = await authClient.requestPasswordReset({ email });
    if (error) {
      setFormError(
        error.status === 429
          ? "Too many requests from this connection. Wait a minute, then try again."
          : "Could not send the link. Try again.",
      );
      return;
    }
    setSentTo(email);
  });

  if (sentTo) {
    return (
      <div className="space-y-4">
        <MailCheck className="h-8 w-8 text-brand-600" aria-hidden />
        <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold outline-none">
          Check your email
        </h1>
        <p className="text-sm text-slate-700">
          If an account exists for that email, we sent a link to choose a new password. The link works once, for 1 hour.
        </p>
        <p className="text-sm text-slate-600">
          Email: <strong className="break-all font-medium text-slate-900">{sentTo}</strong>. Nothing after a few minutes? Check
          your spam folder, or send another link.
        </p>
        <div className="flex flex-col gap-2">
          <Button asChild className="w-full">
            <Link href="/sign-in">Back to sign in</Link>
          </Button>
          <Button
            type="button"
            variant="ghost"
            className="w-full"
            onClick={() => {
              form.reset({ email: sentTo });
              setSentTo(null);
            }}
          >
            Send another link
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Forgot your password?</h1>
        <p className="mt-1 text-sm text-slate-600">
          Enter the email you sign in with and we will send you a link to choose a new one.
        </p>
      </div>
      <FormError message={formError} />
      <Field id="email" label="Email" error={errors.email?.message}>
        <Input
          id="email"
          type="email"
          autoComplete="email"
          aria-invalid={!!errors.email}
          aria-describedby={errors.email ? "email-error" : undefined}
          {...form.register("email")}
        />
      </Field>
      <Button type="submit" className="w-full" loading={isSubmitting}>
        Send reset link
      </Button>
      <p className="text-center text-sm text-slate-600">
        Remembered it?{" "}
        <Link href="/sign-in" className="font-medium text-brand-600 hover:underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
