"use client";

// Two steps: the email (a code is sent if it has cover here — the answer does
// not say whether it has), by email or by text message to the phone on file,
// then the 6-digit code.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, FormError, Input } from "@/components/ui/field";
import { UploadError } from "@/components/upload/xhr-upload";
import { lazyResolver } from "@/lib/lazy-resolver";
import { portalButton, portalCall } from "./api";

const emailResolver = lazyResolver(() => import("./schemas").then((m) => m.email));
const codeResolver = lazyResolver(() => import("./schemas").then((m) => m.code));
const codeSentResolver = lazyResolver(() => import("./schemas").then((m) => m.codeSent));

type Via = "email" | "sms";

export function PortalSignIn({ organizationId, businessName }: { organizationId: string; businessName: string }) {
  const [email, setEmail] = useState<string | null>(null);
  const [via, setVia] = useState<Via>("email");
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Card className="mx-auto max-w-md p-6 sm:p-8">
      <h1 className="text-xl font-semibold text-slate-900">Sign in to see your cover</h1>
      <p className="mt-2 text-sm text-slate-600">
        See your cover with {businessName}, download certificates, renew, and make or follow a claim. No password: we send you a
        code by email or text message.
      </p>
      <div className="mt-6">
        {email === null ? (
          <EmailStep
            organizationId={organizationId}
            via={via}
            onViaChange={setVia}
            onSent={(e, message) => {
              setEmail(e);
              setNotice(message);
            }}
          />
        ) : (
          <CodeStep
            organizationId={organizationId}
            email={email}
            via={via}
            notice={notice}
            onRestart={() => {
              setEmail(null);
              setNotice(null);
            }}
            onResent={setNotice}
          />
        )}
      </div>
    </Card>
  );
}

function EmailStep({
  organizationId,
  via,
  onViaChange,
  onSent,
}: {
  organizationId: string;
  via: Via;
  onViaChange: (via: Via) => void;
  onSent: (email: string, message: string) => void;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ resolver: emailResolver, defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async ({ email }) => {
    setFormError(null);
    try {
      const res = await portalCall<{ message: string }>(`/api/portal/${organizationId}/code`, {
        method: "POST",
        body: { email, via },
      });
      onSent(email.trim().toLowerCase(), res.message);
    } catch (err) {
      const e = err as UploadError;
      const field = e.fieldErrors?.find((f) => f.path === "email");
      if (field) form.setError("email", { message: field.message });
      else setFormError(e.message);
    }
  });
  return (
    <form onSubmit={onSubmit} onFocus={emailResolver.preload} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field
        id="portal-email-input"
        label="Email address"
        hint="The email you gave when you bought your cover."
        error={errors.email?.message}
      >
        <Input
          id="portal-email-input"
          type="email"
          autoComplete="email"
          aria-invalid={!!errors.email}
          {...form.register("email")}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Send the code by</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {(
            [
              ["email", "Email"],
              ["sms", "Text message"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="portal-code-via"
                value={value}
                checked={via === value}
                onChange={() => onViaChange(value)}
                aria-describedby="portal-code-via-hint"
                className="h-4 w-4 accent-[var(--portal-accent)]"
              />
              {label}
            </label>
          ))}
        </div>
        <p id="portal-code-via-hint" className="text-xs text-slate-500">
          If a phone is on file, the code comes by text message, else by email.
        </p>
      </fieldset>
      <Button type="submit" loading={isSubmitting} className={`w-full ${portalButton}`}>
        {via === "sms" ? "Text me a code" : "Email me a code"}
      </Button>
    </form>
  );
}

function CodeStep({
  organizationId,
  email,
  via,
  notice,
  onRestart,
  onResent,
}: {
  organizationId: string;
  email: string;
  via: Via;
  notice: string | null;
  onRestart: () => void;
  onResent: (message: string) => void;
}) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const resolver = via === "sms" ? codeSentResolver : codeResolver;
  const form = useForm({ resolver, defaultValues: { code: "" } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      await portalCall(`/api/portal/${organizationId}/session`, { method: "POST", body: { email, code } });
      router.refresh();
    } catch (err) {
      const e = err as UploadError;
      const field = e.fieldErrors?.find((f) => f.path === "code");
      if (field) form.setError("code", { message: field.message });
      else setFormError(e.message);
    }
  });
  return (
    <form onSubmit={onSubmit} onFocus={resolver.preload} noValidate className="space-y-4">
      {notice && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {notice}
        </p>
      )}
      <FormError message={formError} />
      {via === "sms" ? (
        <p className="text-sm text-slate-700">
          If a phone is on file for <strong className="[overflow-wrap:anywhere]">{email}</strong>, the code comes by text
          message, else by email.
        </p>
      ) : (
        <p className="text-sm text-slate-700">
          Code sent to <strong className="[overflow-wrap:anywhere]">{email}</strong>.
        </p>
      )}
      <Field id="portal-code" label="Sign-in code" error={errors.code?.message}>
        <Input
          id="portal-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="123456"
          aria-invalid={!!errors.code}
          {...form.register("code")}
        />
      </Field>
      <Button type="submit" loading={isSubmitting} className={`w-full ${portalButton}`}>
        Sign in
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          onClick={onRestart}
          className="font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900"
        >
          Use another email
        </button>
        <button
          type="button"
          disabled={resending}
          onClick={async () => {
            setResending(true);
            setFormError(null);
            try {
              const res = await portalCall<{ message: string }>(`/api/portal/${organizationId}/code`, {
                method: "POST",
                body: { email, via },
              });
              onResent(`A new code is on its way. ${res.message.split(". ").pop() ?? ""}`.trim());
            } catch (err) {
              setFormError((err as Error).message);
            } finally {
              setResending(false);
            }
          }}
          className="font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900 disabled:opacity-60"
        >
          Send a new code
        </button>
      </div>
    </form>
  );
}
