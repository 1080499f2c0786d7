// The claim payout job, one kind of the job runner in the payout lane, like
// withdrawals' (src/server/payouts/job.ts): due payouts are claimed with the
// runner's lease; a pending one gets its transfer recipient (Paystack) and its
// transfer, whose reference is the payout's own — Paystack refuses a
// reference twice, so a resend after a crash learns the first transfer's fate
// (paystack-transfers.ts) and never pays twice. A sandbox payout is settled
// here when due again; a Paystack one by Paystack's transfer.* webhook.
import { Prisma, type ClaimPayout as PayoutRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { recordEvent } from "@/server/events/record";
import { rowJob, runRowJob } from "@/server/jobs/kind";
import { backoff } from "@/server/jobs/retry";
import { logger } from "@/server/logger";
import { payoutProviderFor, type PayoutProvider, type TransferResult } from "@/server/payouts/provider";
import { sandboxTransferOutcome } from "@/server/payouts/sandbox-transfers";
import { unseal } from "@/server/seal";
import { CLAIM_PAYOUT_SEAL, toClaimPayout } from "./service";
import { settleClaimPayout } from "./settle";

const BATCH = 20;
const LEASE_MS = 60_000;
const CLAIM_PAYOUT_RETRY = backoff(30, 3600);

type Claimed = PayoutRow & { organization: { livemode: boolean } };
type Handled = "done" | "later";

export const claimPayoutJob = rowJob<Claimed, Handled>({
  kind: "claim_payout",
  lane: "payout",
  table: "claim_payout",
  where: Prisma.sql`status = 'pending' OR (status = 'processing' AND provider = 'sandbox')`,
  batch: BATCH,
  leaseMs: () => LEASE_MS,
  retry: {
    ...CLAIM_PAYOUT_RETRY,
    whenExhausted: "never: a pending claim payout is tried again at most an hour apart until the provider answers",
    exhausted: async () => {},
  },
  load: (ids) =>
    db.claimPayout.findMany({ where: { id: { in: ids } }, include: { organization: { select: { livemode: true } } } }),
  failures: (row) => row.attempts,
  attempt: handle,
  failureOf: (handled) => (handled === "later" ? {} : null),
  succeeded: async () => {},
  retrying: async (row, _handled, attempts, retryAt) => {
    await db.claimPayout.updateMany({
      where: { id: row.id, status: "pending" },
      data: { attempts, runAt: retryAt, lockedUntil: null },
    });
  },
});

/** Claims and handles the claim payouts that are due (one batch). */
export const runDueClaimPayouts = () => runRowJob(claimPayoutJob);

async function handle(row: Claimed): Promise<Handled> {
  if (row.status === "processing") {
    const result = sandboxTransferOutcome(row.amountMinor);
    await settleClaimPayout(row.reference, result.outcome, result.outcome === "failed" ? result.reason : undefined);
    return "done";
  }
  if (row.status !== "pending") return "done";
  let active: PayoutProvider | null = null;
  try {
    active = payoutProviderFor(row.organization.livemode);
  } catch {
    active = null;
  }
  if (!active || row.provider !== active.name) {
    if (row.provider === "sandbox") {
      await settleClaimPayout(row.reference, "failed", "Sandbox payouts are not available on this platform any more");
      return "done";
    }
    logger.error({ claimPayoutId: row.id, provider: row.provider }, "payout provider not configured; claim payout left pending");
    return "later";
  }
  let result: TransferResult;
  try {
    let recipientCode = row.recipientCode;
    if (!recipientCode && active.name !== "sandbox") {
      recipientCode = await active.recipientFor({
        bankCode: row.bankCode,
        accountNumber: unseal(CLAIM_PAYOUT_SEAL, row.accountNumberSealed),
        accountName: row.accountName,
        currency: row.currency,
      });
      await db.claimPayout.update({ where: { id: row.id }, data: { recipientCode } });
    }
    result = await active.transfer({
      reference: row.reference,
      amountMinor: row.amountMinor,
      currency: row.currency,
      recipientCode,
      bankName: row.bankName,
      accountNumberLast4: row.accountNumberLast4,
      reason: `Claim payout ${row.claimId}`,
    });
  } catch (err) {
    logger.warn({ err, claimPayoutId: row.id, attempts: row.attempts + 1 }, "claim payout not sent; will try again");
    return "later";
  }
  if (result.status === "failed") {
    await settleClaimPayout(row.reference, "failed", result.reason);
    return "done";
  }
  await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string }[]>`
      SELECT status::text AS status FROM claim_payout WHERE id = ${row.id} FOR UPDATE`;
    if (locked?.status !== "pending") return; // Paystack's webhook settled it already
    const updated = await tx.claimPayout.update({
      where: { id: row.id },
      data: {
        status: "processing",
        providerTransferCode: result.transferCode,
        attempts: row.attempts + 1,
        runAt: new Date(Date.now() + (active.name === "sandbox" ? env.PAYOUT_DELAY_SECONDS * 1000 : 0)),
        lockedUntil: null,
      },
    });
    await recordEvent(tx, updated.organizationId, "claim_payout.processing", toClaimPayout(updated), updated.claimId);
  });
  return "done";
}
