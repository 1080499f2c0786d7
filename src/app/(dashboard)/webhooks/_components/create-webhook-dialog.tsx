"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import { SecretReveal } from "@/components/secret-reveal";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, FormError } from "@/components/ui/field";
import { EVENT_TYPES } from "@/lib/enums";
import { CreateWebhookInput, type Webhook, type WebhookWithSecret } from "@/lib/schemas/webhooks";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

type Values = z.input<typeof CreateWebhookInput>;

export function CreateWebhookDialog({
  open,
  onOpenChange,
  onCreated,
  editing,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: () => void;
  /** An endpoint to change (its address and events) instead of a new one. */
  editing?: Webhook | null;
}) {
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const close = (next: boolean) => {
    if (!next) setCreated(null);
    onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={created ? "Copy your signing secret" : editing ? "Edit webhook endpoint" : "Add a webhook endpoint"}
      description={
        created
          ? "This is the only time it is shown. Use it to verify our signatures."
          : editing
            ? "Its signing secret stays the same."
            : "We POST each subscribed event to this URL."
      }
    >
      {created ? (
        <div className="space-y-4">
          <SecretReveal secret={created.secret} testId="webhook-secret" copyLabel="Copy secret" onDone={() => close(false)} />
        </div>
      ) : (
        open && (
          <WebhookForm
            editing={editing ?? null}
            onCancel={() => close(false)}
            onCreated={(w) => {
              if (w) setCreated(w);
              else close(false);
              onCreated();
            }}
          />
        )
      )}
    </Dialog>
  );
}

function WebhookForm({
  editing,
  onCancel,
  onCreated,
}: {
  editing: Webhook | null;
  onCancel: () => void;
  /** The new endpoint with its secret; null after an edit. */
  onCreated: (w: WebhookWithSecret | null) => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.webhooks.create.mutationOptions());
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(CreateWebhookInput),
    defaultValues: editing
      ? { url: editing.url, events: editing.events as Values["events"] }
      : { url: "", events: [...EVENT_TYPES] },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      if (editing) {
        await update.mutateAsync({ id: editing.id, data: { url: values.url, events: values.events } });
        toast.success("Endpoint updated");
        onCreated(null);
      } else onCreated(await create.mutateAsync(values));
    } catch (err) {
      const info = errorInfo(err);
      const url = info.fieldErrors.find((e) => e.path === "url");
      if (url) form.setError("url", { message: url.message });
      else setFormError(info.message);
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="webhook-url" label="Endpoint URL" error={errors.url?.message}>
        <Input
          id="webhook-url"
          type="url"
          placeholder="https://example.com/coverdesk/webhooks"
          autoFocus
          aria-invalid={!!errors.url}
          {...form.register("url")}
        />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        <Controller
          control={form.control}
          name="events"
          render={({ field }) => (
            <div className="grid gap-2 sm:grid-cols-2">
              {EVENT_TYPES.map((e) => {
                const checked = field.value.includes(e);
                return (
                  <label
                    key={e}
                    className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50"
                  >
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-brand-600"
                      checked={checked}
                      onChange={() => field.onChange(checked ? field.value.filter((v) => v !== e) : [...field.value, e])}
                    />
                    <span className="font-mono text-xs">{e}</span>
                  </label>
                );
              })}
            </div>
          )}
        />
        {errors.events && (
          <p role="alert" className="text-xs text-red-600">
            {errors.events.message ?? errors.events.root?.message}
          </p>
        )}
      </fieldset>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {editing ? "Save changes" : "Add endpoint"}
        </Button>
      </div>
    </form>
  );
}
