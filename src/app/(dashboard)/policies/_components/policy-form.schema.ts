// The policy form's schema — the same rules as the API's CreatePolicyInput, in
// the form's own shape — loaded with zod when the form first validates (lazyResolver).
import { zodResolver } from "@hookform/resolvers/zod";
import { M, z } from "@/lib/messages";
import { parseDecimal } from "@/lib/money-format";
import { PolicyDuration, PolicyType } from "@/lib/schemas/policies";

export const FormSchema = z.object({
  name: z.string().trim().min(1).max(120),
  type: PolicyType,
  duration: PolicyDuration,
  price: z
    .string()
    .trim()
    .refine((v) => (parseDecimal(v) ?? 0n) > 0n, M.amount),
  description: z.string().max(5000),
  coverage: z.string().max(5000),
  benefits: z.array(z.string()).max(50),
  exclusions: z.array(z.string()).max(50),
});
export type PolicyFormValues = z.infer<typeof FormSchema>;

export const resolver = zodResolver(FormSchema);
