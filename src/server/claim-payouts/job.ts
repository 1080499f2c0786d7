// The claim payout job: approved claims sent to the claimant's bank account,
// in the payout lane and the shape every transfer job has
// (src/server/payouts/transfer-job.ts). On Paystack a payout gets its
// transfer recipient (from bank code and number) before its first transfer.
import type { ClaimPayout as PayoutRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { recordEvent } from "@/server/events/record";
import { runRowJob } from "@/server/jobs/kind";
import { transferJob } from "@/server/payouts/transfer-job";
import { unseal } from "@/server/seal";
import { CLAIM_PAYOUT_SEAL, toClaimPayout } from "./service";
import { settleClaimPayout } from "./settle";

type Claimed = PayoutRow & { organization: { livemode: boolean } };

export const claimPayoutJob = transferJob<Claimed>({
  kind: "claim_payout",
  lane: "payout",
  table: "claim_payout",
  noun: "claim payout",
  load: (ids) =>
    db.claimPayout.findMany({ where: { id: { in: ids } }, include: { organization: { select: { livemode: true } } } }),
  settle: (reference, outcome, reason) => settleClaimPayout(reference, outcome, reason),
  transfer: async (provider, row) => {
    let recipientCode = row.recipientCode;
    if (!recipientCode && provider.name !== "sandbox") {
      recipientCode = await provider.recipientFor({
        bankCode: row.bankCode,
        accountNumber: unseal(CLAIM_PAYOUT_SEAL, row.accountNumberSealed),
        accountName: row.accountName,
        currency: row.currency,
      });
      await db.claimPayout.update({ where: { id: row.id }, data: { recipientCode } });
    }
    return provider.transfer({
      reference: row.reference,
      amountMinor: row.amountMinor,
      currency: row.currency,
      recipientCode,
      bankName: row.bankName,
      accountNumberLast4: row.accountNumberLast4,
      reason: `Claim payout ${row.claimId}`,
    });
  },
  markProcessing: (row, provider, transferCode) =>
    db.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ status: string }[]>`
        SELECT status::text AS status FROM claim_payout WHERE id = ${row.id} FOR UPDATE`;
      if (locked?.status !== "pending") return; // Paystack's webhook settled it already
      const updated = await tx.claimPayout.update({
        where: { id: row.id },
        data: {
          status: "processing",
          providerTransferCode: transferCode,
          attempts: row.attempts + 1,
          runAt: new Date(Date.now() + (provider.name === "sandbox" ? env.PAYOUT_DELAY_SECONDS * 1000 : 0)),
          lockedUntil: null,
        },
      });
      await recordEvent(tx, updated.organizationId, "claim_payout.processing", toClaimPayout(updated), updated.claimId);
    }),
  retryLater: async (row, attempts, retryAt) => {
    await db.claimPayout.updateMany({
      where: { id: row.id, status: "pending" },
      data: { attempts, runAt: retryAt, lockedUntil: null },
    });
  },
});

/** Claims and handles the claim payouts that are due (one batch). */
export const runDueClaimPayouts = () => runRowJob(claimPayoutJob);
