"use client";

// The settings form itself (react-hook-form), loaded alongside the settings by SettingsForm (./settings-form).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/lib/toast";
import { lazyResolver } from "@/lib/lazy-resolver";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import type { AppRouter } from "@/server/trpc/root";
import type { inferRouterOutputs } from "@trpc/server";
import { errorInfo, useTRPC } from "@/trpc/react";
import { settingsFormValues, type SettingsFormValues } from "./settings-form.values";

// The schema (and zod) load when the form is first used.
const resolver = lazyResolver(() => import("./settings-form.schema").then((m) => m.resolver));

type Settings = inferRouterOutputs<AppRouter>["settings"]["get"];

export function SettingsFields({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.settings.update.mutationOptions());
  const form = useForm<SettingsFormValues>({ resolver, defaultValues: settingsFormValues(settings) });
  const { errors, isSubmitting, isDirty } = form.formState;

  // Saved (or changed elsewhere): the form starts again from what the server holds.
  useEffect(() => {
    form.reset(settingsFormValues(settings));
  }, [settings, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast.success("Settings saved");
      await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
    } catch (err) {
      const info = errorInfo(err);
      const rate = info.fieldErrors.find((e) => e.path.endsWith("rateLimit"));
      if (rate) form.setError("api.rateLimit", { message: rate.message });
      else toast.error(info.message);
    }
  });

  return (
    <form onSubmit={submit} onFocus={resolver.preload} noValidate className="space-y-5">
      <fieldset disabled={!canEdit} className="space-y-5">
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-700">Notifications</legend>
          <label className="flex items-start gap-3 text-sm">
            <input type="checkbox" className="mt-0.5 h-4 w-4 accent-brand-600" {...form.register("notifications.email")} />
            <span>Email the owners and admins about payments, claims, withdrawals, verification and webhooks</span>
          </label>
          <label className="flex items-start gap-3 text-sm">
            <input type="checkbox" className="mt-0.5 h-4 w-4 accent-brand-600" {...form.register("notifications.sms")} />
            <span>
              Send SMS alerts: to owners and admins with a verified phone, and to policyholders who gave a phone (each SMS
              is billed by the SMS provider)
            </span>
          </label>
          <label className="flex items-start gap-3 text-sm">
            <input type="checkbox" className="mt-0.5 h-4 w-4 accent-brand-600" {...form.register("notifications.digest")} />
            <span>Daily digest: past 20 payments in a day, the rest come in one message the next morning</span>
          </label>
          <p className="text-sm text-slate-500">
            Your phone, the words policyholders receive and samples are in{" "}
            <Link href="/settings/notifications" className="font-medium text-brand-700 underline">
              Notifications
            </Link>
            .
          </p>
        </fieldset>
        <Field
          id="rate-limit"
          label="API rate limit"
          hint="Requests per minute for your organization, over all its keys (1–100000)."
          error={errors.api?.rateLimit?.message}
        >
          <Input
            id="rate-limit"
            type="number"
            inputMode="numeric"
            min={1}
            max={100000}
            className="w-40"
            aria-invalid={!!errors.api?.rateLimit}
            {...form.register("api.rateLimit", { valueAsNumber: true })}
          />
        </Field>
      </fieldset>
      {canEdit && (
        <div className="flex justify-end">
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            Save settings
          </Button>
        </div>
      )}
    </form>
  );
}
