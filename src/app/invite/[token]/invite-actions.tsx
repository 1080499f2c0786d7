"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, Input, FormError } from "@/components/ui/field";
import { loadAuthClient, preloadAuthClient } from "@/lib/lazy-auth-client";
import { lazyResolver } from "@/lib/lazy-resolver";
import { useFreshNavigation } from "@/lib/use-fresh-navigation";
import { errorInfo, useTRPC } from "@/trpc/react";

type Mode = "accept" | "wrong-account" | "sign-in" | "sign-up";

// The schemas (and zod) load when the form is first used, the auth client on submit.
const resolvers = {
  "sign-in": lazyResolver(() => import("./invite-actions.schema").then((m) => m.signIn)),
  "sign-up": lazyResolver(() => import("./invite-actions.schema").then((m) => m.signUp)),
};

export function InviteActions({
  token,
  mode,
  email,
  signedInAs,
}: {
  token: string;
  mode: Mode;
  email: string;
  signedInAs: string | null;
}) {
  const trpc = useTRPC();
  const go = useFreshNavigation();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const accept = useMutation(trpc.team.accept.mutationOptions());

  const join = async () => {
    setError(null);
    try {
      await accept.mutateAsync({ token });
      go("/");
    } catch (err) {
      setError(errorInfo(err).message);
    }
  };

  const alert = error && (
    <p role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
      {error}
    </p>
  );

  if (mode === "accept") {
    return (
      <>
        {alert}
        <Button className="w-full" loading={accept.isPending} onClick={join}>
          Accept and join
        </Button>
      </>
    );
  }

  if (mode === "wrong-account") {
    return (
      <>
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800" role="alert">
          You are signed in as {signedInAs}, but this invitation is for {email}. Sign out, then sign in or create an account with{" "}
          {email}.
        </p>
        <Button
          variant="secondary"
          className="w-full"
          onClick={async () => {
            const authClient = await loadAuthClient();
            await authClient.signOut();
            router.refresh();
          }}
        >
          Sign out
        </Button>
      </>
    );
  }

  return <CredentialsForm mode={mode} email={email} onSignedIn={join} error={alert} />;
}

function CredentialsForm({
  mode,
  email,
  onSignedIn,
  error,
}: {
  mode: "sign-in" | "sign-up";
  email: string;
  onSignedIn: () => Promise<void>;
  error: React.ReactNode;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const resolver = resolvers[mode];
  const form = useForm({ resolver, defaultValues: { name: "", password: "" } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const authClient = await loadAuthClient();
    const { error } =
      mode === "sign-up"
        ? await authClient.signUp.email({ email, name: values.name, password: values.password })
        : await authClient.signIn.email({ email, password: values.password });
    if (error) {
      setFormError(mode === "sign-in" && error.status === 401 ? "Wrong password." : (error.message ?? "Could not continue."));
      return;
    }
    await onSignedIn();
  });

  return (
    <form
      onSubmit={submit}
      onFocus={() => {
        resolver.preload();
        preloadAuthClient();
      }}
      noValidate
      className="space-y-4"
    >
      {error}
      <FormError message={formError} />
      <p className="text-sm text-slate-600">{mode === "sign-up" ? "Create your account to join." : "Sign in to join."}</p>
      <Field id="invite-email" label="Email">
        <Input id="invite-email" type="email" value={email} readOnly disabled />
      </Field>
      {mode === "sign-up" && (
        <Field id="invite-name" label="Your name" error={errors.name?.message}>
          <Input id="invite-name" autoComplete="name" aria-invalid={!!errors.name} {...form.register("name")} />
        </Field>
      )}
      <Field
        id="invite-password"
        label="Password"
        hint={mode === "sign-up" ? "At least 8 characters." : undefined}
        error={errors.password?.message}
      >
        <Input
          id="invite-password"
          type="password"
          autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
          aria-invalid={!!errors.password}
          {...form.register("password")}
        />
      </Field>
      <Button type="submit" className="w-full" loading={isSubmitting}>
        {mode === "sign-up" ? "Create account and join" : "Sign in and join"}
      </Button>
    </form>
  );
}
