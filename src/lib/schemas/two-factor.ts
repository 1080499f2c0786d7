import { z } from "@/lib/messages";

/** The organization's two-factor requirement, as its team page shows it. */
export const TwoFactorRequirement = z.object({
  required: z.boolean(),
  /** Members of the organization without two-factor sign-in (they are sent to set it up while it is required). */
  membersWithout: z.number().int(),
  members: z.number().int(),
  /** The signed-in user has two-factor on (an owner turns the requirement on only then). */
  youHaveIt: z.boolean(),
  /** Only the owner changes it. */
  canChange: z.boolean(),
});
export type TwoFactorRequirement = z.infer<typeof TwoFactorRequirement>;

export const SetTwoFactorRequirementInput = z.strictObject({ required: z.boolean() });

/** Confirming who you are again: the password, or a code from the authenticator app (or a backup code). */
export const ReauthenticateInput = z.union([
  z.strictObject({ password: z.string().min(1, "Enter your password").max(128) }),
  z.strictObject({
    code: z
      .string()
      .trim()
      .regex(/^(\d{6}|[A-Za-z0-9]{5}-[A-Za-z0-9]{5})$/, "Enter the 6-digit code from your app, or a backup code"),
  }),
]);
export type ReauthenticateInput = z.infer<typeof ReauthenticateInput>;

export const Reauthenticated = z.object({ validUntil: z.date() });
