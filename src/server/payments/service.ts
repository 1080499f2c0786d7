import type { Prisma } from "@/generated/prisma/client";
import { phoneOf } from "@/server/phone";
import { minorOf } from "@/server/money";
import { formatMinor } from "@/lib/money";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { toCoverage } from "@/server/coverages/service";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { findPolicy } from "@/server/policies/service";
import { toPayment, newReference, paymentAuditDetails } from "./dto";
import { providerFor } from "./provider";
import { settleFromProvider } from "./remote";
import type { InitializePaymentInput, ListPaymentsQuery, Payment, VerifiedPayment } from "@/lib/schemas/payments";

export async function initializePayment(
  actor: Actor,
  input: InitializePaymentInput,
  /** Where it was started from: a payment link's page (sales attribution). */
  source: { paymentLinkId?: string } = {},
): Promise<Payment> {
  assertCan(actor, "manage");
  const policy = await findPolicy(actor, input.policyId);
  if (minorOf(input.amount, policy.currency, "amount") !== policy.priceMinor) {
    const price = formatMinor(policy.priceMinor, policy.currency);
    throw new AppError("amount_mismatch", `amount must equal the policy's price, ${price}`, {
      errors: [{ path: "amount", message: `Enter the policy's price, ${price}` }],
    });
  }
  if (!policy.isActive) throw new AppError("policy_inactive", "This policy is not on sale");
  const phone = input.phone === undefined ? null : phoneOf(input.phone, policy.currency, "phone");
  const provider = providerFor(isLive(actor));
  // The provider is asked (a remote call: outside any transaction) in the
  // currency the business has now; the row is then written in the transaction
  // that holds the organization's row `FOR KEY SHARE` and reads the currency
  // from it. A currency change takes that row `FOR UPDATE` and refuses once
  // any payment exists (organizations/service.ts), so it comes entirely before
  // this payment (which is then made in the new currency: asked again, once)
  // or after it (and is refused).
  let currency = (await db.organization.findUniqueOrThrow({ where: { id: actor.organizationId }, select: { currency: true } }))
    .currency;
  for (let attempt = 1; ; attempt++) {
    const reference = newReference();
    const { authorizationUrl } = await provider.initialize({
      reference,
      amountMinor: policy.priceMinor,
      currency,
      email: input.email,
      callbackUrl: input.callbackUrl,
    });
    const row = await db.$transaction(async (tx) => {
      const [org] = await tx.$queryRaw<{ currency: string }[]>`
        SELECT currency FROM organization WHERE id = ${actor.organizationId} FOR KEY SHARE`;
      if (org!.currency !== currency) return org!.currency;
      const created = await tx.payment.create({
        data: {
          organizationId: actor.organizationId,
          policyId: policy.id,
          reference,
          email: input.email,
          amountMinor: policy.priceMinor,
          currency,
          provider: provider.name,
          authorizationUrl,
          callbackUrl: input.callbackUrl,
          customerName: input.name ?? null,
          customerPhone: phone,
          paymentLinkId: source.paymentLinkId ?? null,
          autoRenew: input.autoRenew ?? null,
        },
      });
      // By whoever asked: a key or a user (the API, the dashboard), a policyholder renewing on the portal,
      // the system for a payment link's visitor (no one signed in).
      await audit(tx, actor.organizationId, {
        action: "payment.created",
        resourceType: "payment",
        resourceId: created.reference,
        details: paymentAuditDetails(created),
      });
      return created;
    });
    if (typeof row !== "string") return toPayment(row);
    if (attempt === 2) {
      throw new AppError(
        "conflict",
        `The business's currency changed to ${row} while this payment was being initialized: initialize it again`,
      );
    }
    currency = row;
  }
}

export async function listPayments(actor: Actor, query: ListPaymentsQuery): Promise<Page<Payment>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const where: Prisma.PaymentWhereInput = {
    organizationId: actor.organizationId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.policyId ? { policyId: query.policyId } : {}),
    ...(query.paymentLinkId ? { paymentLinkId: query.paymentLinkId } : {}),
    ...args.where,
  };
  const rows = await db.payment.findMany({ ...args, where });
  return toPage(rows, query, toPayment);
}

/**
 * The payment as it stands, with the customer's coverage once paid. A pending
 * payment with a remote provider is checked with it first (and settled).
 */
export async function verifyPayment(actor: Actor, reference: string): Promise<VerifiedPayment> {
  assertCan(actor, "read");
  let row = await db.payment.findFirst({ where: { reference, organizationId: actor.organizationId } });
  if (!row) throw notFound("Payment");
  if (row.status === "pending" && row.provider !== "sandbox") {
    row = await settleFromProvider(row);
  }
  const coverage =
    row.status === "success"
      ? await db.coverage.findUnique({ where: { policyId_customerEmail: { policyId: row.policyId, customerEmail: row.email } } })
      : null;
  return { ...toPayment(row), coverage: coverage ? toCoverage(coverage) : null };
}
