// Settling a claim payout is ONE transaction on its locked row. Paid: the
// payout paid, and the claim (approved) becomes paid — its history row and the
// claim.updated + claim.paid events. Failed: the claim_payout_reversal that
// puts the amount back in the balance (same reference as the debit), the
// claim left approved to be paid again. Reversed by the provider after it
// said paid: the money is back, so is the claim (paid → approved).
// Only a pending or processing payout settles (a reversal also from paid); a
// second settlement finds it settled and does nothing.
import type { ClaimPayout as PayoutRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { auditAsSystem } from "@/server/audit/record";
import { recordClaimMove, toClaim } from "@/server/claims/service";
import { db, type Tx } from "@/server/db/client";
import { recordEvent } from "@/server/events/record";
import type { PayoutOutcome, SettleOptions } from "@/server/payouts/settle";
import { toClaimPayout } from "./service";

async function moveClaim(tx: Tx, payout: PayoutRow, from: "approved" | "paid", to: "approved" | "paid", note: string) {
  const [claim] = await tx.$queryRaw<
    { status: string }[]
  >`SELECT status::text AS status FROM claim WHERE id = ${payout.claimId} FOR UPDATE`;
  if (claim?.status !== from) return;
  const updated = await tx.claim.update({
    where: { id: payout.claimId },
    data: {
      status: to,
      history: { create: { organizationId: payout.organizationId, fromStatus: from, toStatus: to, note } },
    },
  });
  const moved = toClaim(updated);
  await recordClaimMove(tx, payout.organizationId, moved, from);
  // Moved by the payout's outcome (the provider's webhook, the payout job): the system's.
  await auditAsSystem(tx, payout.organizationId, {
    action: "claim.status_changed",
    resourceType: "claim",
    resourceId: moved.id,
    details: { from, to, approvedAmount: moved.approvedAmount, currency: moved.currency, note, claimPayoutId: payout.id },
  });
}

/** What the audit log keeps of a settled payout (the account's last 4 digits only). */
const payoutDetails = (row: PayoutRow) => ({
  claimId: row.claimId,
  reference: row.reference,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  bankName: row.bankName,
  accountNumberLast4: row.accountNumberLast4,
});

/** The payout as settled (or as it already was), null when no claim payout has this reference. */
export async function settleClaimPayout(
  reference: string,
  outcome: PayoutOutcome,
  reason?: string,
  { provider, now = new Date() }: SettleOptions = {},
): Promise<PayoutRow | null> {
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string; status: string; provider: string }[]>`
      SELECT id, status::text AS status, provider FROM claim_payout WHERE reference = ${reference} FOR UPDATE`;
    if (!locked || (provider && locked.provider !== provider)) return null;
    const from = outcome === "reversed" ? ["pending", "processing", "paid"] : ["pending", "processing"];
    if (!from.includes(locked.status)) return tx.claimPayout.findUniqueOrThrow({ where: { id: locked.id } });

    if (outcome === "paid") {
      const row = await tx.claimPayout.update({
        where: { id: locked.id },
        data: { status: "paid", paidAt: now, completedAt: now, lockedUntil: null },
      });
      await auditAsSystem(tx, row.organizationId, {
        action: "claim_payout.paid",
        resourceType: "claim_payout",
        resourceId: row.id,
        details: payoutDetails(row),
      });
      await moveClaim(tx, row, "approved", "paid", `Paid to ${row.accountName}, ${row.bankName} ••••${row.accountNumberLast4}`);
      return row;
    }

    const failureReason = reason ?? (outcome === "reversed" ? "The provider reversed the transfer" : "The transfer failed");
    const row = await tx.claimPayout.update({
      where: { id: locked.id },
      data: { status: "failed", failureReason, completedAt: now, lockedUntil: null },
    });
    await tx.ledgerTransaction.create({
      data: {
        organizationId: row.organizationId,
        type: "claim_payout_reversal",
        amountMinor: row.amountMinor,
        currency: row.currency,
        reference,
        description: `Claim payout to ${row.accountName}, ${row.bankName} ••••${row.accountNumberLast4} failed: ${failureReason}`,
        createdAt: now,
      },
    });
    await auditAsSystem(tx, row.organizationId, {
      action: locked.status === "paid" ? "claim_payout.reversed" : "claim_payout.failed",
      resourceType: "claim_payout",
      resourceId: row.id,
      details: { ...payoutDetails(row), failureReason },
    });
    if (locked.status === "paid") await moveClaim(tx, row, "paid", "approved", `The payout was reversed: ${failureReason}`);
    await recordEvent(tx, row.organizationId, "claim_payout.failed", toClaimPayout(row), row.claimId);
    return row;
  });
}
