// Payment links (SPEC §11): a reusable public page to buy one policy, shared
// anywhere (WhatsApp, a QR code, a "Buy cover" button). Shared by the REST
// API, the dashboard and the public page's form.
import { M, z } from "@/lib/messages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

const RedirectUrl = z
  .url({ protocol: /^https?$/, error: M.url })
  .max(2000)
  .describe("Where the customer goes after paying, with ?reference= (default: the checkout's own receipt)");
const LinkName = z
  .string()
  .trim()
  .max(120, "Use at most 120 characters")
  .describe('Your own label, e.g. "Instagram, November" or an agent\'s name; never shown to customers');

export const CreatePaymentLinkInput = z
  .strictObject({
    policyId: z.string().min(1, "Choose a policy").max(100),
    name: LinkName.optional(),
    collectPhone: z.boolean().default(false).describe("Ask the customer's phone number too"),
    redirectUrl: RedirectUrl.optional(),
  })
  .meta({ id: "CreatePaymentLinkInput" });
export type CreatePaymentLinkInput = z.output<typeof CreatePaymentLinkInput>;

export const UpdatePaymentLinkInput = z
  .strictObject({
    active: z.boolean().optional().describe("false turns the link off: its page says it is no longer available (410)"),
    name: LinkName.nullable().optional(),
    collectPhone: z.boolean().optional(),
    redirectUrl: RedirectUrl.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Give at least one field to change" })
  .meta({ id: "UpdatePaymentLinkInput" });
export type UpdatePaymentLinkInput = z.output<typeof UpdatePaymentLinkInput>;

export const PaymentLink = z
  .object({
    id: z.string(),
    policyId: z.string(),
    policyName: z.string(),
    name: z.string().nullable(),
    url: z.string().describe("The public page: <APP_URL>/buy/<slug>"),
    active: z.boolean(),
    collectPhone: z.boolean(),
    redirectUrl: z.string().nullable(),
    livemode: z.boolean().describe("false for a test-mode link: its page says TEST and takes only test cards"),
    views: z.int().describe("Times its page was opened (counted in batches: a few seconds behind)"),
    started: z.int().describe("Payments started from its page"),
    payments: z.int().describe("Successful payments made through it"),
    revenue: z.string().describe('What those payments brought in (gross), e.g. "1500.00"'),
    currency: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "PaymentLink" });
export type PaymentLink = z.output<typeof PaymentLink>;

export const PaymentLinkList = pageOf(PaymentLink, "PaymentLinkList");

export const ListPaymentLinksQuery = PageQuery.extend({
  policyId: z.string().min(1).max(100).optional(),
  active: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .describe("Only the links on (true) or off (false)"),
});
export type ListPaymentLinksQuery = z.output<typeof ListPaymentLinksQuery>;

/** What the public page's form sends (a plain HTML form: every field a string). */
export const BuyFormInput = z.object({
  name: z.string().trim().min(1, "Enter your name").max(120, "Use at most 120 characters"),
  email: z
    .email(M.email)
    .max(254)
    .transform((e) => e.toLowerCase()),
  phone: z.string().trim().max(40).optional(),
  /** A honeypot: people leave it empty (it is hidden); a bot filling every field does not. */
  website: z.string().max(2000).optional(),
});
export type BuyFormInput = z.output<typeof BuyFormInput>;
