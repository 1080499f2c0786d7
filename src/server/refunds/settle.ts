// Settling a refund is ONE transaction on its locked row: processed (event
// payment.refunded, data: the Refund), or failed — the refund_reversal that
// puts the amount back in the balance (same reference as the debit), the
// payment's refundable amount given back, and the event. Only a pending
// refund settles; a second settlement (a redelivered webhook, a second
// worker) finds it settled and does nothing.
import type { Refund as RefundRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { auditAsSystem } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { recordEvent } from "@/server/events/record";
import { toRefund, withPaymentReference } from "./service";

export type RefundOutcome = "processed" | "failed";

export interface SettleRefundOptions {
  /** Only a refund made through this provider settles (a Paystack event never touches a sandbox row). */
  provider?: string;
  now?: Date;
}

/** The refund as settled (or as it already was), null when there is no such refund. */
export async function settleRefund(
  id: string,
  outcome: RefundOutcome,
  reason?: string,
  { provider, now = new Date() }: SettleRefundOptions = {},
): Promise<RefundRow | null> {
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string; provider: string }[]>`
      SELECT status::text AS status, provider FROM refund WHERE id = ${id} FOR UPDATE`;
    if (!locked || (provider && locked.provider !== provider)) return null;
    if (locked.status !== "pending") return tx.refund.findUniqueOrThrow({ where: { id } });

    if (outcome === "processed") {
      const row = await tx.refund.update({
        where: { id },
        data: { status: "processed", processedAt: now, lockedUntil: null },
        include: withPaymentReference,
      });
      await recordEvent(tx, row.organizationId, "payment.refunded", toRefund(row), row.payment.reference);
      // The provider's outcome (its webhook, the refund job): the system's.
      await auditAsSystem(tx, row.organizationId, {
        action: "refund.processed",
        resourceType: "refund",
        resourceId: row.id,
        details: {
          paymentReference: row.payment.reference,
          amount: formatMinor(row.amountMinor, row.currency),
          currency: row.currency,
        },
      });
      return row;
    }

    const failureReason = reason ?? "The refund failed";
    const row = await tx.refund.update({
      where: { id },
      data: { status: "failed", failureReason, processedAt: now, lockedUntil: null },
      include: { payment: { select: { reference: true, email: true, policyId: true } } },
    });
    await tx.payment.update({ where: { id: row.paymentId }, data: { refundedMinor: { decrement: row.amountMinor } } });
    await tx.ledgerTransaction.create({
      data: {
        organizationId: row.organizationId,
        type: "refund_reversal",
        amountMinor: row.amountMinor,
        currency: row.currency,
        reference: row.reference,
        policyId: row.payment.policyId,
        description: `Refund to ${row.payment.email} failed: ${failureReason}`,
        createdAt: now,
      },
    });
    await recordEvent(tx, row.organizationId, "refund.failed", toRefund(row), row.payment.reference);
    await auditAsSystem(tx, row.organizationId, {
      action: "refund.failed",
      resourceType: "refund",
      resourceId: row.id,
      details: {
        paymentReference: row.payment.reference,
        amount: formatMinor(row.amountMinor, row.currency),
        currency: row.currency,
        failureReason,
      },
    });
    return row;
  });
}
