// Where a refund goes: back through the provider that took the payment. The
// sandbox accepts every refund and the refund job settles it after
// PAYOUT_DELAY_SECONDS (amounts ending in .13 fail, as its transfers do);
// Paystack through its Refund API, settled by its refund.processed /
// refund.failed webhooks.
//
// Paystack's Refund API takes no idempotency key. So the job counts an
// attempt BEFORE it calls (see job.ts), and an attempt that follows one whose
// answer was never recorded (a crash, a timeout) first lists the payment's
// refunds at Paystack and adopts the one whose merchant_note carries our
// reference, instead of refunding twice.
import { paystack, type Answer } from "@/server/payouts/paystack-transfers";
import { toPaystackAmount } from "@/server/payments/paystack-amount";

export interface RefundRequest {
  /** Ours (rf_…); Paystack gets it in merchant_note. */
  reference: string;
  paymentReference: string;
  amountMinor: bigint;
  currency: string;
  reason: string | null;
  /** An earlier attempt may have reached the provider: look for it before sending. */
  mayExist: boolean;
}

/** Accepted (settled later by the job or the provider's webhook), already processed, or refused for good. Throws when the provider cannot answer now. */
export type RefundResult =
  | { status: "accepted"; providerRefundId: string | null }
  | { status: "processed"; providerRefundId: string | null }
  | { status: "failed"; reason: string };

export interface RefundProvider {
  readonly name: "sandbox" | "paystack";
  refund(r: RefundRequest): Promise<RefundResult>;
  /** Where a refund sent earlier stands at the provider, by our reference; null when the provider has none. Throws when it cannot answer now. */
  lookup(r: Pick<RefundRequest, "reference" | "paymentReference">): Promise<RefundResult | null>;
}

export const SANDBOX_REFUND_FAILURE = "The card issuer refused the refund (sandbox: amounts ending in .13 fail)";

export const sandboxRefunds: RefundProvider = {
  name: "sandbox",
  async refund() {
    return { status: "accepted", providerRefundId: null };
  },
  // The job settles the sandbox's refunds itself (job.ts): nothing to ask.
  async lookup() {
    return null;
  },
};

/** How the sandbox's card issuer answers once the delay is over. */
export const sandboxRefundOutcome = (amountMinor: bigint): { outcome: "processed" } | { outcome: "failed"; reason: string } =>
  amountMinor % 100n === 13n ? { outcome: "failed", reason: SANDBOX_REFUND_FAILURE } : { outcome: "processed" };

const noteOf = (reference: string) => `Coverdesk refund ${reference}`;

function resultOf(data: Record<string, unknown>): RefundResult {
  const id = data.id === undefined || data.id === null ? null : String(data.id);
  const status = String(data.status ?? "");
  if (status === "processed") return { status: "processed", providerRefundId: id };
  if (status === "failed") return { status: "failed", reason: "Paystack reported the refund as failed" };
  return { status: "accepted", providerRefundId: id };
}

export function paystackRefunds(secretKey: string, baseUrl: string): RefundProvider {
  const call = (path: string, body?: unknown): Promise<Answer> => paystack(secretKey, baseUrl, path, body);
  return {
    name: "paystack",
    async lookup(r) {
      const listed = await call(`/refund?transaction=${encodeURIComponent(r.paymentReference)}&perPage=100`);
      if (!listed.ok) throw new Error(`Paystack could not list the refunds: ${listed.message}`);
      const found = listedRefunds(listed).find((x) => String(x.merchant_note ?? "").includes(r.reference));
      return found ? resultOf(found) : null;
    },
    async refund(r) {
      if (r.mayExist) {
        const listed = await call(`/refund?transaction=${encodeURIComponent(r.paymentReference)}&perPage=100`);
        const found = listedRefunds(listed).find((x) => String(x.merchant_note ?? "").includes(r.reference));
        if (found) return resultOf(found);
      }
      const sent = await call("/refund", {
        transaction: r.paymentReference,
        amount: toPaystackAmount(r.amountMinor, r.currency),
        currency: r.currency,
        merchant_note: noteOf(r.reference),
        ...(r.reason ? { customer_note: r.reason } : {}),
      });
      if (sent.ok) return resultOf(sent.data);
      return { status: "failed", reason: `Paystack refused the refund: ${sent.message}` };
    },
  };
}

/** The refunds of a GET /refund answer (its `data` is a list). */
function listedRefunds(answer: Answer): Record<string, unknown>[] {
  const list: unknown = answer.data;
  return answer.ok && Array.isArray(list) ? list.filter((x): x is Record<string, unknown> => !!x && typeof x === "object") : [];
}
