"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea, FormError } from "@/components/ui/field";
import { Currency, E164 } from "@/server/organizations/schemas";
import type { ErrorInfo } from "@/trpc/react";

// The API's own rules; empty optional fields mean "none".
const FormSchema = z.object({
  name: z.string().trim().min(1, "Enter the business name").max(120, "At most 120 characters"),
  email: z.email("Enter a valid email address"),
  phone: z.union([z.literal(""), E164]),
  address: z.string().trim().max(500, "At most 500 characters"),
  currency: Currency,
});
export type OrganizationFormValues = z.infer<typeof FormSchema>;

export interface OrganizationPayload {
  name: string;
  email: string;
  phone?: string;
  address?: string;
  currency: string;
}

export function OrganizationForm({
  defaultValues,
  submitLabel,
  onSubmit,
  disabled,
}: {
  defaultValues?: Partial<OrganizationFormValues>;
  submitLabel: string;
  onSubmit: (values: OrganizationPayload) => Promise<ErrorInfo | void>;
  disabled?: boolean;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<OrganizationFormValues>({
    resolver: zodResolver(FormSchema),
    defaultValues: { name: "", email: "", phone: "", address: "", currency: "NGN", ...defaultValues },
  });
  const { errors, isSubmitting, isDirty } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const failure = await onSubmit({
      name: values.name,
      email: values.email,
      phone: values.phone || undefined,
      address: values.address || undefined,
      currency: values.currency,
    });
    if (!failure) return form.reset(values);
    for (const e of failure.fieldErrors) {
      if (e.path in FormSchema.shape) form.setError(e.path as keyof OrganizationFormValues, { message: e.message });
    }
    if (!failure.fieldErrors.length) setFormError(failure.message);
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="org-name" label="Business name" error={errors.name?.message}>
        <Input id="org-name" disabled={disabled} aria-invalid={!!errors.name} {...form.register("name")} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="org-email" label="Contact email" error={errors.email?.message}>
          <Input id="org-email" type="email" disabled={disabled} aria-invalid={!!errors.email} {...form.register("email")} />
        </Field>
        <Field id="org-phone" label="Phone" hint="International format, e.g. +2348012345678" error={errors.phone?.message}>
          <Input
            id="org-phone"
            type="tel"
            placeholder="+234…"
            disabled={disabled}
            aria-invalid={!!errors.phone}
            {...form.register("phone")}
          />
        </Field>
      </div>
      <Field id="org-address" label="Address" error={errors.address?.message}>
        <Textarea id="org-address" rows={2} disabled={disabled} aria-invalid={!!errors.address} {...form.register("address")} />
      </Field>
      <Field id="org-currency" label="Currency" hint="ISO 4217 code used for prices and payouts" error={errors.currency?.message}>
        <Input
          id="org-currency"
          maxLength={3}
          className="w-28 uppercase"
          disabled={disabled}
          aria-invalid={!!errors.currency}
          {...form.register("currency", { setValueAs: (v: string) => v.toUpperCase() })}
        />
      </Field>
      {!disabled && (
        <div className="flex justify-end">
          <Button type="submit" loading={isSubmitting} disabled={defaultValues && !isDirty}>
            {submitLabel}
          </Button>
        </div>
      )}
    </form>
  );
}
