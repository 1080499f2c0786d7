import { z } from "@/lib/messages";
import { ClaimRow } from "@/lib/schemas/claims";
import { Coverage } from "@/lib/schemas/coverages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";
import { PaymentRow } from "@/lib/schemas/payments";

export const ListCustomersQuery = PageQuery.extend({
  q: z.string().trim().max(254).optional().describe("Email or name contains (case-insensitive)"),
});
export type ListCustomersQuery = z.output<typeof ListCustomersQuery>;

/** A person who paid the business for a policy, one per email. */
export const Customer = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable().describe("E.164, given at their latest payment that gave one (or in the policyholder portal)"),
  currency: z.string(),
  paymentsCount: z.number().int().describe("Successful payments"),
  totalPaid: z.string().describe("Their successful payments less what was refunded to them, as a decimal string"),
  lastPaidAt: z.iso.datetime().nullable(),
  coverages: z.object({ total: z.number().int(), active: z.number().int() }),
  createdAt: z.iso.datetime().describe("Their first successful payment"),
}).meta({ id: "Customer" });
export type Customer = z.infer<typeof Customer>;
export const CustomerList = pageOf(Customer, "CustomerList");

export const CustomerCoverage = Coverage.extend({ policyName: z.string() });
export type CustomerCoverage = z.infer<typeof CustomerCoverage>;

/** A notice sent (or to be sent) to the customer, by email or SMS. */
export const CustomerMessage = z.object({
  id: z.string(),
  kind: z.string().describe("customer_receipt, claim_approved, renewal_reminder, portal_code, …"),
  channel: z.enum(["email", "sms"]),
  recipient: z.string().describe("The email address or phone it went to"),
  preview: z.string().nullable().describe("The email's subject or the SMS's text, once sent"),
  status: z.enum(["queued", "sent", "failed"]),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});
export type CustomerMessage = z.infer<typeof CustomerMessage>;

/** A customer with what they hold and did: newest payments, claims and messages first (at most 50 of each). */
export const CustomerDetail = Customer.extend({
  smsOptOut: z.boolean().describe("They turned text messages off in the policyholder portal"),
  coverageList: z.array(CustomerCoverage),
  payments: z.array(PaymentRow),
  claims: z.array(ClaimRow),
  messages: z.array(CustomerMessage),
});
export type CustomerDetail = z.infer<typeof CustomerDetail>;
