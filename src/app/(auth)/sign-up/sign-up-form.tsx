"use client";

import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, Input, FormError } from "@/components/ui/field";
import { loadAuthClient, preloadAuthClient } from "@/lib/lazy-auth-client";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";

// The schema (and zod) load when the form is first used, the auth client on submit.
const resolver = lazyResolver(() => import("../schemas").then((m) => m.signUp));
const preload = () => {
  resolver.preload();
  preloadAuthClient();
};

export function SignUpForm({ next }: { next: string }) {
  const go = useFreshNavigation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    resolver,
    defaultValues: { name: "", organizationName: "", email: "", password: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    // `organizationName` makes the sign-up create the user's first organization.
    const authClient = await loadAuthClient();
    const { error } = await authClient.signUp.email(values as typeof values & { name: string });
    if (error) {
      if (error.status === 422 || error.code === "USER_ALREADY_EXISTS" || /exist/i.test(error.message ?? "")) {
        form.setError("email", { message: "An account with this email already exists. Sign in instead." });
      } else {
        setFormError(error.message ?? "Could not create the account.");
      }
      return;
    }
    go(next);
  });

  return (
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Create your account</h1>
        <p className="mt-1 text-sm text-slate-600">Start selling insurance in minutes.</p>
      </div>
      <FormError message={formError} />
      <Field id="name" label="Your name" error={errors.name?.message}>
        <Input id="name" autoComplete="name" aria-invalid={!!errors.name} {...form.register("name")} />
      </Field>
      <Field id="organizationName" label="Business name" error={errors.organizationName?.message}>
        <Input
          id="organizationName"
          autoComplete="organization"
          aria-invalid={!!errors.organizationName}
          {...form.register("organizationName")}
        />
      </Field>
      <Field id="email" label="Work email" error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="email" aria-invalid={!!errors.email} {...form.register("email")} />
      </Field>
      <Field id="password" label="Password" hint="At least 8 characters." error={errors.password?.message}>
        <Input
          id="password"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.password}
          {...form.register("password")}
        />
      </Field>
      <Button type="submit" className="w-full" loading={isSubmitting}>
        Create account
      </Button>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link
          href={`/sign-in${next !== "/" ? `?next=${encodeURIComponent(next)}` : ""}`}
          className="font-medium text-brand-600 hover:underline"
        >
          Sign in
        </Link>
      </p>
    </form>
  );
}
