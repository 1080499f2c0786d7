// Payments started from a payment link's page and never paid are expired after
// UNPAID_LINK_PAYMENT_TTL_MS, so a link shared widely does not fill the
// payments list with pending rows: each becomes `failed` ("not paid within 24
// hours") through the same settlement as a declined card, with its
// `payment.failed` event in the same transaction. A payment taken by a
// remote provider (Paystack) is asked first: one paid meanwhile is settled as
// paid instead. The checkout of an expired payment offers to pay again (a new
// payment). Found per organization that has links, through the payments'
// (organizationId, status, createdAt) index; a bounded batch per pass.
import { db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { settleFromProvider } from "@/server/payments/remote";
import { settlePayment } from "@/server/payments/settle";

export const UNPAID_LINK_PAYMENT_TTL_MS = 24 * 3_600_000;
export const EXPIRED_REASON = "Not paid within 24 hours: the payment expired";
const BATCH = 100;

export async function expireUnpaidLinkPayments(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - UNPAID_LINK_PAYMENT_TTL_MS);
  const orgs = await db.paymentLink.findMany({ distinct: ["organizationId"], select: { organizationId: true } });
  let expired = 0;
  for (const { organizationId } of orgs) {
    if (expired >= BATCH) break;
    const due = await db.payment.findMany({
      where: { organizationId, status: "pending", createdAt: { lt: before }, paymentLinkId: { not: null } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: BATCH - expired,
    });
    for (const row of due) {
      try {
        if (row.provider !== "sandbox") {
          const now = await settleFromProvider(row);
          if (now.status !== "pending") continue; // the provider had an answer: settled by it
        }
        await settlePayment(row.reference, "failed", { failureReason: EXPIRED_REASON, now });
        expired++;
      } catch (err) {
        // Settled meanwhile by the checkout or a webhook, or the provider cannot be asked now: next pass.
        logger.warn({ err, reference: row.reference }, "unpaid payment-link payment not expired this time");
      }
    }
  }
  return expired;
}
