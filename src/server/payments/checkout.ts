// The hosted checkout. The reference is the capability: whoever holds the link
// can pay. The card form settles sandbox payments only, and only while the
// sandbox is the deployment's provider; card data is checked and forgotten.
import { phoneOf } from "@/server/phone";
import { formatMinor } from "@/lib/money";
import { accentColors } from "@/server/organizations/accent";
import { brandingOf } from "@/server/organizations/branding";
import { db } from "@/server/db/client";
import { auditAsSystem } from "@/server/audit/record";
import { AppError, notFound } from "@/server/errors";
import { newReference, paymentAuditDetails } from "./dto";
import { providerOf, sandboxAuthorization, SANDBOX_CARDS } from "./provider";
import { settleFromProvider } from "./remote";
import type { CheckoutInput } from "@/lib/schemas/payments";
import { settlePayment } from "./settle";

export { SANDBOX_CARDS };

export interface CheckoutView {
  reference: string;
  status: "pending" | "success" | "failed";
  amount: string;
  currency: string;
  email: string;
  /** The business as the customer sees it: its accent colour (and a readable text colour on it) and logo. */
  business: { name: string; accent: string; onAccent: string; logoUrl: string | null };
  /** The name the customer already gave (a payment link's form), to prefill the card's name. */
  customerName: string | null;
  /** true when the customer already gave a phone (initialize or a payment link): the page does not ask again. */
  hasPhone: boolean;
  /** false for a test-mode payment: the page says TEST and lists the test cards. */
  livemode: boolean;
  policy: { id: string; name: string; duration: string; type: string };
  callbackUrl: string | null;
  paidAt: string | null;
  /**
   * How this payment is paid: `card` on this page (a sandbox payment while the
   * sandbox is the provider), `provider` on the provider's page at
   * `authorizationUrl`, or `unavailable` (its provider is no longer offered).
   */
  payOn: "card" | "provider" | "unavailable";
  authorizationUrl: string;
  /** The "Renew automatically" box as it starts: the consent given at initialize, else on for monthly and quarterly policies. */
  autoRenew: boolean;
  /** The business's policyholder portal (the customer's cover, certificate, renewals and claims). */
  portalPath: string;
}

/** What the checkout page shows; null for an unknown reference. */
export async function getCheckout(reference: string): Promise<CheckoutView | null> {
  const row = await db.payment.findUnique({
    where: { reference },
    include: {
      organization: { select: { name: true, livemode: true } },
      policy: { select: { id: true, name: true, duration: true, type: true } },
    },
  });
  if (!row) return null;
  const provider = providerOf(row, row.organization.livemode);
  const brand = await brandingOf(row.organizationId);
  const colors = accentColors(brand?.accentColor ?? null);
  return {
    reference: row.reference,
    status: row.status,
    amount: formatMinor(row.amountMinor, row.currency),
    currency: row.currency,
    email: row.email,
    business: {
      name: row.organization.name,
      ...colors,
      logoUrl: brand?.logo ? `/api/portal/${row.organizationId}/logo` : null,
    },
    customerName: row.customerName,
    hasPhone: Boolean(row.customerPhone),
    livemode: row.organization.livemode,
    policy: row.policy,
    callbackUrl: row.callbackUrl,
    paidAt: row.paidAt?.toISOString() ?? null,
    payOn: !provider ? "unavailable" : provider.name === "sandbox" ? "card" : "provider",
    authorizationUrl: row.authorizationUrl,
    portalPath: `/portal/${row.organizationId}`,
    autoRenew: row.autoRenew ?? row.policy.duration !== "yearly",
  };
}

export async function payWithCard(reference: string, card: CheckoutInput): Promise<{ reference: string; status: "success" }> {
  const payment = await db.payment.findUnique({
    where: { reference },
    select: {
      status: true,
      provider: true,
      autoRenew: true,
      policy: { select: { isActive: true, duration: true } },
      organization: { select: { livemode: true } },
      currency: true,
    },
  });
  if (!payment) throw notFound("Payment");
  if (payment.status !== "pending") throw new AppError("payment_not_pending", `This payment is already ${payment.status}`);
  // The card form settles sandbox payments only: every test payment, and live ones only while
  // the sandbox takes live payments (a demo deployment).
  if (payment.provider !== "sandbox" || providerOf(payment, payment.organization.livemode) === null)
    throw new AppError("invalid_state", "This payment is not made with a card on this page");
  // A link made before the policy was taken off sale does not sell it.
  if (!payment.policy.isActive) throw new AppError("policy_inactive", "This policy is no longer on sale");
  if (card.cardNumber === SANDBOX_CARDS.declined) {
    await settlePayment(reference, "failed", { failureReason: "The card was declined", customerName: card.name });
    throw new AppError("card_declined", "The card was declined. Start a new payment to try again.");
  }
  if (card.cardNumber !== SANDBOX_CARDS.success && card.cardNumber !== SANDBOX_CARDS.declinesLater) {
    throw new AppError(
      "validation_failed",
      "cardNumber: this sandbox accepts 4242 4242 4242 4242 (and 4000 0000 0000 0341, which pays once and declines its renewals; 4000 0000 0000 0002 is declined)",
      {
        errors: [{ path: "cardNumber", message: "use the sandbox card 4242 4242 4242 4242" }],
      },
    );
  }
  // A phone given on the page (optional): its SMS notices go there.
  const customerPhone = card.phone ? phoneOf(card.phone, payment.currency, "phone") : undefined;
  await settlePayment(reference, "success", {
    customerName: card.name,
    customerPhone,
    // The sandbox's cards can be charged again; saved only when the customer agreed to renew automatically.
    card: sandboxAuthorization(card.cardNumber, card.expMonth, card.expYear),
    // The box as the page shows it when the form does not say: the consent given at initialize, else on for monthly and quarterly.
    autoRenew: card.autoRenew ?? payment.autoRenew ?? payment.policy.duration !== "yearly",
  });
  return { reference, status: "success" };
}

/**
 * After a failed payment, the customer may try again: a new pending payment
 * for the same policy, customer and amount, initialized with the SAME provider
 * as the failed one (the failed one stays failed). Answers where to pay it: our
 * page for the sandbox, the provider's page otherwise. A remote payment still
 * pending here (abandoned on the provider's page) is checked with the provider
 * first.
 */
export async function retryPayment(reference: string): Promise<{ reference: string; authorizationUrl: string }> {
  let failed = await db.payment.findUnique({ where: { reference } });
  if (!failed) throw notFound("Payment");
  const { livemode } = await db.organization.findUniqueOrThrow({
    where: { id: failed.organizationId },
    select: { livemode: true },
  });
  const provider = providerOf(failed, livemode);
  if (!provider) throw new AppError("invalid_state", "This payment can no longer be retried; ask the business for a new link");
  if (failed.status === "pending" && provider.name !== "sandbox") failed = await settleFromProvider(failed);
  if (failed.status !== "failed")
    throw new AppError("invalid_state", `Only a failed payment can be retried; this one is ${failed.status}`);
  const policy = await db.policy.findUniqueOrThrow({ where: { id: failed.policyId } });
  if (!policy.isActive) throw new AppError("policy_inactive", "This policy is no longer on sale");
  if (policy.priceMinor !== failed.amountMinor || policy.currency !== failed.currency)
    throw new AppError("invalid_state", "The price has changed; ask the business for a new link");
  const next = newReference();
  // Registered with the provider first: a refusal there leaves nothing behind.
  const { authorizationUrl } = await provider.initialize({
    reference: next,
    amountMinor: failed.amountMinor,
    currency: failed.currency,
    email: failed.email,
    callbackUrl: failed.callbackUrl,
  });
  const old = failed;
  await db.$transaction(async (tx) => {
    const created = await tx.payment.create({
      data: {
        organizationId: old.organizationId,
        policyId: old.policyId,
        reference: next,
        email: old.email,
        amountMinor: old.amountMinor,
        currency: old.currency,
        provider: provider.name,
        authorizationUrl,
        callbackUrl: old.callbackUrl,
      },
    });
    // The customer on the public checkout (no one signed in): the system, naming the payment retried.
    await auditAsSystem(tx, old.organizationId, {
      action: "payment.created",
      resourceType: "payment",
      resourceId: created.reference,
      details: { ...paymentAuditDetails(created), retryOf: old.reference },
    });
  });
  return { reference: next, authorizationUrl };
}
