// Platform admin view of money out: every organization's withdrawals, and the
// retry of a failed one.
//
// A retry gets a NEW reference (src/server/payouts/references.ts): Paystack
// refuses a transfer reference it has seen, and each ledger debit/reversal pair
// keeps a reference of its own.
import { M } from "@/lib/messages";
import type { Prisma } from "@/generated/prisma/client";
import { displayMoney, formatMinor } from "@/lib/money";
import { auditAs, userAuditor } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { decodeCursor, pageArgs, toPage, type Page } from "@/server/pagination";
import { retryReference } from "@/server/payouts/references";
import { availableBalance, lockOrganizationBalance, toWithdrawal } from "@/server/withdrawals/service";
import type { PayoutItem, PayoutsInput } from "@/lib/schemas/admin-payouts";
import type { PlatformAdmin } from "./service";

// One query per relation for the whole page (Prisma batches `include`): no N+1.
const withNames = {
  organization: { select: { name: true } },
  bankAccount: { select: { bankName: true, accountNumberLast4: true, status: true, deletedAt: true } },
} satisfies Prisma.WithdrawalInclude;
type Row = Prisma.WithdrawalGetPayload<{ include: typeof withNames }>;

const toPayoutItem = (row: Row): PayoutItem => ({
  id: row.id,
  organizationId: row.organizationId,
  organizationName: row.organization.name,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  status: row.status,
  failureReason: row.failureReason,
  bankName: row.bankAccount.bankName,
  accountNumberLast4: row.bankAccount.accountNumberLast4,
  createdAt: row.createdAt.toISOString(),
  completedAt: row.completedAt?.toISOString() ?? null,
});

/** Every organization's live withdrawals, newest first. */
export async function listPayouts(_admin: PlatformAdmin, query: PayoutsInput): Promise<Page<PayoutItem>> {
  const cursor = query.cursor ?? undefined;
  if (cursor && !decodeCursor(cursor)) {
    throw new AppError("invalid_query", "cursor: is not a cursor from this API", {
      errors: [{ path: "cursor", message: M.cursor }],
    });
  }
  const page = { limit: query.limit, cursor };
  const args = pageArgs(page);
  const rows = await db.withdrawal.findMany({
    ...args,
    // Live money only: test-mode payouts are the sandbox's and settle themselves.
    where: { organization: { livemode: true }, ...(query.status ? { status: query.status } : {}), ...args.where },
    include: withNames,
  });
  return toPage(rows, page, toPayoutItem);
}

/**
 * Sends a failed withdrawal again: under the organization's balance lock (like
 * a new withdrawal) the balance must still cover it, the amount is debited
 * again under the new reference, and the job picks it up at once.
 */
export async function retryPayout(admin: PlatformAdmin, id: string): Promise<PayoutItem> {
  return db.$transaction(
    async (tx) => {
      const owner = await tx.withdrawal.findUnique({ where: { id }, select: { organizationId: true } });
      if (!owner) throw notFound("Withdrawal");
      await lockOrganizationBalance(tx, owner.organizationId);
      await tx.$queryRaw`SELECT id FROM withdrawal WHERE id = ${id} FOR UPDATE`;
      const row = await tx.withdrawal.findUniqueOrThrow({ where: { id }, include: withNames });
      if (row.status !== "failed")
        throw new AppError("invalid_state", `Only a failed withdrawal can be retried; this one is ${row.status}`);
      if (row.bankAccount.deletedAt || row.bankAccount.status !== "verified") {
        throw new AppError("bank_account_not_verified", "The withdrawal's bank account is no longer a verified account");
      }
      const available = await availableBalance(row.organizationId, tx);
      if (available < row.amountMinor) {
        throw new AppError("insufficient_funds", `The available balance is ${displayMoney(formatMinor(available, row.currency), row.currency)}`);
      }
      const now = new Date();
      const reference = retryReference(row.reference);
      await tx.ledgerTransaction.create({
        data: {
          organizationId: row.organizationId,
          type: "withdrawal",
          amountMinor: -row.amountMinor,
          currency: row.currency,
          reference,
          description: `Withdrawal to ${row.bankAccount.bankName} ••••${row.bankAccount.accountNumberLast4} (sent again)`,
          createdAt: now,
        },
      });
      const updated = await tx.withdrawal.update({
        where: { id },
        data: {
          status: "pending",
          reference,
          failureReason: null,
          completedAt: null,
          providerTransferCode: null,
          attempts: 0,
          runAt: now,
          lockedUntil: null,
          retriedById: admin.userId,
          retriedAt: now,
        },
        include: withNames,
      });
      const { organization: _o, bankAccount: _b, ...withdrawal } = updated;
      await recordEvent(tx, row.organizationId, "withdrawal.requested", { ...toWithdrawal(withdrawal), retried: true });
      // In the business's log, by the platform admin who sent it again (whatever the request's context says).
      await auditAs(tx, row.organizationId, await userAuditor(tx, admin.userId), {
        action: "withdrawal.retried",
        resourceType: "withdrawal",
        resourceId: row.id,
        details: {
          reference,
          previousReference: row.reference,
          amount: formatMinor(row.amountMinor, row.currency),
          currency: row.currency,
          bankName: row.bankAccount.bankName,
          accountNumberLast4: row.bankAccount.accountNumberLast4,
        },
      });
      return toPayoutItem(updated);
    },
    { maxWait: 15_000, timeout: 30_000 },
  );
}
