// Settling a withdrawal is ONE transaction on its locked row: the new status,
// on failure the reversal that puts the amount back in the balance, and the
// event. Only a pending or processing withdrawal settles; a second settlement
// (a redelivered webhook, a second worker) finds it settled and does nothing.
import type { Withdrawal as WithdrawalRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { auditAsSystem } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { recordEvent } from "@/server/events/record";
import { toWithdrawal } from "@/server/withdrawals/service";

/**
 * "reversed": the provider took back a transfer it had reported paid (Paystack's
 * transfer.reversed). The money came back to the platform, so it goes back to
 * the business exactly like a failure — also from `paid`.
 */
export type PayoutOutcome = "paid" | "failed" | "reversed";

export interface SettleOptions {
  /** Only a withdrawal paid out through this provider settles (a Paystack event never touches a sandbox row). */
  provider?: string;
  now?: Date;
}

/** The withdrawal as settled (or as it already was), null when no withdrawal has this reference. */
export async function settleWithdrawal(
  reference: string,
  outcome: PayoutOutcome,
  reason?: string,
  { provider, now = new Date() }: SettleOptions = {},
): Promise<WithdrawalRow | null> {
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string; status: string; provider: string }[]>`
      SELECT id, status::text AS status, provider FROM withdrawal WHERE reference = ${reference} FOR UPDATE`;
    if (!locked || (provider && locked.provider !== provider)) return null;
    const from = outcome === "reversed" ? ["pending", "processing", "paid"] : ["pending", "processing"];
    if (!from.includes(locked.status)) return tx.withdrawal.findUniqueOrThrow({ where: { id: locked.id } });

    if (outcome === "paid") {
      const row = await tx.withdrawal.update({
        where: { id: locked.id },
        data: { status: "paid", completedAt: now, lockedUntil: null },
      });
      await recordEvent(tx, row.organizationId, "withdrawal.paid", toWithdrawal(row));
      // The provider's outcome (its webhook, the payout job): the system's.
      await auditAsSystem(tx, row.organizationId, {
        action: "withdrawal.paid",
        resourceType: "withdrawal",
        resourceId: row.id,
        details: { reference, amount: formatMinor(row.amountMinor, row.currency), currency: row.currency },
      });
      return row;
    }

    const failureReason = reason ?? (outcome === "reversed" ? "The provider reversed the transfer" : "The transfer failed");
    const row = await tx.withdrawal.update({
      where: { id: locked.id },
      data: { status: "failed", failureReason, completedAt: now, lockedUntil: null },
      include: { bankAccount: { select: { bankName: true, accountNumberLast4: true } } },
    });
    // Same reference as the debit: the pair nets to zero in the ledger.
    await tx.ledgerTransaction.create({
      data: {
        organizationId: row.organizationId,
        type: "withdrawal_reversal",
        amountMinor: row.amountMinor,
        currency: row.currency,
        reference,
        description: `Withdrawal to ${row.bankAccount.bankName} ••••${row.bankAccount.accountNumberLast4} failed: ${failureReason}`,
        createdAt: now,
      },
    });
    const { bankAccount: _bank, ...withdrawal } = row;
    await recordEvent(tx, row.organizationId, "withdrawal.failed", toWithdrawal(withdrawal));
    // Reversed: the provider took back a transfer it had reported paid; else it failed. The money is back either way.
    await auditAsSystem(tx, row.organizationId, {
      action: locked.status === "paid" ? "withdrawal.reversed" : "withdrawal.failed",
      resourceType: "withdrawal",
      resourceId: row.id,
      details: {
        reference,
        amount: formatMinor(row.amountMinor, row.currency),
        currency: row.currency,
        bankName: row.bankAccount.bankName,
        accountNumberLast4: row.bankAccount.accountNumberLast4,
        failureReason,
      },
    });
    return withdrawal;
  });
}
