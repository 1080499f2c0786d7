// The refund job, one kind of the job runner, in the payout lane (money out
// goes to the providers one call at a time). Due refunds are claimed with the
// runner's lease; a pending refund not yet sent goes to the payment's
// provider; a sandbox refund the sandbox accepted is settled here when due
// again; a Paystack one by Paystack's refund.* webhook — or, when that
// webhook never comes, by asking Paystack (GET /refund) 30 minutes after
// sending and then every few hours, until it says processed or failed.
//
// An attempt is counted BEFORE the provider is called: an attempt that finds
// attempts > 0 and no answer recorded knows an earlier call may have reached
// the provider (a crash, a timeout) and asks it first (see provider.ts).
import { Prisma, type Refund as RefundRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { rowJob, runRowJob } from "@/server/jobs/kind";
import { backoff } from "@/server/jobs/retry";
import { logger } from "@/server/logger";
import { liveProviderName } from "@/server/payments/provider";
import { paystackRefunds, sandboxRefundOutcome, sandboxRefunds, type RefundProvider, type RefundResult } from "./provider";
import { settleRefund } from "./settle";

const BATCH = 20;
const LEASE_MS = 60_000;
/** The provider could not be asked: 30 s doubling, at most an hour, never given up (the money is held meanwhile). */
const REFUND_RETRY = backoff(30, 3600);
/** A refund the provider accepted is asked about after this long, if its webhook has not settled it. */
export const REFUND_RECHECK_MS = 30 * 60_000;
/** …and again this long after each answer that it is still under way. */
const REFUND_RECHECK_AGAIN_MS = 4 * 60 * 60_000;

type Claimed = RefundRow & { payment: { reference: string }; organization: { livemode: boolean } };
type Handled = "done" | "later";

/** Who refunds a payment taken by `provider` in this mode now; null when that provider is not configured any more. */
function refundProviderFor(provider: string, livemode: boolean): RefundProvider | null {
  if (provider === "sandbox") return !livemode || liveProviderName() === "sandbox" ? sandboxRefunds : null;
  if (provider === "paystack" && livemode && env.PAYSTACK_SECRET_KEY) {
    return paystackRefunds(env.PAYSTACK_SECRET_KEY, env.PAYSTACK_BASE_URL);
  }
  return null;
}

export const refundJob = rowJob<Claimed, Handled>({
  kind: "refund",
  lane: "payout",
  table: "refund",
  where: Prisma.sql`status = 'pending'`,
  batch: BATCH,
  leaseMs: () => LEASE_MS,
  retry: {
    ...REFUND_RETRY,
    whenExhausted: "never: a pending refund is tried again at most an hour apart until the provider answers",
    exhausted: async () => {},
  },
  load: (ids) =>
    db.refund.findMany({
      where: { id: { in: ids } },
      include: { payment: { select: { reference: true } }, organization: { select: { livemode: true } } },
    }),
  // Counted before each call (see the top): the attempts made before this one.
  failures: (row) => row.attempts,
  attempt: handle,
  failureOf: (handled) => (handled === "later" ? {} : null),
  succeeded: async () => {},
  retrying: async (row, _handled, _attempt, retryAt) => {
    await db.refund.updateMany({ where: { id: row.id, status: "pending" }, data: { runAt: retryAt, lockedUntil: null } });
  },
});

/** Claims and handles the refunds that are due (one batch). */
export const runDueRefunds = () => runRowJob(refundJob);

async function handle(row: Claimed): Promise<Handled> {
  if (row.status !== "pending") return "done";
  if (row.sentAt && row.provider === "sandbox") {
    const result = sandboxRefundOutcome(row.amountMinor);
    await settleRefund(row.id, result.outcome, result.outcome === "failed" ? result.reason : undefined);
    return "done";
  }
  const provider = refundProviderFor(row.provider, row.organization.livemode);
  if (row.sentAt && provider) return recheck(row, provider);
  if (!provider) {
    if (row.provider === "sandbox") {
      // The sandbox never moved money, so failing (and crediting back) it cannot pay twice.
      await settleRefund(row.id, "failed", "Sandbox refunds are not available on this platform any more");
      return "done";
    }
    logger.error({ refundId: row.id, provider: row.provider }, "refund provider not configured; refund left pending");
    return "later";
  }
  // Counted before the call: if we never learn its answer, the next attempt looks for it first.
  await db.refund.update({ where: { id: row.id }, data: { attempts: { increment: 1 } } });
  let result: RefundResult;
  try {
    result = await provider.refund({
      reference: row.reference,
      paymentReference: row.payment.reference,
      amountMinor: row.amountMinor,
      currency: row.currency,
      reason: row.reason,
      mayExist: row.attempts > 0,
    });
  } catch (err) {
    logger.warn({ err, refundId: row.id, attempts: row.attempts + 1 }, "refund not sent; will try again");
    return "later";
  }
  if (result.status === "failed") {
    await settleRefund(row.id, "failed", result.reason);
    return "done";
  }
  await db.refund.updateMany({
    where: { id: row.id, status: "pending" },
    data: {
      sentAt: new Date(),
      providerRefundId: result.providerRefundId,
      // The sandbox settles when due again; Paystack's webhook settles the others whenever it comes, else
      // the job asks Paystack after REFUND_RECHECK_MS.
      runAt: new Date(Date.now() + (provider.name === "sandbox" ? env.PAYOUT_DELAY_SECONDS * 1000 : REFUND_RECHECK_MS)),
      lockedUntil: null,
    },
  });
  if (result.status === "processed") await settleRefund(row.id, "processed");
  return "done";
}

/**
 * A refund the provider accepted and whose webhook has not come: asked of the
 * provider by our reference. Processed or failed → settled as the webhook
 * would (once: settleRefund acts only on a pending refund); still under way →
 * asked again later; unknown to it → logged, asked again later (never sent
 * again: it was accepted once).
 */
async function recheck(row: Claimed, provider: RefundProvider): Promise<Handled> {
  let found: RefundResult | null;
  try {
    found = await provider.lookup({ reference: row.reference, paymentReference: row.payment.reference });
  } catch (err) {
    logger.warn({ err, refundId: row.id }, "refund status not asked; will ask again");
    return "later";
  }
  if (found?.status === "processed" || found?.status === "failed") {
    await settleRefund(row.id, found.status, found.status === "failed" ? found.reason : undefined);
    return "done";
  }
  if (!found)
    logger.error(
      { refundId: row.id, provider: provider.name },
      "an accepted refund is not found at the provider; asking again later",
    );
  await db.refund.updateMany({
    where: { id: row.id, status: "pending" },
    data: { runAt: new Date(Date.now() + REFUND_RECHECK_AGAIN_MS), lockedUntil: null },
  });
  return "done";
}
