"use client";

// Staff file a claim for a customer: the same service as POST /api/v1/claims,
// so the claim links to the customer's coverage of the policy when there is one
// and its `claim.submitted` event and email go out as for any other claim.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormError, Input, Textarea } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { M, z } from "@/lib/messages";
import { parseDecimal } from "@/lib/money-format";
import { CLAIM_TYPES } from "@/lib/enums";
import { errorInfo, useTRPC } from "@/trpc/react";

const Values = z.object({
  policyId: z.string().min(1, "Choose the policy the claim is on"),
  email: z.string().trim().min(1, M.requiredWhat("the customer's email")).pipe(z.email(M.email)),
  type: z.enum(CLAIM_TYPES),
  amount: z
    .string()
    .trim()
    .refine((v) => (parseDecimal(v) ?? 0n) > 0n, M.amount),
  description: z.string().trim().min(1, M.requiredWhat("what happened")).max(2000),
});
type Values = z.infer<typeof Values>;

/** The "File a claim" dialog, loaded when first opened by FileClaimButton (./file-claim-button). */
export function FileClaimDialog({
  open,
  onOpenChange,
  customerEmail,
  policies,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  customerEmail?: string;
  policies?: { id: string; name: string }[];
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="File a claim"
      description="For a customer who reported a loss to you. It is reviewed like any other claim."
    >
      {open && <FileClaimForm customerEmail={customerEmail} policies={policies} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function FileClaimForm({
  customerEmail,
  policies: given,
  onDone,
}: {
  customerEmail?: string;
  policies?: { id: string; name: string }[];
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const all = useQuery({ ...trpc.policies.list.queryOptions({ limit: 100 }), enabled: !given });
  const policies = given ?? (all.data?.data ?? []).map((p) => ({ id: p.id, name: p.name }));
  const submit = useMutation(trpc.claims.submit.mutationOptions());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(Values),
    defaultValues: { policyId: given?.length === 1 ? given[0]!.id : "", email: customerEmail ?? "", type: "other", amount: "", description: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      const claim = await submit.mutateAsync({
        policyId: v.policyId,
        email: v.email,
        type: v.type,
        amount: Number(v.amount),
        description: v.description,
      });
      toast.success("Claim filed");
      await queryClient.invalidateQueries({ queryKey: trpc.claims.pathKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.customers.pathKey() });
      onDone();
      router.push(`/claims/${claim.id}`);
    } catch (err) {
      const info = errorInfo(err);
      let placed = false;
      for (const e of info.fieldErrors) {
        if (e.path in Values.shape) {
          form.setError(e.path as keyof Values, { message: e.message });
          placed = true;
        }
      }
      if (!placed) setFormError(info.message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      <Field id="claim-policy" label="Policy" error={errors.policyId?.message}>
        <NativeSelect id="claim-policy" aria-invalid={!!errors.policyId} {...form.register("policyId")}>
          <option value="">{all.isPending && !given ? "Loading policies…" : "Choose a policy"}</option>
          {policies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field
        id="claim-email"
        label="Customer email"
        hint="Links the claim to the customer's coverage of this policy."
        error={errors.email?.message}
      >
        <Input
          id="claim-email"
          type="email"
          readOnly={!!customerEmail}
          aria-invalid={!!errors.email}
          {...form.register("email")}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="claim-type" label="Type" error={errors.type?.message}>
          <NativeSelect id="claim-type" aria-invalid={!!errors.type} {...form.register("type")}>
            {CLAIM_TYPES.map((t) => (
              <option key={t} value={t}>
                {t[0]!.toUpperCase() + t.slice(1)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="claim-amount" label="Amount claimed" error={errors.amount?.message}>
          <Input id="claim-amount" inputMode="decimal" placeholder="0.00" aria-invalid={!!errors.amount} {...form.register("amount")} />
        </Field>
      </div>
      <Field id="claim-description" label="What happened" error={errors.description?.message}>
        <Textarea id="claim-description" rows={4} maxLength={2000} aria-invalid={!!errors.description} {...form.register("description")} />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          File claim
        </Button>
      </div>
    </form>
  );
}
