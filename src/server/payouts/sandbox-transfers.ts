// The sandbox's transfers: nothing leaves the platform. A transfer is accepted
// at once and settled by the payout job after PAYOUT_DELAY_SECONDS, so a test
// business sees "processing" before "paid" — or "failed" for the amounts below.
import type { TransferRequest, TransferResult } from "./provider";

export const SANDBOX_TRANSFER_FAILURE = "The bank refused the transfer (sandbox: amounts ending in .13 fail)";

export async function sandboxTransfer(_transfer: TransferRequest): Promise<TransferResult> {
  return { status: "processing", transferCode: null };
}

/** How the sandbox's bank answers a transfer: an amount whose minor units end in 13 (e.g. 25.13) is refused. */
export function sandboxTransferOutcome(amountMinor: bigint): { outcome: "paid" } | { outcome: "failed"; reason: string } {
  return amountMinor % 100n === 13n ? { outcome: "failed", reason: SANDBOX_TRANSFER_FAILURE } : { outcome: "paid" };
}
