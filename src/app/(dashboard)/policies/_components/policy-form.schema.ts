// The policy form's schema is the API's CreatePolicyInput itself, run over the
// input the fields make (toCreatePolicyInput): same limits, enums, messages and
// refinements, issues at the same paths. Loaded with zod when the form first
// validates (lazyResolver); the form keeps its own values (`raw`), the page sends
// toCreatePolicyInput / toUpdatePolicyInput of them.
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "@/lib/messages";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { toCreatePolicyInput, type PolicyFormValues } from "./policy-form.values";

export const FormSchema = z.custom<PolicyFormValues>().transform(toCreatePolicyInput).pipe(CreatePolicyInput);

export const resolver = zodResolver(FormSchema, undefined, { raw: true });
