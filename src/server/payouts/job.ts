// The payout job, one kind of the job runner (src/server/jobs). Due
// withdrawals are claimed with the runner's lease (FOR UPDATE SKIP LOCKED plus
// lockedUntil), so two runners never handle one row at once and a crashed
// runner's row comes back when its lease runs out.
//
// pending → the provider's transfer → processing (or failed, money back);
// a sandbox processing row is settled here when due again; a Paystack one by
// Paystack's webhook (paystack-transfer-events.ts). A crash between the
// provider's answer and our update cannot pay twice: the transfer reference is
// the withdrawal's reference, and Paystack refuses a reference twice (see
// paystack-transfers.ts for how the retry learns the first transfer's fate).
import { Prisma, type BankAccount, type Withdrawal as WithdrawalRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { recordEvent } from "@/server/events/record";
import { rowJob, runRowJob } from "@/server/jobs/kind";
import { backoff } from "@/server/jobs/retry";
import { logger } from "@/server/logger";
import { toWithdrawal } from "@/server/withdrawals/service";
import { payoutProviderFor, type PayoutProvider, type TransferResult } from "./provider";
import { sandboxTransferOutcome } from "./sandbox-transfers";
import { settleWithdrawal } from "./settle";

const BATCH = 20;
/** Longer than a transfer call and its verify fallback (15 s each). */
const LEASE_MS = 60_000;

/** The provider could not be asked: 30 s doubling, at most an hour, never given up (the money is held meanwhile). */
const PAYOUT_RETRY = backoff(30, 3600);

/** Seconds before the next try after `attempts` failed calls: 30 s doubling, at most an hour. */
export const payoutRetryDelayS = (attempts: number) => PAYOUT_RETRY.delayS(attempts);

type Claimed = WithdrawalRow & { bankAccount: BankAccount; organization: { livemode: boolean } };
/** "done": the row moved on (processing, paid, failed); "later": the provider could not be asked. */
type Handled = "done" | "later";

export const payoutJob = rowJob<Claimed, Handled>({
  kind: "payout",
  table: "withdrawal",
  where: Prisma.sql`status = 'pending' OR (status = 'processing' AND provider = 'sandbox')`,
  batch: BATCH,
  leaseMs: () => LEASE_MS,
  retry: {
    ...PAYOUT_RETRY,
    whenExhausted: "never: a pending withdrawal is tried again at most an hour apart until the provider answers",
    exhausted: async () => {},
  },
  load: (ids) =>
    db.withdrawal.findMany({
      where: { id: { in: ids } },
      include: { bankAccount: true, organization: { select: { livemode: true } } },
    }),
  failures: (row) => row.attempts,
  attempt: handle,
  failureOf: (handled) => (handled === "later" ? {} : null),
  succeeded: async () => {},
  // Still pending, tried again after the backoff.
  retrying: async (row, _handled, attempts, retryAt) => {
    await db.withdrawal.updateMany({
      where: { id: row.id, status: "pending" },
      data: { attempts, runAt: retryAt, lockedUntil: null },
    });
  },
});

/** Claims and handles the withdrawals that are due (one batch). Returns how many it claimed. */
export const runDuePayouts = () => runRowJob(payoutJob);

async function handle(row: Claimed): Promise<Handled> {
  if (row.status === "processing") {
    const result = sandboxTransferOutcome(row.amountMinor);
    await settleWithdrawal(row.reference, result.outcome, result.outcome === "failed" ? result.reason : undefined);
    return "done";
  }
  if (row.status !== "pending") return "done";
  // A test withdrawal is always the sandbox's; a live one goes through the live provider.
  let active: PayoutProvider | null = null;
  try {
    active = payoutProviderFor(row.organization.livemode);
  } catch {
    active = null;
  }
  if (!active || row.provider !== active.name) {
    if (row.provider === "sandbox") {
      // The sandbox never moved money, so failing (and refunding) it cannot pay twice.
      await settleWithdrawal(row.reference, "failed", "Sandbox payouts are not available on this platform any more");
      return "done";
    }
    logger.error({ reference: row.reference, provider: row.provider }, "payout provider not configured; withdrawal left pending");
    return "later";
  }
  let result: TransferResult;
  try {
    result = await transferOf(active, row);
  } catch (err) {
    logger.warn({ err, reference: row.reference, attempts: row.attempts + 1 }, "payout transfer not sent; will try again");
    return "later";
  }
  if (result.status === "failed") {
    await settleWithdrawal(row.reference, "failed", result.reason);
    return "done";
  }
  await markProcessing(row, active.name, result.transferCode);
  return "done";
}

const transferOf = (provider: PayoutProvider, row: Claimed) =>
  provider.transfer({
    reference: row.reference,
    amountMinor: row.amountMinor,
    currency: row.currency,
    recipientCode: row.bankAccount.recipientCode,
    bankName: row.bankAccount.bankName,
    accountNumberLast4: row.bankAccount.accountNumberLast4,
  });

async function markProcessing(row: Claimed, provider: string, transferCode: string | null) {
  await db.$transaction(async (tx) => {
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
        runAt: new Date(Date.now() + (provider === "sandbox" ? env.PAYOUT_DELAY_SECONDS * 1000 : 0)),
        lockedUntil: null,
      },
    });
    await recordEvent(tx, updated.organizationId, "withdrawal.processing", toWithdrawal(updated));
  });
}
