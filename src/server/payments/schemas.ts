import { z } from "zod";
import { AmountNumber } from "@/lib/money";
import { Coverage } from "@/server/coverages/schemas";
import { pageOf, PageQuery } from "@/server/pagination";

export const PAYMENT_STATUSES = ["pending", "success", "failed"] as const;

export const InitializePaymentInput = z
  .strictObject({
    amount: AmountNumber.describe("Must equal the policy's price, e.g. 150 or 150.5"),
    policyId: z.string("must be a string").min(1).max(100),
    email: z
      .email("must be an email address")
      .max(254)
      .transform((e) => e.toLowerCase())
      .describe("The paying customer's email; their coverage is keyed on it"),
    callbackUrl: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .max(2000)
      .optional()
      .describe("Where the checkout sends the customer afterwards, with ?reference="),
  })
  .meta({ id: "InitializePaymentInput" });
export type InitializePaymentInput = z.output<typeof InitializePaymentInput>;

export const Payment = z
  .object({
    reference: z.string(),
    status: z.enum(PAYMENT_STATUSES),
    amount: z.string(),
    currency: z.string(),
    policyId: z.string(),
    email: z.string(),
    authorizationUrl: z.string().describe("The hosted checkout page to send the customer to"),
    paidAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Payment" });
export type Payment = z.infer<typeof Payment>;

export const PaymentList = pageOf(Payment, "PaymentList");

export const VerifiedPayment = Payment.extend({ coverage: Coverage.nullable().optional() }).meta({ id: "VerifiedPayment" });
export type VerifiedPayment = z.infer<typeof VerifiedPayment>;

export const ListPaymentsQuery = PageQuery.extend({
  status: z.enum(PAYMENT_STATUSES, `must be one of ${PAYMENT_STATUSES.join(", ")}`).optional(),
  policyId: z.string().max(100).optional(),
});
export type ListPaymentsQuery = z.output<typeof ListPaymentsQuery>;

export const ReferenceParam = z.object({ reference: z.string().min(1).max(1000) });

const currentYear = () => new Date().getUTCFullYear();

/** What the hosted checkout posts. Card data is never stored or logged. */
export const CheckoutInput = z
  .strictObject({
    cardNumber: z
      .string("must be a string")
      .transform((v) => v.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^\d{12,19}$/, "must be 12 to 19 digits")),
    expMonth: z.coerce.number("must be a month").int().min(1, "must be 1 to 12").max(12, "must be 1 to 12"),
    expYear: z.coerce
      .number("must be a year")
      .int()
      .transform((y) => (y < 100 ? 2000 + y : y))
      // Judged per request (the server outlives a New Year), never at module load.
      .pipe(
        z
          .number()
          .refine((y) => y >= currentYear(), "the card has expired")
          .refine((y) => y <= currentYear() + 20, "is too far ahead"),
      ),
    cvc: z.string("must be a string").regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
  })
  .refine(
    (c) => {
      const now = new Date();
      return c.expYear > now.getUTCFullYear() || c.expMonth >= now.getUTCMonth() + 1;
    },
    { message: "the card has expired", path: ["expMonth"] },
  );
export type CheckoutInput = z.output<typeof CheckoutInput>;
