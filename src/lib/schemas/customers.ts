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
  currency: z.string(),
  paymentsCount: z.number().int().describe("Successful payments"),
  totalPaid: z.string(),
  lastPaidAt: z.iso.datetime().nullable(),
  coverages: z.object({ total: z.number().int(), active: z.number().int() }),
  createdAt: z.iso.datetime().describe("Their first successful payment"),
});
export type Customer = z.infer<typeof Customer>;
export const CustomerList = pageOf(Customer, "CustomerList");

export const CustomerCoverage = Coverage.extend({ policyName: z.string() });
export type CustomerCoverage = z.infer<typeof CustomerCoverage>;

/** A customer with what they hold and did: newest payments and claims first (at most 50 of each). */
export const CustomerDetail = Customer.extend({
  coverageList: z.array(CustomerCoverage),
  payments: z.array(PaymentRow),
  claims: z.array(ClaimRow),
});
export type CustomerDetail = z.infer<typeof CustomerDetail>;
