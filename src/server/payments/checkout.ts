// The hosted checkout of sandbox payments. The reference is the capability:
// whoever holds the link can pay. Card data is checked and forgotten.
import { formatMinor } from "@/lib/money";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { checkoutUrl } from "./provider";
import type { CheckoutInput } from "./schemas";
import { newReference } from "./service";
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
    include: {
      organization: { select: { name: true } },
      policy: { select: { id: true, name: true, duration: true, type: true } },
    },
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
  const payment = await db.payment.findUnique({
    where: { reference },
    select: { status: true, provider: true, policy: { select: { isActive: true } } },
  });
  if (!payment) throw notFound("Payment");
  if (payment.status !== "pending") throw new AppError("payment_not_pending", `This payment is already ${payment.status}`);
  if (payment.provider !== "sandbox") throw new AppError("invalid_state", "This payment is made on the payment provider's page");
  // A link made before the policy was taken off sale does not sell it.
  if (!payment.policy.isActive) throw new AppError("policy_inactive", "This policy is no longer on sale");
  if (card.cardNumber === SANDBOX_CARDS.declined) {
    await settlePayment(reference, "failed");
    throw new AppError("card_declined", "The card was declined. Start a new payment to try again.");
  }
  if (card.cardNumber !== SANDBOX_CARDS.success) {
    throw new AppError(
      "validation_failed",
      "cardNumber: this sandbox accepts 4242 4242 4242 4242 (and declines 4000 0000 0000 0002)",
      {
        errors: [{ path: "cardNumber", message: "use the sandbox card 4242 4242 4242 4242" }],
      },
    );
  }
  await settlePayment(reference, "success");
  return { reference, status: "success" };
}

/**
 * After a declined card, the customer may try again: a new pending payment for
 * the same policy, customer and amount (the failed one stays failed).
 */
export async function retryPayment(reference: string): Promise<{ reference: string }> {
  const failed = await db.payment.findUnique({ where: { reference }, include: { policy: true } });
  if (!failed) throw notFound("Payment");
  if (failed.status !== "failed")
    throw new AppError("invalid_state", `Only a failed payment can be retried; this one is ${failed.status}`);
  if (!failed.policy.isActive) throw new AppError("policy_inactive", "This policy is no longer on sale");
  if (failed.policy.priceMinor !== failed.amountMinor)
    throw new AppError("invalid_state", "The price has changed; ask the business for a new link");
  const next = await db.payment.create({
    data: {
      organizationId: failed.organizationId,
      policyId: failed.policyId,
      reference: newReference(),
      email: failed.email,
      amountMinor: failed.amountMinor,
      currency: failed.currency,
      provider: "sandbox",
      callbackUrl: failed.callbackUrl,
    },
  });
  const authorizationUrl = checkoutUrl(next.reference);
  await db.payment.update({ where: { id: next.id }, data: { authorizationUrl } });
  return { reference: next.reference };
}
