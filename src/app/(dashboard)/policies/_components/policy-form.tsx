"use client";

import { useState } from "react";
import { Controller, useForm, type FieldError, type Merge } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input, Textarea, FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { POLICY_DURATIONS, POLICY_TYPES } from "@/lib/enums";
import { lazyResolver } from "@/lib/lazy-resolver";
import type { Policy } from "@/lib/schemas/policies";
import type { ErrorInfo } from "@/trpc/react";
import { DURATION_LABELS, TYPE_LABELS } from "@/lib/policy-labels";
import { ListEditor } from "./list-editor";
import type { PolicyFormContext } from "./policy-form.schema";
import { policyFormValues, policyInputs, type PolicyFormValues, type PolicyInputs } from "./policy-form.values";

export type { PolicyFormValues, PolicyInputs };

// The schema (and zod) load when the form is first used.
const resolver = lazyResolver(() => import("./policy-form.schema").then((m) => m.resolver));
/** The form's fields: a field error from the API on one of them is shown under it. */
const FIELDS: Record<keyof PolicyFormValues, true> = {
  name: true,
  type: true,
  duration: true,
  price: true,
  description: true,
  coverage: true,
  benefits: true,
  exclusions: true,
};

/** A list's error: the list's own ("Give at most 50 items") or its first item's ("Use at most 500 characters"). */
const listError = (e: Merge<FieldError, (FieldError | undefined)[]> | undefined) =>
  e?.message ?? (Array.isArray(e) ? e.find((item) => item?.message)?.message : undefined);

export function PolicyForm({
  policy,
  currency,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  policy?: Policy;
  currency: string;
  submitLabel: string;
  /** Gets the API's input made from the fields (the mapping stays with the form, loaded with it). */
  onSubmit: (input: PolicyInputs) => Promise<ErrorInfo | void>;
  onCancel: () => void;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PolicyFormValues, PolicyFormContext>({
    resolver,
    context: { currency },
    defaultValues: policyFormValues(policy),
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const failure = await onSubmit(policyInputs(values));
    if (!failure) return;
    let mapped = false;
    for (const e of failure.fieldErrors) {
      const field = e.path.replace(/^data\./, "").split(".")[0] as keyof PolicyFormValues;
      if (field in FIELDS) {
        form.setError(field, { message: e.message });
        mapped = true;
      }
    }
    if (!mapped) setFormError(failure.message);
  });

  return (
    <form onSubmit={submit} onFocus={resolver.preload} noValidate>
      <Card className="space-y-5 p-6">
        <FormError message={formError} />
        <Field id="policy-name" label="Name" error={errors.name?.message}>
          <Input id="policy-name" aria-invalid={!!errors.name} {...form.register("name")} />
        </Field>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="policy-type" label="Type" error={errors.type?.message}>
            <NativeSelect id="policy-type" {...form.register("type")}>
              {POLICY_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="policy-duration" label="Duration" error={errors.duration?.message}>
            <NativeSelect id="policy-duration" {...form.register("duration")}>
              {POLICY_DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {DURATION_LABELS[d]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="policy-price" label={`Price (${currency})`} error={errors.price?.message}>
            <div className="flex">
              <span className="inline-flex items-center rounded-l-md border border-r-0 border-slate-300 bg-slate-50 px-3 text-sm text-slate-600">
                {currency}
              </span>
              <Input
                id="policy-price"
                inputMode="decimal"
                placeholder="150.00"
                className="rounded-l-none"
                aria-invalid={!!errors.price}
                {...form.register("price")}
              />
            </div>
          </Field>
        </div>
        <Field id="policy-description" label="Description" error={errors.description?.message}>
          <Textarea id="policy-description" rows={3} {...form.register("description")} />
        </Field>
        <Field id="policy-coverage" label="What is covered" error={errors.coverage?.message}>
          <Textarea id="policy-coverage" rows={3} {...form.register("coverage")} />
        </Field>
        <div className="grid gap-6 sm:grid-cols-2">
          <Controller
            control={form.control}
            name="benefits"
            render={({ field }) => (
              <ListEditor
                id="policy-benefits"
                label="Benefits"
                placeholder="e.g. 24/7 roadside assistance"
                value={field.value}
                onChange={field.onChange}
                error={listError(errors.benefits)}
              />
            )}
          />
          <Controller
            control={form.control}
            name="exclusions"
            render={({ field }) => (
              <ListEditor
                id="policy-exclusions"
                label="Exclusions"
                placeholder="e.g. Racing"
                value={field.value}
                onChange={field.onChange}
                error={listError(errors.exclusions)}
              />
            )}
          />
        </div>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-5 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </div>
      </Card>
    </form>
  );
}
