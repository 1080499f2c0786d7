// The hosted checkout of sandbox payments. The reference is the capability:
// whoever holds the link can pay. Card data is checked and forgotten.
import { formatMinor } from "@/lib/money";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import type { CheckoutInput } from "./schemas";
import { settlePayment } from "./settle";

export const SANDBOX_CARDS = { success: "4242424242424242", declined: "4000000000000002" } as const;

export interface CheckoutView {
  reference: string;
  status: "pending" | "success" | "failed";
  amount: string;
  currency: string;
  email: string;
  business: { name: string };
  policy: { id: string; name: string; duration: string; type: string };
  callbackUrl: string | null;
  paidAt: string | null;
}

/** What the checkout page shows; null for an unknown reference. */
export async function getCheckout(reference: string): Promise<CheckoutView | null> {
  const row = await db.payment.findUnique({
    where: { reference },
    include: { organization: { select: { name: true } }, policy: { select: { id: true, name: true, duration: true, type: true } } },
  });
  if (!row) return null;
  return {
    reference: row.reference,
    status: row.status,
    amount: formatMinor(row.amountMinor),
    currency: row.currency,
    email: row.email,
    business: { name: row.organization.name },
    policy: row.policy,
    callbackUrl: row.callbackUrl,
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

export async function payWithCard(reference: string, card: CheckoutInput): Promise<{ reference: string; status: "success" }> {
  const payment = await db.payment.findUnique({ where: { reference }, select: { status: true, provider: true } });
  if (!payment) throw notFound("Payment");
  if (payment.status !== "pending") throw new AppError("payment_not_pending", `This payment is already ${payment.status}`);
  if (payment.provider !== "sandbox") throw new AppError("invalid_state", "This payment is made on the payment provider's page");
  if (card.cardNumber === SANDBOX_CARDS.declined) {
    await settlePayment(reference, "failed");
    throw new AppError("card_declined", "The card was declined. Start a new payment to try again.");
  }
  if (card.cardNumber !== SANDBOX_CARDS.success) {
    throw new AppError("validation_failed", "cardNumber: this sandbox accepts 4242 4242 4242 4242 (and declines 4000 0000 0000 0002)", {
      errors: [{ path: "cardNumber", message: "use the sandbox card 4242 4242 4242 4242" }],
    });
  }
  await settlePayment(reference, "success");
  return { reference, status: "success" };
}
