// The sandbox card form's schema, loaded with zod when the form first validates (lazyResolver).
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "@/lib/messages";

export const Card = z.object({
  name: z.string().trim().max(120),
  cardNumber: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "Enter the card number: 12 to 19 digits")),
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, "Enter the expiry date as MM/YY"),
  cvc: z.string().regex(/^\d{3,4}$/, "Enter the 3 or 4 digits of the security code"),
  autoRenew: z.boolean(),
  /** Optional (shown only when the customer gave none yet): judged by the server, which reads it in the business's country. */
  phone: z.string().trim().max(40, "Enter a phone number of at most 40 characters"),
});
export type CardValues = z.input<typeof Card>;

export const resolver = zodResolver(Card);
