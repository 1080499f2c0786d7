// The one balance lock every outgoing movement takes. Withdrawals, refunds and
// claim payouts each write their ledger debit, their record and their event in
// ONE transaction that first holds the organization's row lock: concurrent
// movements of one organization check the available balance one after
// another, so together they can never take it below zero.
import { displayMoney, formatMinor } from "@/lib/money";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";

/**
 * Takes the organization's balance lock for the rest of the transaction (404
 * when the organization is gone). Every ledger DEBIT must be written under it.
 */
export async function lockOrganizationBalance(tx: Tx, organizationId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM organization WHERE id = ${organizationId} FOR UPDATE`;
  if (rows.length === 0) throw notFound("Organization");
}

/** The organization's available balance: the sum of all its ledger entries, in minor units. */
export async function availableBalance(organizationId: string, client: Tx | typeof db = db): Promise<bigint> {
  const sum = await client.ledgerTransaction.aggregate({ where: { organizationId }, _sum: { amountMinor: true } });
  return sum._sum.amountMinor ?? 0n;
}

export const insufficientFunds = (available: bigint, currency: string) =>
  new AppError("insufficient_funds", `The available balance is ${displayMoney(formatMinor(available, currency), currency)}`);

/** Under the lock: 409 insufficient_funds unless the balance covers `amountMinor`. */
export async function assertBalanceCovers(tx: Tx, organizationId: string, amountMinor: bigint, currency: string): Promise<void> {
  const available = await availableBalance(organizationId, tx);
  if (amountMinor > available) throw insufficientFunds(available, currency);
}

/** Transaction options for a movement under the lock: requests of one organization queue on it rather than time out. */
export const LOCKED_TX = { maxWait: 15_000, timeout: 30_000 } as const;
