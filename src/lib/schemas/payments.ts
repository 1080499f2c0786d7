import { DayParam } from "@/lib/schemas/when";
import { M, z } from "@/lib/messages";
import { AmountNumber } from "@/lib/money";
import { Coverage } from "@/lib/schemas/coverages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

import { PAYMENT_STATUSES } from "@/lib/enums";
export { PAYMENT_STATUSES };

export const InitializePaymentInput = z
  .strictObject({
    amount: AmountNumber.describe("Must equal the policy's price, e.g. 150 or 150.5"),
    policyId: z.string().min(1).max(100),
    email: z
      .email(M.email)
      .max(254)
      .transform((e) => e.toLowerCase())
      .describe("The paying customer's email; their coverage is keyed on it"),
    callbackUrl: z
      .url({ protocol: /^https?$/, error: M.url })
      .max(2000)
      .optional()
      .describe("Where the checkout sends the customer afterwards, with ?reference="),
    name: z.string().trim().min(1).max(120, "Use at most 120 characters").optional().describe("The customer's name"),
    phone: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .optional()
      .describe(
        'The customer\'s phone: international (+2348031234567) or, for a business selling in naira, a local number (08031234567); stored in E.164',
      ),
    autoRenew: z
      .boolean("Choose true or false for autoRenew")
      .optional()
      .describe(
        "The customer's consent to renew automatically with the card they pay with. On the hosted checkout it is the box's initial state (default: on for monthly and quarterly policies, off for yearly) and the customer's choice there wins; for a payment made on the provider's own page it is the consent your page collected (default: off)",
      ),
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
    amountRefunded: z.string().describe('Refunded so far, pending or processed, e.g. "0.00"'),
    paymentLinkId: z.string().nullable().describe("The payment link it was started from, if any"),
    renewal: z
      .object({ periodEndsAt: z.iso.datetime(), attempt: z.number().int() })
      .nullable()
      .describe("A renewal charge of the saved card: the period it renews (the cover's end then) and its attempt (1–4); null for a checkout"),
  })
  .meta({ id: "Payment" });
export type Payment = z.infer<typeof Payment>;

export const PaymentList = pageOf(Payment, "PaymentList");

export const VerifiedPayment = Payment.extend({ coverage: Coverage.nullable().optional() }).meta({ id: "VerifiedPayment" });
export type VerifiedPayment = z.infer<typeof VerifiedPayment>;

export const ListPaymentsQuery = PageQuery.extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
  policyId: z.string().max(100).optional(),
  paymentLinkId: z.string().max(100).optional().describe("Only the payments started from this payment link"),
});
export type ListPaymentsQuery = z.output<typeof ListPaymentsQuery>;

export const ReferenceParam = z.object({ reference: z.string().min(1).max(1000) });

const currentYear = () => new Date().getUTCFullYear();

/** What the hosted checkout posts. Card data is never stored or logged. */
export const CheckoutInput = z
  .strictObject({
    cardNumber: z
      .string()
      .transform((v) => v.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^\d{12,19}$/, "Enter the card number: 12 to 19 digits")),
    expMonth: z.coerce.number().int().min(1, "Enter a month from 1 to 12").max(12, "Enter a month from 1 to 12"),
    expYear: z.coerce
      .number()
      .int()
      .transform((y) => (y < 100 ? 2000 + y : y))
      // Judged per request (the server outlives a New Year), never at module load.
      .pipe(
        z
          .number()
          .refine((y) => y >= currentYear(), "This card has expired")
          .refine((y) => y <= currentYear() + 20, "Check the expiry year: it is too far ahead"),
      ),
    cvc: z.string().regex(/^\d{3,4}$/, "Enter the 3 or 4 digits of the security code"),
    name: z
      .string()
      .trim()
      .max(120)
      .optional()
      .transform((v) => v || undefined)
      .describe("The customer's name, optional: kept on the payment and their coverage"),
    phone: z
      .string()
      .trim()
      .max(40)
      .optional()
      .transform((v) => v || undefined)
      .describe("The customer's mobile number for SMS notices, optional (E.164, or local to the business's country)"),
    autoRenew: z
      .boolean()
      .optional()
      .describe("Renew automatically with this card at the end of each period (the agreement shown on the checkout)"),
  })
  .refine(
    (c) => {
      const now = new Date();
      return c.expYear > now.getUTCFullYear() || c.expMonth >= now.getUTCMonth() + 1;
    },
    { message: "This card has expired", path: ["expMonth"] },
  );
export type CheckoutInput = z.output<typeof CheckoutInput>;

// ---------- the dashboard's payments: filters, totals, one payment in depth ----------

const IsoDay = DayParam;

/** The filters of the Payments page, shared by its list, its totals and its CSV. */
export const PaymentFilters = z
  .object({
    status: z.enum(PAYMENT_STATUSES).optional(),
    policyId: z.string().max(100).optional(),
    paymentLinkId: z.string().max(100).optional().describe("Only the payments started from this payment link"),
    from: IsoDay.optional().describe("First day created (UTC), inclusive"),
    to: IsoDay.optional().describe("Last day created (UTC), inclusive"),
    q: z.string().trim().max(254).optional().describe("Customer email or name (contains), or a reference (starts with)"),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: M.dateOrder, path: ["from"] });
export type PaymentFilters = z.output<typeof PaymentFilters>;

export const SearchPaymentsQuery = z
  .object({ ...PageQuery.shape, ...PaymentFilters.shape })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: M.dateOrder, path: ["from"] });
export type SearchPaymentsQuery = z.output<typeof SearchPaymentsQuery>;

/** A payment as the dashboard lists it: with its policy's name, the customer's name, fee and net. */
export const PaymentRow = Payment.extend({
  policyName: z.string(),
  customerName: z.string().nullable(),
  fee: z.string().nullable().describe("Platform fee taken when it succeeded"),
  net: z.string().nullable().describe("Amount less the fee, once it succeeded"),
  failureReason: z.string().nullable(),
});
export type PaymentRow = z.infer<typeof PaymentRow>;
export const PaymentRowList = pageOf(PaymentRow, "PaymentRowList");

/** Sums over every payment the filters match (not only the page shown). */
export const PaymentTotals = z.object({
  currency: z.string(),
  count: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  gross: z.string().describe("Sum of successful payments"),
  fees: z.string(),
  net: z.string(),
});
export type PaymentTotals = z.infer<typeof PaymentTotals>;

const DeliveryAttempt = z.object({
  id: z.string(),
  webhookId: z.string(),
  url: z.string(),
  attempt: z.number().int(),
  status: z.string(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export const PaymentDetail = PaymentRow.extend({
  provider: z.string(),
  customer: z.object({ id: z.string().nullable(), email: z.string(), name: z.string().nullable() }),
  coverage: Coverage.extend({ action: z.enum(["purchased", "renewed"]) }).nullable(),
  timeline: z.array(
    z.object({ status: z.enum(["created", "success", "failed"]), at: z.iso.datetime(), note: z.string().nullable() }),
  ),
  events: z.array(
    z.object({ id: z.string(), type: z.string(), createdAt: z.iso.datetime(), deliveries: z.array(DeliveryAttempt) }),
  ),
});
export type PaymentDetail = z.infer<typeof PaymentDetail>;
