"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { Card, ErrorState, Skeleton } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

const FormSchema = z.object({
  email: z.boolean(),
  sms: z.boolean(),
  rateLimit: z.number("Enter a number").int("Whole numbers only").min(1, "At least 1").max(100_000, "At most 100000"),
});
type Values = z.infer<typeof FormSchema>;

export function SettingsForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useMe();
  const settings = useQuery(trpc.settings.get.queryOptions());
  const update = useMutation(trpc.settings.update.mutationOptions());
  const form = useForm<Values>({ resolver: zodResolver(FormSchema), defaultValues: { email: true, sms: false, rateLimit: 600 } });
  const { errors, isSubmitting, isDirty } = form.formState;

  useEffect(() => {
    if (settings.data) {
      form.reset({
        email: settings.data.notifications.email,
        sms: settings.data.notifications.sms,
        rateLimit: settings.data.api.rateLimit,
      });
    }
  }, [settings.data, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({ notifications: { email: values.email, sms: values.sms }, api: { rateLimit: values.rateLimit } });
      toast.success("Settings saved");
      await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
    } catch (err) {
      const info = errorInfo(err);
      const rate = info.fieldErrors.find((e) => e.path.endsWith("rateLimit"));
      if (rate) form.setError("rateLimit", { message: rate.message });
      else toast.error(info.message);
    }
  });

  return (
    <Card className="p-6">
      <h2 className="text-base font-semibold">Notifications and API</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">How we reach you, and how fast your integrations may call us.</p>
      {settings.isPending ? (
        <div className="space-y-3">
          <Skeleton className="h-6 w-1/2" />
          <Skeleton className="h-10 w-40" />
        </div>
      ) : settings.isError ? (
        <ErrorState message={errorInfo(settings.error).message} onRetry={() => settings.refetch()} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-5">
          <fieldset disabled={!can.admin} className="space-y-5">
            <fieldset className="space-y-3">
              <legend className="text-sm font-medium text-slate-700">Notifications</legend>
              <label className="flex items-center gap-3 text-sm">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" {...form.register("email")} /> Email me about
                payments, claims and payouts
              </label>
              <label className="flex items-center gap-3 text-sm">
                <input type="checkbox" className="h-4 w-4 accent-brand-600" {...form.register("sms")} /> Send SMS alerts
              </label>
            </fieldset>
            <Field
              id="rate-limit"
              label="API rate limit"
              hint="Requests per minute for your organization, over all its keys (1–100000)."
              error={errors.rateLimit?.message}
            >
              <Input
                id="rate-limit"
                type="number"
                inputMode="numeric"
                min={1}
                max={100000}
                className="w-40"
                aria-invalid={!!errors.rateLimit}
                {...form.register("rateLimit", { valueAsNumber: true })}
              />
            </Field>
          </fieldset>
          {can.admin && (
            <div className="flex justify-end">
              <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
                Save settings
              </Button>
            </div>
          )}
        </form>
      )}
    </Card>
  );
}
