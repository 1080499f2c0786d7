// What a person filing a claim types — the kind of loss, the amount (a
// decimal string in the form) and what happened — checked alike by the
// dashboard's "File a claim" dialog and the policyholder portal's form.
import { CLAIM_TYPES } from "@/lib/enums";
import { M, z } from "@/lib/messages";
import { parseGiven } from "@/lib/money-format";

export const ClaimDetailsValues = z.object({
  type: z.enum(CLAIM_TYPES),
  amount: z
    .string()
    .trim()
    .refine((v) => (parseGiven(v)?.tenThousandths ?? 0n) > 0n, M.amount),
  description: z.string().trim().min(1, M.requiredWhat("what happened")).max(2000),
});
