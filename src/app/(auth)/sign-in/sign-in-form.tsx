"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { Field, Input, FormError } from "@/components/ui/field";
import { authClient } from "@/lib/auth-client";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";

const SignIn = z.object({
  email: z.email("Enter your email address"),
  password: z.string().min(1, "Enter your password"),
});

export function SignInForm({ next }: { next: string }) {
  const go = useFreshNavigation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(SignIn), defaultValues: { email: "", password: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const { error } = await authClient.signIn.email(values);
    if (error) {
      setFormError(error.status === 401 ? "Wrong email or password." : (error.message ?? "Could not sign in."));
      return;
    }
    go(next);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
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
