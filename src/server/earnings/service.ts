// What a business earned and where it went. Every figure is an aggregate over
// the ledger (append-only) or the withdrawals, a handful of queries whatever
// the number of rows.
import type { LedgerTransaction as LedgerRow } from "@/generated/prisma/client";
import { M } from "@/lib/messages";
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { db, type Tx } from "@/server/db/client";
import { validationError } from "@/server/errors";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { minWithdrawalMinor } from "@/lib/schemas/withdrawals";
import {
  dayEnd,
  dayStart,
  MAX_SERIES_DAYS,
  type EarningsOverview,
  type EarningsSeries,
  type LedgerTransaction,
  type ListTransactionsQuery,
  type SeriesQuery,
  type WithdrawState,
} from "@/lib/schemas/earnings";

const DAY_MS = 86_400_000;
const DEFAULT_SERIES_DAYS = 30;

/** The organization's currency. */
export const currencyOf = async (organizationId: string) =>
  (await db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { currency: true } })).currency;

/**
 * The overview's figures in minor units (also what the ledger check compares against). Read from the
 * ledger's day sums (ledger_daily, kept at each entry's commit) rather than every entry: at 1 M payments
 * summing the entries took ~1 s a page. The rolling 30-day windows end at an instant, not a day, so their
 * boundary days are summed from the entries themselves and the days between from the day sums.
 */
export async function earningsTotals(organizationId: string, now = new Date(), client: Tx | typeof db = db) {
  const d30 = new Date(now.getTime() - 30 * DAY_MS);
  const d60 = new Date(now.getTime() - 60 * DAY_MS);
  const [day30, day60, today] = [isoDay(d30), isoDay(d60), isoDay(now)];
  const [byType, byStatus, [recent]] = await Promise.all([
    client.ledgerDaily.groupBy({ by: ["type"], where: { organizationId }, _sum: { amountMinor: true } }),
    client.withdrawal.groupBy({ by: ["status"], where: { organizationId }, _sum: { amountMinor: true } }),
    client.$queryRaw<{ last: bigint; previous: bigint }[]>`
      SELECT
        (SELECT coalesce(sum("amountMinor"), 0) FROM ledger_daily
          WHERE "organizationId" = ${organizationId} AND type IN ('payment', 'fee')
            AND day > ${day30}::date AND day < ${today}::date)
        + (SELECT coalesce(sum("amountMinor"), 0) FROM ledger_transaction
          WHERE "organizationId" = ${organizationId} AND type IN ('payment', 'fee')
            AND "createdAt" > ${d30} AND "createdAt" <= ${now}
            AND ("createdAt" < (${day30}::date + 1)::timestamp OR "createdAt" >= ${today}::date::timestamp)) AS last,
        (SELECT coalesce(sum("amountMinor"), 0) FROM ledger_daily
          WHERE "organizationId" = ${organizationId} AND type IN ('payment', 'fee')
            AND day > ${day60}::date AND day < ${day30}::date)
        + (SELECT coalesce(sum("amountMinor"), 0) FROM ledger_transaction
          WHERE "organizationId" = ${organizationId} AND type IN ('payment', 'fee')
            AND "createdAt" > ${d60} AND "createdAt" <= ${d30}
            AND ("createdAt" < (${day60}::date + 1)::timestamp OR "createdAt" >= ${day30}::date::timestamp)) AS previous`,
  ]);
  const ofType = (t: string) => byType.find((r) => r.type === t)?._sum.amountMinor ?? 0n;
  const ofStatus = (s: string) => byStatus.find((r) => r.status === s)?._sum.amountMinor ?? 0n;
  return {
    totalEarned: ofType("payment"),
    platformFees: -ofType("fee"),
    availableBalance: byType.reduce((sum, r) => sum + (r._sum.amountMinor ?? 0n), 0n),
    pendingWithdrawals: ofStatus("pending") + ofStatus("processing"),
    totalWithdrawn: ofStatus("paid"),
    totalRefunded: -(ofType("refund") + ofType("refund_reversal")),
    totalClaimsPaid: -(ofType("claim_payout") + ofType("claim_payout_reversal")),
    last30Net: BigInt(recent?.last ?? 0n),
    previous30Net: BigInt(recent?.previous ?? 0n),
  };
}

export async function getEarningsOverview(actor: Actor, now = new Date()): Promise<EarningsOverview> {
  assertCan(actor, "read");
  const [currency, t] = await Promise.all([currencyOf(actor.organizationId), earningsTotals(actor.organizationId, now)]);
  return {
    currency,
    totalEarned: formatMinor(t.totalEarned, currency),
    platformFees: formatMinor(t.platformFees, currency),
    availableBalance: formatMinor(t.availableBalance, currency),
    pendingWithdrawals: formatMinor(t.pendingWithdrawals, currency),
    totalWithdrawn: formatMinor(t.totalWithdrawn, currency),
    totalRefunded: formatMinor(t.totalRefunded, currency),
    totalClaimsPaid: formatMinor(t.totalClaimsPaid, currency),
    last30Days: { net: formatMinor(t.last30Net, currency), previous30DaysNet: formatMinor(t.previous30Net, currency) },
  };
}

export const toLedgerTransaction = (
  row: LedgerRow,
  balanceAfter: bigint | null = null,
  /** The fee folded into a payment's row (fees=folded), as the fee entries' sum (negative). */
  foldedFee: bigint | null = null,
): LedgerTransaction => ({
  id: row.id,
  type: row.type,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  reference: row.reference,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
  balanceAfter: balanceAfter === null ? null : formatMinor(balanceAfter, row.currency),
  fee: foldedFee === null ? null : formatMinor(-foldedFee, row.currency),
  net: foldedFee === null ? null : formatMinor(row.amountMinor + foldedFee, row.currency),
});

export async function listTransactions(actor: Actor, query: ListTransactionsQuery): Promise<Page<LedgerTransaction>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const createdAt = {
    ...(query.from ? { gte: dayStart(query.from) } : {}),
    ...(query.to ? { lt: dayEnd(query.to) } : {}),
  };
  // Folded: one row per payment, its fee entries (same reference, written in the same transaction) on it.
  const folded = query.fees === "folded" && query.type !== "fee";
  const rows = await db.ledgerTransaction.findMany({
    ...args,
    where: {
      AND: [
        { organizationId: actor.organizationId },
        query.type ? { type: query.type } : folded ? { type: { not: "fee" } } : {},
        query.from || query.to ? { createdAt } : {},
        args.where,
      ],
    },
  });
  const fees = new Map<string, bigint>();
  const paymentRefs = folded ? rows.filter((r) => r.type === "payment").map((r) => r.reference) : [];
  if (paymentRefs.length > 0) {
    const sums = await db.ledgerTransaction.groupBy({
      by: ["reference"],
      where: { organizationId: actor.organizationId, type: "fee", reference: { in: paymentRefs } },
      _sum: { amountMinor: true },
    });
    for (const s of sums) fees.set(s.reference, s._sum.amountMinor ?? 0n);
  }
  const feeOf = (row: LedgerRow) => (folded && row.type === "payment" ? (fees.get(row.reference) ?? 0n) : null);
  if (query.type || rows.length === 0) return toPage(rows, query, (row) => toLedgerTransaction(row, null, feeOf(row)));
  // The running balance: a page of the unfiltered ledger (or of a range of days) is a contiguous run of
  // it, newest first, so the balance after its first entry is the sum of every entry up to that one, and
  // each next one's is the previous less the previous entry's amount. One sum per page. Folded, a payment's
  // row stands for it and its fee (written together, at one instant): the fee counts with it, whichever
  // of the two ids sorts first.
  const first = rows[0]!;
  const firstFee = folded && first.type === "payment" ? first.reference : null;
  // The days before the first entry's from the day sums, that day's entries up to it one by one.
  const firstDay = isoDay(first.createdAt);
  const [upTo] = await db.$queryRaw<{ sum: bigint }[]>`
    SELECT (
      (SELECT coalesce(sum("amountMinor"), 0) FROM ledger_daily
        WHERE "organizationId" = ${actor.organizationId} AND day < ${firstDay}::date)
      + (SELECT coalesce(sum("amountMinor"), 0) FROM ledger_transaction
        WHERE "organizationId" = ${actor.organizationId} AND "createdAt" >= ${firstDay}::date::timestamp
          AND (("createdAt", id) <= (${first.createdAt}::timestamp, ${first.id})
            OR (type = 'fee' AND reference = ${firstFee ?? ""} AND "createdAt" = ${first.createdAt}::timestamp AND id > ${first.id})))
    )::bigint AS sum`;
  let balance = BigInt(upTo?.sum ?? 0n);
  const after = new Map<string, bigint>();
  for (const row of rows) {
    after.set(row.id, balance);
    balance -= row.amountMinor + (feeOf(row) ?? 0n);
  }
  return toPage(rows, query, (row) => toLedgerTransaction(row, after.get(row.id)!, feeOf(row)));
}

/** The organization's balance from the ledger's day sums (ledger_daily): the entries' sum, without reading them. */
async function ledgerBalance(organizationId: string): Promise<bigint> {
  const sum = await db.ledgerDaily.aggregate({ where: { organizationId }, _sum: { amountMinor: true } });
  return sum._sum.amountMinor ?? 0n;
}

/** Whether the dashboard may offer a withdrawal, and why not (in the order the service checks). */
export async function getWithdrawState(actor: Actor): Promise<WithdrawState> {
  assertCan(actor, "read");
  const orgId = actor.organizationId;
  const [kyb, verified, available, currency] = await Promise.all([
    db.kyb.findUnique({ where: { organizationId: orgId }, select: { status: true } }),
    db.bankAccount.count({ where: { organizationId: orgId, status: "verified", deletedAt: null } }),
    // What the button shows, from the ledger's day sums; the withdrawal itself checks the entries under the lock.
    ledgerBalance(orgId),
    currencyOf(orgId),
  ]);
  const kybStatus = kyb?.status ?? "not_submitted";
  const disabledReason =
    kybStatus !== "approved"
      ? "kyb_not_approved"
      : verified === 0
        ? "no_verified_account"
        : available < minWithdrawalMinor(currency)
          ? "nothing_available"
          : null;
  return { kybStatus, hasVerifiedAccount: verified > 0, available: formatMinor(available, currency), currency, disabledReason };
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Daily gross (payments), fees and net, UTC days from `from` to `to` inclusive, zeros included. */
export async function getEarningsSeries(actor: Actor, query: SeriesQuery, now = new Date()): Promise<EarningsSeries> {
  assertCan(actor, "read");
  const to = query.to ?? isoDay(now);
  const from = query.from ?? isoDay(new Date(dayStart(to).getTime() - (DEFAULT_SERIES_DAYS - 1) * DAY_MS));
  const days = Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY_MS) + 1;
  if (days < 1) throw validationError([{ path: "from", message: M.dateOrder }]);
  if (days > MAX_SERIES_DAYS) throw validationError([{ path: "to", message: `the range is at most ${MAX_SERIES_DAYS} days` }]);

  const [currency, rows] = await Promise.all([
    currencyOf(actor.organizationId),
    // The ledger's day sums (ledger_daily): whole UTC days, as the series shows them.
    db.$queryRaw<{ day: Date; gross: bigint; fees: bigint }[]>`
    SELECT day,
      coalesce(sum("amountMinor") FILTER (WHERE type = 'payment'), 0)::bigint AS gross,
      coalesce(-sum("amountMinor") FILTER (WHERE type = 'fee'), 0)::bigint AS fees
    FROM ledger_daily
    WHERE "organizationId" = ${actor.organizationId} AND type IN ('payment', 'fee')
      AND day >= ${from}::date AND day <= ${to}::date
    GROUP BY 1`,
  ]);
  const byDay = new Map(rows.map((r) => [isoDay(new Date(r.day)), r]));
  const start = dayStart(from).getTime();
  return Array.from({ length: days }, (_, i) => {
    const date = isoDay(new Date(start + i * DAY_MS));
    const row = byDay.get(date);
    const gross = BigInt(row?.gross ?? 0n);
    const fees = BigInt(row?.fees ?? 0n);
    return {
      date,
      gross: formatMinor(gross, currency),
      fees: formatMinor(fees, currency),
      net: formatMinor(gross - fees, currency),
    };
  });
}
