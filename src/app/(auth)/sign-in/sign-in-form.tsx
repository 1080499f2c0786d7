"use client";

import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, Input, FormError } from "@/components/ui/field";
import { loadAuthClient, preloadAuthClient } from "@/lib/lazy-auth-client";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";
import { TwoFactorStep } from "./two-factor-step";

// The schema (and zod) load when the form is first used, the auth client on submit.
const resolver = lazyResolver(() => import("../schemas").then((m) => m.signIn));
const preload = () => {
  resolver.preload();
  preloadAuthClient();
};

export function SignInForm({ next }: { next: string }) {
  const go = useFreshNavigation();
  const [formError, setFormError] = useState<string | null>(null);
  // The password was right and the account asks for a second factor.
  const [secondStep, setSecondStep] = useState(false);
  const form = useForm({ resolver, defaultValues: { email: "", password: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const authClient = await loadAuthClient();
    const { data, error } = await authClient.signIn.email(values);
    if (error) {
      setFormError(error.status === 401 ? "Wrong email or password." : (error.message ?? "Could not sign in."));
      return;
    }
    if (data && "twoFactorRedirect" in data && data.twoFactorRedirect) {
      setSecondStep(true);
      return;
    }
    go(next);
  });

  if (secondStep)
    return (
      <TwoFactorStep
        onSignedIn={() => go(next)}
        onRestart={(message) => {
          form.setValue("password", "");
          setFormError(message);
          setSecondStep(false);
        }}
      />
    );

  return (
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">Welcome back to your Coverdesk dashboard.</p>
      </div>
      <FormError message={formError} />
      <Field id="email" label="Email" error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="email" aria-invalid={!!errors.email} {...form.register("email")} />
      </Field>
      <Field id="password" label="Password" error={errors.password?.message}>
        <Input
          id="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          {...form.register("password")}
        />
      </Field>
      <p className="-mt-2 text-right text-sm">
        <Link href="/forgot-password" className="font-medium text-brand-600 hover:underline">
          Forgot password?
        </Link>
      </p>
      <Button type="submit" className="w-full" loading={isSubmitting}>
        Sign in
      </Button>
      <p className="text-center text-sm text-slate-600">
        New to Coverdesk?{" "}
        <Link
          href={`/sign-up${next !== "/" ? `?next=${encodeURIComponent(next)}` : ""}`}
          className="font-medium text-brand-600 hover:underline"
        >
          Create an account
        </Link>
      </p>
    </form>
  );
}
