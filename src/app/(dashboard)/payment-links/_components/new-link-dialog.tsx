"use client";

// "New link" (./payment-links-view loads it when first opened, with the API's
// schema and zod): the policy, a label, whether to ask for a phone number and
// where to send the customer after paying.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { PolicyOnSaleSelect } from "@/components/policy-on-sale-select";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input } from "@/components/ui/field";
import { CreatePaymentLinkInput, type PaymentLink } from "@/lib/schemas/payment-links";
import { toast } from "@/lib/toast";
import { errorInfo, useTRPC } from "@/trpc/react";

export function NewLinkDialog({
  open,
  onOpenChange,
  policyId,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  policyId: string;
  onCreated: (link: PaymentLink) => void;
}) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState({ policyId, name: "", collectPhone: false, redirectUrl: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutation(
    trpc.paymentLinks.create.mutationOptions({
      onSuccess: (l) => {
        toast.success("Link created: share it, or download its QR code");
        onCreated(l);
      },
      onError: (err) => {
        const info = errorInfo(err);
        setErrors(Object.fromEntries(info.fieldErrors.map((f) => [f.path, f.message])));
        setFormError(info.fieldErrors.length ? null : info.message);
      },
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          setDraft({ policyId, name: "", collectPhone: false, redirectUrl: "" });
          setErrors({});
          setFormError(null);
        }
        onOpenChange(next);
      }}
      title="New payment link"
      description="A page to buy one policy. Make one per campaign or agent to see which sells."
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = CreatePaymentLinkInput.safeParse({
            policyId: draft.policyId,
            name: draft.name.trim() || undefined,
            collectPhone: draft.collectPhone,
            redirectUrl: draft.redirectUrl.trim() || undefined,
          });
          const found: Record<string, string> = {};
          for (const issue of parsed.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
          setErrors(found);
          setFormError(null);
          if (parsed.success) create.mutate(parsed.data);
        }}
      >
        <PolicyOnSaleSelect
          id="link-policy"
          value={draft.policyId}
          onChange={(policyId) => setDraft({ ...draft, policyId })}
          error={errors.policyId}
          enabled={open}
        />
        <Field
          id="link-name"
          label="Label (optional)"
          error={errors.name}
          hint="For you only, e.g. “Instagram, November” or an agent's name"
        >
          <Input id="link-name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </Field>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4 rounded border-slate-300"
            checked={draft.collectPhone}
            onChange={(e) => setDraft({ ...draft, collectPhone: e.target.checked })}
          />
          <span>Ask for the customer&apos;s phone number</span>
        </label>
        <Field
          id="link-redirect"
          label="After paying, send the customer to (optional)"
          error={errors.redirectUrl}
          hint="Your own thank-you page, https://…; by default the checkout shows its receipt"
        >
          <Input
            id="link-redirect"
            inputMode="url"
            value={draft.redirectUrl}
            aria-invalid={!!errors.redirectUrl}
            aria-describedby={errors.redirectUrl ? "link-redirect-error" : undefined}
            onChange={(e) => setDraft({ ...draft, redirectUrl: e.target.value })}
          />
        </Field>
        <FormError message={formError} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create link
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
