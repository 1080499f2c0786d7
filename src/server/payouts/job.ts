// The payout job: withdrawals sent to the business's bank account, one kind of
// the job runner (src/server/jobs), in the shape every transfer job has
// (./transfer-job.ts: lease, provider, retries, crash safety).
import type { BankAccount, Withdrawal as WithdrawalRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { recordEvent } from "@/server/events/record";
import { runRowJob } from "@/server/jobs/kind";
import { toWithdrawal } from "@/server/withdrawals/service";
import { settleWithdrawal } from "./settle";
import { TRANSFER_RETRY, transferJob } from "./transfer-job";

/** Seconds before the next try after `attempts` failed calls: 30 s doubling, at most an hour. */
export const payoutRetryDelayS = (attempts: number) => TRANSFER_RETRY.delayS(attempts);

type Claimed = WithdrawalRow & { bankAccount: BankAccount; organization: { livemode: boolean } };

export const payoutJob = transferJob<Claimed>({
  kind: "payout",
  table: "withdrawal",
  noun: "withdrawal",
  load: (ids) =>
    db.withdrawal.findMany({
      where: { id: { in: ids } },
      include: { bankAccount: true, organization: { select: { livemode: true } } },
    }),
  settle: (reference, outcome, reason) => settleWithdrawal(reference, outcome, reason),
  transfer: (provider, row) =>
    provider.transfer({
      reference: row.reference,
      amountMinor: row.amountMinor,
      currency: row.currency,
      recipientCode: row.bankAccount.recipientCode,
      bankName: row.bankAccount.bankName,
      accountNumberLast4: row.bankAccount.accountNumberLast4,
    }),
  markProcessing: (row, provider, transferCode) =>
    db.$transaction(async (tx) => {
      // Paystack's webhook may have settled it already, between its answer and this.
      const [locked] = await tx.$queryRaw<{ status: string }[]>`
        SELECT status::text AS status FROM withdrawal WHERE id = ${row.id} FOR UPDATE`;
      if (locked?.status !== "pending") return;
      const updated = await tx.withdrawal.update({
        where: { id: row.id },
        data: {
          status: "processing",
          providerTransferCode: transferCode,
          attempts: row.attempts + 1,
          // The sandbox settles when due again; Paystack's webhook settles the others whenever it comes.
          runAt: new Date(Date.now() + (provider.name === "sandbox" ? env.PAYOUT_DELAY_SECONDS * 1000 : 0)),
          lockedUntil: null,
        },
      });
      await recordEvent(tx, updated.organizationId, "withdrawal.processing", toWithdrawal(updated));
    }),
  // Still pending, tried again after the backoff.
  retryLater: async (row, attempts, retryAt) => {
    await db.withdrawal.updateMany({
      where: { id: row.id, status: "pending" },
      data: { attempts, runAt: retryAt, lockedUntil: null },
    });
  },
});

/** Claims and handles the withdrawals that are due (one batch). Returns how many it claimed. */
export const runDuePayouts = () => runRowJob(payoutJob);
