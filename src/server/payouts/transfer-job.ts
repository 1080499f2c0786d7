// The one shape of a job that sends money to a bank account: withdrawals
// (./job.ts) and claim payouts (src/server/claim-payouts/job.ts). Due rows are
// claimed with the runner's lease (FOR UPDATE SKIP LOCKED plus lockedUntil),
// so two runners never handle one row at once and a crashed runner's row
// comes back when its lease runs out.
//
// pending → the provider's transfer → processing (or failed, money back); a
// sandbox processing row is settled here when due again, a Paystack one by
// Paystack's webhook (paystack-transfer-events.ts). A crash between the
// provider's answer and our update cannot pay twice: the transfer reference is
// the row's reference, and Paystack refuses a reference twice (see
// paystack-transfers.ts for how the retry learns the first transfer's fate).
import { Prisma } from "@/generated/prisma/client";
import { rowJob, type JobTable } from "@/server/jobs/kind";
import { backoff } from "@/server/jobs/retry";
import { logger } from "@/server/logger";
import { payoutProviderFor, type PayoutProvider, type TransferResult } from "./provider";
import { sandboxTransferOutcome } from "./sandbox-transfers";
import type { PayoutOutcome } from "./settle";

const BATCH = 20;
/** Longer than a transfer call and its verify fallback (15 s each). */
const LEASE_MS = 60_000;

/** The provider could not be asked: 30 s doubling, at most an hour, never given up (the money is held meanwhile). */
export const TRANSFER_RETRY = backoff(30, 3600);

export interface TransferRow {
  id: string;
  status: string;
  provider: string;
  reference: string;
  amountMinor: bigint;
  attempts: number;
  organization: { livemode: boolean };
}

/** "done": the row moved on (processing, paid, failed); "later": the provider could not be asked. */
type Handled = "done" | "later";

export function transferJob<Row extends TransferRow>(opts: {
  kind: string;
  lane?: string;
  table: Extract<JobTable, "withdrawal" | "claim_payout">;
  /** What the logs call one row. */
  noun: string;
  load(ids: string[]): Promise<Row[]>;
  /** Settles the row by its reference (one transaction: status, reversal on failure, events). */
  settle(reference: string, outcome: PayoutOutcome, reason?: string): Promise<unknown>;
  /** Sends the row's money through the provider (a recipient first where it needs one). Throws when the provider cannot answer now. */
  transfer(provider: PayoutProvider, row: Row): Promise<TransferResult>;
  /** Accepted by the provider: the row becomes processing (unless a webhook settled it meanwhile). */
  markProcessing(row: Row, provider: PayoutProvider, transferCode: string | null): Promise<void>;
  /** Still pending after a failed call: tried again at `retryAt`. */
  retryLater(row: Row, attempts: number, retryAt: Date): Promise<void>;
}) {
  async function handle(row: Row): Promise<Handled> {
    if (row.status === "processing") {
      const result = sandboxTransferOutcome(row.amountMinor);
      await opts.settle(row.reference, result.outcome, result.outcome === "failed" ? result.reason : undefined);
      return "done";
    }
    if (row.status !== "pending") return "done";
    // A test row is always the sandbox's; a live one goes through the live provider.
    let active: PayoutProvider | null = null;
    try {
      active = payoutProviderFor(row.organization.livemode);
    } catch {
      active = null;
    }
    if (!active || row.provider !== active.name) {
      if (row.provider === "sandbox") {
        // The sandbox never moved money, so failing (and crediting back) it cannot pay twice.
        await opts.settle(row.reference, "failed", "Sandbox payouts are not available on this platform any more");
        return "done";
      }
      logger.error({ id: row.id, provider: row.provider }, `payout provider not configured; ${opts.noun} left pending`);
      return "later";
    }
    let result: TransferResult;
    try {
      result = await opts.transfer(active, row);
    } catch (err) {
      logger.warn({ err, id: row.id, attempts: row.attempts + 1 }, `${opts.noun} transfer not sent; will try again`);
      return "later";
    }
    if (result.status === "failed") {
      await opts.settle(row.reference, "failed", result.reason);
      return "done";
    }
    await opts.markProcessing(row, active, result.transferCode);
    return "done";
  }

  return rowJob<Row, Handled>({
    kind: opts.kind,
    ...(opts.lane ? { lane: opts.lane } : {}),
    table: opts.table,
    where: Prisma.sql`status = 'pending' OR (status = 'processing' AND provider = 'sandbox')`,
    batch: BATCH,
    leaseMs: () => LEASE_MS,
    retry: {
      ...TRANSFER_RETRY,
      whenExhausted: `never: a pending ${opts.noun} is tried again at most an hour apart until the provider answers`,
      exhausted: async () => {},
    },
    load: opts.load,
    failures: (row) => row.attempts,
    attempt: handle,
    failureOf: (handled) => (handled === "later" ? {} : null),
    succeeded: async () => {},
    retrying: (row, _handled, attempts, retryAt) => opts.retryLater(row, attempts, retryAt),
  });
}
