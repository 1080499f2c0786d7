import { z, M } from "@/lib/messages";
import { CLAIM_TYPES } from "@/lib/enums";
import { AmountNumber } from "@/lib/money";
import { claimFileShape, CreateClaimInput } from "@/lib/schemas/claims";

export const PortalEmailInput = z.strictObject({
  email: z
    .email(M.email)
    .max(254)
    .transform((e) => e.trim().toLowerCase()),
});
export type PortalEmailInput = z.output<typeof PortalEmailInput>;

/** Asking for a sign-in code: by email, or by SMS to the phone on file (by email when none is). */
export const PortalCodeInput = PortalEmailInput.extend({
  via: z.enum(["email", "sms"], "Choose email or sms").optional(),
});

export const PortalSignInInput = PortalEmailInput.extend({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from the email"),
});
export type PortalSignInInput = z.output<typeof PortalSignInInput>;

/** A claim filed by the policyholder on one of their coverages (files travel beside it, in the multipart body). */
export const PortalClaimInput = z.strictObject({
  coverageId: z.string().min(1).max(100),
  type: z.enum(CLAIM_TYPES),
  description: CreateClaimInput.shape.description,
  amount: z.coerce.number().pipe(AmountNumber),
});
export type PortalClaimInput = z.output<typeof PortalClaimInput>;

/** The portal's claim form as sent (multipart): the claim's fields and its evidence as `file1`…`file5`. */
export const PortalClaimForm = PortalClaimInput.extend(claimFileShape);
export type PortalClaimForm = z.output<typeof PortalClaimForm>;
