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
});
export type CardValues = z.input<typeof Card>;

export const resolver = zodResolver(Card);
