// Money out. A withdrawal and its ledger debit are written in ONE transaction
// that holds the organization's row lock: concurrent requests of one
// organization check the balance one after another, so it never goes negative.
import crypto from "node:crypto";
import { minorOf } from "@/server/money";
import type { Withdrawal as WithdrawalRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { availableBalance, insufficientFunds, LOCKED_TX, lockOrganizationBalance } from "@/server/ledger/balance";
import { env } from "@/server/env";
import { AppError, notFound, validationError } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { assertKybApproved } from "@/server/kyb/service";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { payoutProviderFor } from "@/server/payouts/provider";
import { minWithdrawalMinor, type ListWithdrawalsQuery, type Withdrawal, type WithdrawInput } from "@/lib/schemas/withdrawals";

export const toWithdrawal = (row: WithdrawalRow): Withdrawal => ({
  id: row.id,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  bankAccountId: row.bankAccountId,
  status: row.status,
  failureReason: row.failureReason,
  createdAt: row.createdAt.toISOString(),
  completedAt: row.completedAt?.toISOString() ?? null,
});

// Paystack accepts lowercase letters, digits, - and _ in a transfer reference.
const newReference = () => `wd_${crypto.randomBytes(16).toString("hex")}`;

export { availableBalance, lockOrganizationBalance } from "@/server/ledger/balance";

/** Who pays it out; the sandbox after a delay (so "pending" can be seen), a real provider's job at once. */
function payoutTiming(now: Date, livemode: boolean) {
  const provider = payoutProviderFor(livemode).name;
  const delayMs = provider === "sandbox" ? env.PAYOUT_DELAY_SECONDS * 1000 : 0;
  return { provider, runAt: new Date(now.getTime() + delayMs) };
}

export async function requestWithdrawal(actor: Actor, input: WithdrawInput): Promise<Withdrawal> {
  assertCan(actor, "admin");
  const orgId = actor.organizationId;
  // The currency's decimals are judged before anything else: a currency changes only while no payment
  // exists, so with any balance to withdraw it is the one read again under the lock below.
  const { currency } = await db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { currency: true } });
  const amount = minorOf(input.amount, currency, "amount");
  if (amount < minWithdrawalMinor(currency)) {
    throw validationError([{ path: "amount", message: `Withdraw at least ${formatMinor(minWithdrawalMinor(currency), currency)}` }]);
  }
  return db.$transaction(
    async (tx) => {
      await lockOrganizationBalance(tx, orgId);
      // The order the SPEC gives: KYB, then the account, then the balance.
      await assertKybApproved(orgId, tx);
      const account = await tx.bankAccount.findFirst({
        where: { id: input.bankAccountId, organizationId: orgId, deletedAt: null },
      });
      if (!account) throw notFound("Bank account");
      if (account.status !== "verified") {
        throw new AppError("bank_account_not_verified", "Only a verified bank account can receive withdrawals");
      }
      const [org, available] = await Promise.all([
        tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { currency: true } }),
        availableBalance(orgId, tx),
      ]);
      if (amount > available || org.currency !== currency) throw insufficientFunds(available, org.currency);

      // Taken after the lock: every entry the balance above counted is older, so
      // replaying the ledger in createdAt order never dips below zero.
      const now = new Date();
      const reference = newReference();
      const row = await tx.withdrawal.create({
        data: {
          organizationId: orgId,
          bankAccountId: account.id,
          amountMinor: amount,
          currency: org.currency,
          reference,
          createdAt: now,
          ...payoutTiming(now, isLive(actor)),
        },
      });
      await tx.ledgerTransaction.create({
        data: {
          organizationId: orgId,
          type: "withdrawal",
          amountMinor: -amount,
          currency: org.currency,
          reference,
          description: `Withdrawal to ${account.bankName} ••••${account.accountNumberLast4}`,
          createdAt: now,
        },
      });
      const withdrawal = toWithdrawal(row);
      await recordEvent(tx, orgId, "withdrawal.requested", withdrawal);
      await audit(tx, orgId, {
        action: "withdrawal.requested",
        resourceType: "withdrawal",
        resourceId: withdrawal.id,
        details: {
          amount: withdrawal.amount,
          currency: withdrawal.currency,
          bankAccountId: account.id,
          bankName: account.bankName,
          accountNumberLast4: account.accountNumberLast4,
        },
      });
      return withdrawal;
    },
    LOCKED_TX,
  );
}

export async function listWithdrawals(actor: Actor, query: ListWithdrawalsQuery): Promise<Page<Withdrawal>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const rows = await db.withdrawal.findMany({
    ...args,
    where: { organizationId: actor.organizationId, ...(query.status ? { status: query.status } : {}), ...args.where },
  });
  return toPage(rows, query, toWithdrawal);
}
