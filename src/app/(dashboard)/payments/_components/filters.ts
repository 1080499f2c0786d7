// The payments list's filters, read from the page's address: the same on the
// server (the page loads the first page of results with the HTML) and in the
// browser (PaymentsView), so both ask for the same query.
import { PAYMENT_STATUSES } from "@/lib/enums";
import type { PaymentRow } from "@/lib/schemas/payments";

export const PAYMENT_FILTERS = ["q", "status", "policyId", "paymentLinkId", "from", "to"] as const;

export function paymentFilters(f: Record<(typeof PAYMENT_FILTERS)[number], string>) {
  return {
    q: f.q || undefined,
    status: (PAYMENT_STATUSES as readonly string[]).includes(f.status) ? (f.status as PaymentRow["status"]) : undefined,
    policyId: f.policyId || undefined,
    paymentLinkId: f.paymentLinkId || undefined,
    from: f.from || undefined,
    to: f.to || undefined,
  };
}
