"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { CURRENCIES, currencyLabel } from "@/lib/currencies";
import { lazyResolver } from "@/lib/lazy-resolver";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea, FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import type { ErrorInfo } from "@/trpc/react";
import type { OrganizationFormValues } from "./organization-form.schema";

export type { OrganizationFormValues };

// The schema (and zod) load when the form is first used.
const resolver = lazyResolver(() => import("./organization-form.schema").then((m) => m.resolver));
/** The form's fields: a field error from the API on one of them is shown under it. */
const FIELDS: Record<keyof OrganizationFormValues, true> = { name: true, email: true, phone: true, address: true, currency: true };

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
  requireChange = false,
  currencyLocked,
}: {
  defaultValues?: Partial<OrganizationFormValues>;
  submitLabel: string;
  onSubmit: (values: OrganizationPayload) => Promise<ErrorInfo | void>;
  disabled?: boolean;
  /** Editing an existing profile: saving is offered once something changed. A new one can be created at once. */
  requireChange?: boolean;
  /** Why the currency can no longer change (money has moved in it), shown under the field. */
  currencyLocked?: string;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<OrganizationFormValues>({
    resolver,
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
      if (e.path in FIELDS) form.setError(e.path as keyof OrganizationFormValues, { message: e.message });
    }
    if (!failure.fieldErrors.length) setFormError(failure.message);
  });

  return (
    <form onSubmit={submit} onFocus={resolver.preload} noValidate className="space-y-4">
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
      <Field
        id="org-currency"
        label="Currency"
        hint={currencyLocked ?? "Prices, payments, the balance and payouts are in this currency."}
        error={errors.currency?.message}
      >
        <NativeSelect
          id="org-currency"
          className="sm:w-80"
          disabled={disabled || !!currencyLocked}
          aria-invalid={!!errors.currency}
          {...form.register("currency")}
        >
          {CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {currencyLabel(code)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {!disabled && (
        <div className="flex justify-end">
          <Button type="submit" loading={isSubmitting} disabled={requireChange && !isDirty}>
            {submitLabel}
          </Button>
        </div>
      )}
    </form>
  );
}
