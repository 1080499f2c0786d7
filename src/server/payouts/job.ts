// The payout job, run by the worker (src/server/webhooks/worker.ts workOnce).
// Due withdrawals are claimed like webhook tasks: FOR UPDATE SKIP LOCKED plus
// a lease (lockedUntil), so two workers never handle one row at once and a
// crashed worker's row comes back when its lease runs out.
//
// pending → the provider's transfer → processing (or failed, money back);
// a sandbox processing row is settled here when due again; a Paystack one by
// Paystack's webhook (paystack-transfer-events.ts). A crash between the
// provider's answer and our update cannot pay twice: the transfer reference is
// the withdrawal's reference, and Paystack refuses a reference twice (see
// paystack-transfers.ts for how the retry learns the first transfer's fate).
import type { BankAccount, Withdrawal as WithdrawalRow } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { recordEvent } from "@/server/events/record";
import { logger } from "@/server/logger";
import { toWithdrawal } from "@/server/withdrawals/service";
import { payoutProviderFor, type PayoutProvider, type TransferResult } from "./provider";
import { sandboxTransferOutcome } from "./sandbox-transfers";
import { settleWithdrawal } from "./settle";

const BATCH = 20;
/** Longer than a transfer call and its verify fallback (15 s each). */
const LEASE_MS = 60_000;

/** Seconds before the next try after `attempts` failed calls: 30 s doubling, at most an hour. */
export const payoutRetryDelayS = (attempts: number) => Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);

type Claimed = WithdrawalRow & { bankAccount: BankAccount; organization: { livemode: boolean } };

/** Claims and handles the withdrawals that are due. Returns how many it handled. */
export async function runDuePayouts(): Promise<number> {
  const ids = await db.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM withdrawal
      WHERE (status = 'pending' OR (status = 'processing' AND provider = 'sandbox'))
        AND "runAt" <= now() AND ("lockedUntil" IS NULL OR "lockedUntil" < now())
      ORDER BY "runAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
    if (due.length) {
      await tx.withdrawal.updateMany({
        where: { id: { in: due.map((d) => d.id) } },
        data: { lockedUntil: new Date(Date.now() + LEASE_MS) },
      });
    }
    return due.map((d) => d.id);
  });
  if (ids.length === 0) return 0;
  const rows = await db.withdrawal.findMany({
    where: { id: { in: ids } },
    include: { bankAccount: true, organization: { select: { livemode: true } } },
  });
  await Promise.all(
    rows.map((row) =>
      handle(row).catch((err: unknown) => logger.error({ err, reference: row.reference }, "payout job failed on a withdrawal")),
    ),
  );
  return rows.length;
}

async function handle(row: Claimed): Promise<void> {
  if (row.status === "processing") {
    const result = sandboxTransferOutcome(row.amountMinor);
    await settleWithdrawal(row.reference, result.outcome, result.outcome === "failed" ? result.reason : undefined);
    return;
  }
  if (row.status !== "pending") return;
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
    } else {
      logger.error(
        { reference: row.reference, provider: row.provider },
        "payout provider not configured; withdrawal left pending",
      );
      await later(row);
    }
    return;
  }
  let result: TransferResult;
  try {
    result = await transferOf(active, row);
  } catch (err) {
    logger.warn({ err, reference: row.reference, attempts: row.attempts + 1 }, "payout transfer not sent; will try again");
    await later(row);
    return;
  }
  if (result.status === "failed") {
    await settleWithdrawal(row.reference, "failed", result.reason);
    return;
  }
  await markProcessing(row, active.name, result.transferCode);
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

/** The provider could not be asked: still pending, tried again after a backoff. */
async function later(row: Claimed) {
  const attempts = row.attempts + 1;
  await db.withdrawal.updateMany({
    where: { id: row.id, status: "pending" },
    data: { attempts, runAt: new Date(Date.now() + payoutRetryDelayS(attempts) * 1000), lockedUntil: null },
  });
}

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
