// Paystack's signed transfer.* webhook events settle withdrawals and claim
// payouts, told apart by their reference (cp_… is a claim payout's); the
// route src/app/api/webhooks/paystack checks the signature and calls this.
import { settleClaimPayout } from "@/server/claim-payouts/settle";
import { logger } from "@/server/logger";
import { settleWithdrawal, type PayoutOutcome } from "./settle";

const OUTCOMES: Record<string, PayoutOutcome> = {
  "transfer.success": "paid",
  "transfer.failed": "failed",
  "transfer.reversed": "reversed",
};
const REASONS: Record<PayoutOutcome, string | undefined> = {
  paid: undefined,
  failed: "Paystack reported the transfer as failed",
  reversed: "Paystack reversed the transfer",
};

export const isTransferEvent = (type: unknown): type is string => typeof type === "string" && type in OUTCOMES;

/**
 * A signed transfer.* event from Paystack's webhook. An unknown reference or a
 * withdrawal already settled is nothing to do; a database error throws, and
 * the route answers 500 so that Paystack delivers the event again.
 */
export async function settleTransferEvent(type: string, data: { reference?: unknown } | undefined): Promise<void> {
  const outcome = OUTCOMES[type];
  const reference = data?.reference;
  if (!outcome || typeof reference !== "string" || !reference) return;
  const settle = reference.startsWith("cp_") ? settleClaimPayout : settleWithdrawal;
  const row = await settle(reference, outcome, REASONS[outcome], { provider: "paystack" });
  if (!row) logger.warn({ reference, type }, "paystack transfer event for no withdrawal or claim payout of ours; ignored");
}
