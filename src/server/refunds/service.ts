// Refunds: money back to a payment's customer. Creating one is ONE
// transaction under the organization's balance lock (src/server/ledger/
// balance.ts): the payment checked, the amount checked against what is left
// to refund and against the available balance, then the refund row, its
// ledger debit, the payment's refunded amount and the event. The refund job
// (job.ts) then sends it to the payment's provider.
import crypto from "node:crypto";
import { optionalMinorOf } from "@/server/money";
import { Prisma, type Payment as PaymentRow, type Refund as RefundRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import type { ListRefundsQuery, Refund, RefundPaymentInput } from "@/lib/schemas/refunds";
import { assertCan, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound, validationError } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { assertBalanceCovers, LOCKED_TX, lockOrganizationBalance } from "@/server/ledger/balance";
import { pageArgs, toPage, type Page } from "@/server/pagination";

type WithPayment = RefundRow & { payment: { reference: string } };

export const toRefund = (row: WithPayment): Refund => ({
  id: row.id,
  paymentReference: row.payment.reference,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  reason: row.reason,
  status: row.status,
  failureReason: row.failureReason,
  createdAt: row.createdAt.toISOString(),
  processedAt: row.processedAt?.toISOString() ?? null,
});

export const withPaymentReference = { payment: { select: { reference: true } } } as const;

// Paystack-safe and unguessable: the ledger entries' reference too.
const newRefundReference = () => `rf_${crypto.randomBytes(16).toString("hex")}`;

export async function refundPayment(actor: Actor, paymentReference: string, input: RefundPaymentInput): Promise<Refund> {
  assertCan(actor, "admin");
  const orgId = actor.organizationId;
  const found = await db.payment.findFirst({
    where: { reference: paymentReference, organizationId: orgId },
    select: { id: true },
  });
  if (!found) throw notFound("Payment");
  return db.$transaction(async (tx) => {
    await lockOrganizationBalance(tx, orgId);
    // Read under the lock: every refund of this organization changes refundedMinor under it.
    const payment = await tx.payment.findUniqueOrThrow({ where: { id: found.id } });
    if (payment.status !== "success") {
      throw new AppError("invalid_state", `A ${payment.status} payment cannot be refunded: only a successful one`);
    }
    const left = payment.amountMinor - payment.refundedMinor;
    const amount = optionalMinorOf(input.amount, payment.currency, "amount") ?? left;
    if (left <= 0n) throw validationError([{ path: "amount", message: "This payment is refunded in full already" }]);
    if (amount > left) {
      throw validationError([
        { path: "amount", message: `Refund at most what is left of the payment, ${formatMinor(left, payment.currency)}` },
      ]);
    }
    await assertBalanceCovers(tx, orgId, amount, payment.currency);
    return insertRefund(tx, payment, amount, input.reason || null);
  }, LOCKED_TX);
}

/**
 * The refund of `amount` of a successful payment: its row, the payment's
 * refunded amount, the ledger debit and `refund.created`. The caller holds
 * the organization's balance lock and has checked the amount against what is
 * left of the payment and against the available balance.
 */
export async function insertRefund(
  tx: Tx,
  payment: PaymentRow,
  amount: bigint,
  reason: string | null,
  { coverageId = null, now = new Date() }: { coverageId?: string | null; now?: Date } = {},
): Promise<Refund> {
  const reference = newRefundReference();
  const row = await tx.refund.create({
    data: {
      organizationId: payment.organizationId,
      paymentId: payment.id,
      amountMinor: amount,
      currency: payment.currency,
      reason,
      provider: payment.provider,
      reference,
      coverageId,
      createdAt: now,
      runAt: now,
    },
    include: withPaymentReference,
  });
  await tx.payment.update({ where: { id: payment.id }, data: { refundedMinor: { increment: amount } } });
  await tx.ledgerTransaction.create({
    data: {
      organizationId: payment.organizationId,
      type: "refund",
      amountMinor: -amount,
      currency: payment.currency,
      reference,
      policyId: payment.policyId,
      description: `Refund to ${payment.email} (payment ${payment.reference})`,
      createdAt: now,
    },
  });
  const refund = toRefund(row);
  await recordEvent(tx, payment.organizationId, "refund.created", refund, payment.reference);
  await audit(tx, payment.organizationId, {
    action: "refund.created",
    resourceType: "refund",
    resourceId: refund.id,
    details: { paymentReference: payment.reference, amount: refund.amount, currency: refund.currency, reason, coverageId },
  });
  return refund;
}

export async function listRefunds(actor: Actor, query: ListRefundsQuery): Promise<Page<Refund>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const where: Prisma.RefundWhereInput = {
    AND: [
      { organizationId: actor.organizationId },
      query.status ? { status: query.status } : {},
      query.paymentReference ? { payment: { reference: query.paymentReference } } : {},
      args.where,
    ],
  };
  const rows = await db.refund.findMany({ ...args, where, include: withPaymentReference });
  return toPage(rows, query, toRefund);
}
