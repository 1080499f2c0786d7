// The policy form's fields and how they become the API's input — without zod,
// so the form imports it with the page. The rules are the API's own:
// policy-form.schema.ts runs CreatePolicyInput over what toCreatePolicyInput makes.
import type { POLICY_DURATIONS, POLICY_TYPES } from "@/lib/enums";
import type { CreatePolicyInput, Policy, UpdatePolicyInput } from "@/lib/schemas/policies";
import type { z } from "@/lib/messages";

/** What the fields hold: text inputs are strings ("" when empty), the price a decimal string as typed. */
export interface PolicyFormValues {
  name: string;
  type: (typeof POLICY_TYPES)[number];
  duration: (typeof POLICY_DURATIONS)[number];
  price: string;
  description: string;
  coverage: string;
  benefits: string[];
  exclusions: string[];
}

export type CreatePolicyFields = z.input<typeof CreatePolicyInput>;
export type UpdatePolicyFields = z.input<typeof UpdatePolicyInput>;

/** The fields for a new policy, or to edit `policy` (its price is already a decimal string, "150.00"). */
export const policyFormValues = (policy?: Policy): PolicyFormValues => ({
  name: policy?.name ?? "",
  type: policy?.type ?? "auto",
  duration: policy?.duration ?? "yearly",
  price: policy?.price ?? "",
  description: policy?.description ?? "",
  coverage: policy?.coverage ?? "",
  benefits: policy?.benefits ?? [],
  exclusions: policy?.exclusions ?? [],
});

const blank = (text: string) => text.trim() === "";

/** The create input: an empty description or coverage is left out (the API keeps none). */
export const toCreatePolicyInput = (v: PolicyFormValues): CreatePolicyFields => ({
  name: v.name,
  type: v.type,
  duration: v.duration,
  price: v.price,
  ...(blank(v.description) ? {} : { description: v.description }),
  ...(blank(v.coverage) ? {} : { coverage: v.coverage }),
  benefits: v.benefits,
  exclusions: v.exclusions,
});

/** The update input: every field is sent, an empty description or coverage as null (clears it). */
export const toUpdatePolicyInput = (v: PolicyFormValues): UpdatePolicyFields => ({
  ...toCreatePolicyInput(v),
  description: blank(v.description) ? null : v.description,
  coverage: blank(v.coverage) ? null : v.coverage,
});

/** What a submitted form gives its page: the input to create a policy, or to update one. */
export interface PolicyInputs {
  create: CreatePolicyFields;
  update: UpdatePolicyFields;
}
export const policyInputs = (v: PolicyFormValues): PolicyInputs => ({ create: toCreatePolicyInput(v), update: toUpdatePolicyInput(v) });
