// The portal forms' schemas, loaded with zod when a form first validates
// (lazyResolver): the portal's pages themselves carry no zod.
import { zodResolver } from "@hookform/resolvers/zod";
import { ClaimDetailsValues } from "@/lib/claim-values";
import { M, z } from "@/lib/messages";

const Email = z.object({ email: z.string().trim().min(1, M.requiredWhat("your email address")).pipe(z.email(M.email)) });
export const email = zodResolver(Email);

const Code = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from the email"),
});
export const code = zodResolver(Code);
/** The code asked for by text message: it may have come by email (no phone on file). */
export const codeSent = zodResolver(
  z.object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "Enter the 6-digit code we sent you"),
  }),
);

export const claim = zodResolver(ClaimDetailsValues);
