// The portal forms' schemas, loaded with zod when a form first validates
// (lazyResolver): the portal's pages themselves carry no zod.
import { zodResolver } from "@hookform/resolvers/zod";
import { CLAIM_TYPES } from "@/lib/enums";
import { M, z } from "@/lib/messages";
import { parseDecimal } from "@/lib/money-format";

const Email = z.object({ email: z.string().trim().min(1, M.requiredWhat("your email address")).pipe(z.email(M.email)) });
export const email = zodResolver(Email);

const Code = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from the email"),
});
export const code = zodResolver(Code);

const Claim = z.object({
  type: z.enum(CLAIM_TYPES),
  amount: z
    .string()
    .trim()
    .refine((v) => (parseDecimal(v) ?? 0n) > 0n, M.amount),
  description: z.string().trim().min(1, M.requiredWhat("what happened")).max(2000),
});
export const claim = zodResolver(Claim);
