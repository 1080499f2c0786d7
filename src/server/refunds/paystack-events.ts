// Paystack's signed refund.* webhook events settle refunds (the route
// src/app/api/webhooks/paystack checks the signature and calls this). The
// refund is found by Paystack's id of it, else by our reference in its
// merchant_note, else as the oldest pending refund of that amount of the
// payment; one already settled, or none, is nothing to do.
import type { Prisma } from "@/generated/prisma/client";
import { fromPaystackAmount } from "@/server/payments/paystack-amount";
import { db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { settleRefund, type RefundOutcome } from "./settle";

const OUTCOMES: Record<string, RefundOutcome> = { "refund.processed": "processed", "refund.failed": "failed" };

export const isRefundEvent = (type: unknown): type is string => typeof type === "string" && type in OUTCOMES;

const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");

/** A database error throws, and the route answers 500 so that Paystack delivers the event again. */
export async function settleRefundEvent(type: string, data: Record<string, unknown> | undefined): Promise<void> {
  const outcome = OUTCOMES[type];
  if (!outcome || !data) return;
  const providerId = text(data.id) || text(data.refund_id);
  const ours = /\brf_[0-9a-f]{32}\b/.exec(text(data.merchant_note))?.[0];
  const transaction =
    text(data.transaction_reference) || text((data.transaction as { reference?: unknown } | undefined)?.reference);
  const amount = fromPaystackAmount(data.amount, text(data.currency).toUpperCase() || "NGN");
  const candidates: Prisma.RefundWhereInput[] = [
    ...(providerId ? [{ providerRefundId: providerId }] : []),
    ...(ours ? [{ reference: ours }] : []),
  ];
  let row = candidates.length
    ? await db.refund.findFirst({ where: { provider: "paystack", OR: candidates }, select: { id: true } })
    : null;
  if (!row && transaction && amount !== null) {
    row = await db.refund.findFirst({
      where: { provider: "paystack", status: "pending", amountMinor: amount, payment: { reference: transaction } },
      orderBy: { createdAt: "asc" },
      select: { id: true },
    });
  }
  if (!row) {
    logger.warn({ type, transaction }, "paystack refund event for no refund of ours; ignored");
    return;
  }
  const reason = outcome === "failed" ? "Paystack reported the refund as failed" : undefined;
  await settleRefund(row.id, outcome, reason, { provider: "paystack" });
}
