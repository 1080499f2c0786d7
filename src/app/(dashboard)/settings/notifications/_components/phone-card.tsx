"use client";

// The signed-in user's phone for the team's SMS alerts: entered, then verified
// with the 6-digit code texted to it (profile.startPhone → profile.verifyPhone),
// or removed. Every member sets their own; the alerts go to owners and admins.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MessageSquare } from "lucide-react";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Badge, Card, ErrorState, Skeleton } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import type { ProfilePhone } from "@/lib/schemas/notifications";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../../_components/me";

export function PhoneCard() {
  const trpc = useTRPC();
  const phone = useQuery(trpc.profile.phone.queryOptions());
  const settings = useQuery(trpc.settings.get.queryOptions());
  const { can } = useMe();
  const smsOn = settings.data?.notifications.sms;

  return (
    <Card className="p-4 sm:p-6" role="region" aria-label="Your phone for SMS alerts">
      <h2 className="flex items-center gap-2 text-base font-semibold">
        <MessageSquare className="h-4 w-4 text-slate-500" aria-hidden /> Your phone for SMS alerts
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        SMS alerts about payments, claims, withdrawals and verification go to the owners and admins who verified a phone here,
        when <strong className="font-medium text-slate-800">Send SMS alerts</strong> is on in{" "}
        <Link href="/settings" className="font-medium text-brand-700 underline">
          Settings
        </Link>
        . The samples from <q>Send me a test</q> below come here too. Each text message is billed by the SMS provider.
      </p>
      {smsOn !== undefined && (
        <p className="mt-2 text-sm text-slate-700" data-testid="sms-alerts-setting">
          Send SMS alerts is <strong>{smsOn ? "on" : "off"}</strong>
          {!smsOn && (can.admin ? ": turn it on in Settings to get them." : ": an owner or admin can turn it on in Settings.")}
          {smsOn && !can.admin && " (your role does not receive the team's alerts; only owners and admins do)."}
        </p>
      )}
      <div className="mt-5">
        {phone.isPending ? (
          <div className="space-y-2" role="status" aria-label="Loading your phone">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-10 w-full sm:w-72" />
          </div>
        ) : phone.isError ? (
          <ErrorState message={errorInfo(phone.error).message} onRetry={() => phone.refetch()} />
        ) : (
          <PhoneForm current={phone.data} />
        )}
      </div>
    </Card>
  );
}

function PhoneForm({ current }: { current: ProfilePhone }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const save = (data: ProfilePhone) => queryClient.setQueryData(trpc.profile.phone.queryKey(), data);
  const remove = useMutation(
    trpc.profile.removePhone.mutationOptions({
      onSuccess: (data) => {
        save(data);
        setConfirmRemove(false);
        setEditing(false);
        toast.success("Phone removed: no more SMS alerts to it");
      },
      onError: (err) => {
        setConfirmRemove(false);
        toast.error(errorInfo(err).message);
      },
    }),
  );

  const mode = editing ? "enter" : current.pendingPhone ? "code" : current.phone ? "show" : "enter";

  return (
    <div className="space-y-4">
      {current.phone ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800" data-testid="profile-phone">
            SMS alerts go to <strong className="font-mono">{current.phone}</strong> <Badge tone="green">verified</Badge>
          </p>
          {mode === "show" && (
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
                Change number
              </Button>
              <Button variant="secondary" size="sm" onClick={() => setConfirmRemove(true)}>
                Remove
              </Button>
            </div>
          )}
        </div>
      ) : (
        <p className="text-sm text-slate-700" data-testid="profile-phone">
          No phone yet: you get no SMS alerts.
        </p>
      )}
      {mode === "enter" && (
        <StartForm
          initial={current.pendingPhone ?? ""}
          canCancel={Boolean(current.phone || current.pendingPhone)}
          onCancel={() => setEditing(false)}
          onSent={(data) => {
            save(data);
            setEditing(false);
          }}
        />
      )}
      {mode === "code" && current.pendingPhone && (
        <CodeForm
          pendingPhone={current.pendingPhone}
          onVerified={(data) => {
            save(data);
            toast.success(`Phone verified: SMS alerts go to ${data.phone}`);
          }}
          onResent={save}
          onAnotherNumber={() => setEditing(true)}
        />
      )}
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Remove your phone?"
        description={`SMS alerts and test text messages stop going to ${current.phone ?? "it"}. You can verify a phone again at any time.`}
        confirmLabel="Remove phone"
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </div>
  );
}

function StartForm({
  initial,
  canCancel,
  onCancel,
  onSent,
}: {
  initial: string;
  canCancel: boolean;
  onCancel: () => void;
  onSent: (data: ProfilePhone) => void;
}) {
  const trpc = useTRPC();
  const start = useMutation(trpc.profile.startPhone.mutationOptions());
  const [phone, setPhone] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (!phone.trim()) return setError("Enter your phone number");
    setError(undefined);
    try {
      const data = await start.mutateAsync({ phone });
      onSent(data);
      toast.success(`Code sent to ${data.pendingPhone}`);
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((f) => f.path === "phone");
      if (field) setError(field.message);
      else setFormError(info.message);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Add a phone">
      <FormError message={formError} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="sm:w-72">
          <Field
            id="profile-phone-input"
            label="Mobile number"
            hint="International, like +2348031234567, or local to your business's country. We text it a code."
            error={error}
          >
            <Input
              id="profile-phone-input"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              value={phone}
              aria-invalid={!!error}
              aria-describedby={error ? "profile-phone-input-error" : undefined}
              onChange={(e) => {
                setPhone(e.target.value);
                setError(undefined);
              }}
            />
          </Field>
        </div>
        <div className="flex gap-2 sm:mt-[1.625rem]">
          <Button type="submit" loading={start.isPending}>
            Send code
          </Button>
          {canCancel && (
            <Button type="button" variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </div>
      </div>
    </form>
  );
}

function CodeForm({
  pendingPhone,
  onVerified,
  onResent,
  onAnotherNumber,
}: {
  pendingPhone: string;
  onVerified: (data: ProfilePhone) => void;
  onResent: (data: ProfilePhone) => void;
  onAnotherNumber: () => void;
}) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.profile.verifyPhone.mutationOptions());
  const resend = useMutation(trpc.profile.startPhone.mutationOptions());
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (!/^\d{6}$/.test(code.trim())) return setError("Enter the 6-digit code from the text message");
    setError(undefined);
    try {
      onVerified(await verify.mutateAsync({ code: code.trim() }));
    } catch (err) {
      const info = errorInfo(err);
      const field = info.fieldErrors.find((f) => f.path === "code");
      if (field) setError(field.message);
      else setFormError(info.message);
    }
  };

  const again = async () => {
    setFormError(null);
    setError(undefined);
    try {
      onResent(await resend.mutateAsync({ phone: pendingPhone }));
      setCode("");
      toast.success(`A new code is on its way to ${pendingPhone}`);
    } catch (err) {
      setFormError(errorInfo(err).message);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="Verify your phone">
      <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        We texted a 6-digit code to <strong className="font-mono">{pendingPhone}</strong>. It works for 10 minutes.
      </p>
      <FormError message={formError} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="sm:w-48">
          <Field id="profile-phone-code" label="Code from the text message" error={error}>
            <Input
              id="profile-phone-code"
              autoFocus
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="123456"
              value={code}
              aria-invalid={!!error}
              aria-describedby={error ? "profile-phone-code-error" : undefined}
              onChange={(e) => {
                setCode(e.target.value.replace(/\D/g, ""));
                setError(undefined);
              }}
            />
          </Field>
        </div>
        <div className="sm:mt-[1.625rem]">
          <Button type="submit" loading={verify.isPending}>
            Verify
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <button
          type="button"
          onClick={again}
          disabled={resend.isPending}
          className="font-medium text-brand-700 underline underline-offset-2 disabled:opacity-60"
        >
          Send a new code
        </button>
        <button type="button" onClick={onAnotherNumber} className="font-medium text-slate-700 underline underline-offset-2">
          Use another number
        </button>
      </div>
    </form>
  );
}
