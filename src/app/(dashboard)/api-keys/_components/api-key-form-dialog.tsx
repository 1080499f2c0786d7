"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, FormError } from "@/components/ui/field";
import { CreateApiKeyInput, type ApiKey, type ApiKeyWithSecret } from "@/lib/schemas/api-keys";
import { errorInfo, useTRPC } from "@/trpc/react";
import { useMe } from "../../_components/me";

type Values = z.input<typeof CreateApiKeyInput>;

const MODES = [
  { value: "live", label: "Live", hint: "cd_live_…: real payments and data" },
  { value: "test", label: "Test", hint: "cd_test_…: test data and sandbox money, kept apart" },
] as const;

/** One choice, not two checkboxes: a key reads, or reads and writes (write includes read). */
const ACCESS = [
  { value: "read", label: "Read only", hint: "GET requests: list and view, nothing changes", permissions: ["read"] },
  {
    value: "write",
    label: "Read and write",
    hint: "Also create, change and delete",
    permissions: ["read", "write"],
  },
] as const;

export function ApiKeyFormDialog({
  apiKey,
  open,
  onOpenChange,
  onCreated,
  onUpdated,
}: {
  apiKey: ApiKey | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (key: ApiKeyWithSecret) => void;
  onUpdated: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={apiKey ? "Edit API key" : "Create API key"}
      description={apiKey ? "Change the label or what the key may do." : "The secret is shown once, right after you create it."}
    >
      {/* Mounted per opening, so the form starts from the key being edited. */}
      {open && (
        <ApiKeyForm
          key={apiKey?.id ?? "new"}
          apiKey={apiKey}
          onCancel={() => onOpenChange(false)}
          onCreated={onCreated}
          onUpdated={onUpdated}
        />
      )}
    </Dialog>
  );
}

function ApiKeyForm({
  apiKey,
  onCancel,
  onCreated,
  onUpdated,
}: {
  apiKey: ApiKey | null;
  onCancel: () => void;
  onCreated: (key: ApiKeyWithSecret) => void;
  onUpdated: () => void;
}) {
  const trpc = useTRPC();
  const me = useMe();
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const update = useMutation(trpc.apiKeys.update.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(CreateApiKeyInput),
    defaultValues: apiKey
      ? { name: apiKey.name, permissions: apiKey.permissions }
      : { name: "", permissions: ["read", "write"], mode: me.livemode ? "live" : "test" },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      if (apiKey) {
        // A key keeps its mode: only its name and permissions change.
        await update.mutateAsync({ id: apiKey.id, data: { name: values.name, permissions: values.permissions } });
        onUpdated();
      } else {
        onCreated(await create.mutateAsync(values));
      }
    } catch (err) {
      const info = errorInfo(err);
      for (const e of info.fieldErrors) {
        const field = e.path.replace(/^data\./, "").split(".")[0];
        if (field === "name" || field === "permissions") form.setError(field, { message: e.message });
      }
      if (!info.fieldErrors.length) setFormError(info.message);
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="key-name" label="Name" hint="For example “Website checkout” or “Back office”." error={errors.name?.message}>
        <Input id="key-name" autoFocus aria-invalid={!!errors.name} {...form.register("name")} />
      </Field>
      {!apiKey && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Mode</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {MODES.map((m) => (
              <label
                key={m.value}
                className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 hover:bg-slate-50"
              >
                <input type="radio" value={m.value} className="mt-0.5 h-4 w-4 accent-brand-600" {...form.register("mode")} />
                <span>
                  <span className="block text-sm font-medium">{m.label}</span>
                  <span className="block text-xs text-slate-600">{m.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Permissions</legend>
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => {
            const current = field.value.includes("write") ? "write" : "read";
            return (
              <div className="grid gap-2 sm:grid-cols-2">
                {ACCESS.map((a) => (
                  <label
                    key={a.value}
                    className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 hover:bg-slate-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                  >
                    <input
                      type="radio"
                      name={field.name}
                      value={a.value}
                      checked={current === a.value}
                      onChange={() => field.onChange([...a.permissions])}
                      onBlur={field.onBlur}
                      aria-describedby={`key-access-${a.value}-hint`}
                      className="mt-0.5 h-4 w-4 accent-brand-600"
                    />
                    <span>
                      <span className="block text-sm font-medium">{a.label}</span>
                      <span id={`key-access-${a.value}-hint`} className="block text-xs text-slate-600">
                        {a.hint}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            );
          }}
        />
        {errors.permissions && (
          <p role="alert" className="text-xs text-red-600">
            {errors.permissions.message ?? errors.permissions.root?.message}
          </p>
        )}
      </fieldset>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {apiKey ? "Save changes" : "Create key"}
        </Button>
      </div>
    </form>
  );
}
