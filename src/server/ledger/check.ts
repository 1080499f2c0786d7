// The ledger's invariants, recomputed from the entries themselves: every entry
// in the organization's currency, a balance that never dips below zero, the overview agreeing with the entries, each
// withdrawal's, refund's and claim payout's debits and reversals matching its status, and the analytics
// rollups (kept by triggers) agreeing with the rows they count.
import { Prisma } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { db, type Tx } from "@/server/db/client";
import { earningsTotals } from "@/server/earnings/service";
import { baseReference } from "@/server/payouts/references";

export interface LedgerProblem {
  organizationId: string;
  message: string;
}

/** Checks one organization, or every organization with ledger entries, withdrawals or analytics rollups. */
export async function checkLedger(organizationId?: string): Promise<{ organizations: number; problems: LedgerProblem[] }> {
  const ids = organizationId ? [organizationId] : await organizationsToCheck();
  const problems: LedgerProblem[] = [];
  for (const id of ids) {
    // One snapshot per organization, so entries written meanwhile cannot make the figures disagree.
    const found = await db.$transaction((tx) => checkOrganization(tx, id), { isolationLevel: "RepeatableRead", timeout: 60_000 });
    problems.push(...found.map((message) => ({ organizationId: id, message })));
  }
  return { organizations: ids.length, problems };
}

/** What `npm run ledger:check` prints, line by line, and its exit code. */
export async function ledgerCheckReport(organizationId?: string): Promise<{ lines: string[]; exitCode: number }> {
  const { organizations, problems } = await checkLedger(organizationId);
  if (problems.length === 0) return { lines: [`ledger ok: ${organizations} organizations`], exitCode: 0 };
  return { lines: problems.map((p) => `${p.organizationId}: ${p.message}`), exitCode: 1 };
}

/** Every organization with ledger entries, withdrawals or analytics rollups. */
export async function organizationsToCheck(): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT "organizationId" AS id FROM ledger_transaction
    UNION SELECT "organizationId" AS id FROM withdrawal
    UNION SELECT "organizationId" AS id FROM daily_stats
    UNION SELECT "organizationId" AS id FROM ledger_daily
    UNION SELECT "organizationId" AS id FROM coverage_valid_daily
    ORDER BY id`;
  return rows.map((r) => r.id);
}

async function checkOrganization(tx: Tx, organizationId: string): Promise<string[]> {
  const problems: string[] = [];
  const [organization, entries, withdrawals] = await Promise.all([
    tx.organization.findUnique({ where: { id: organizationId }, select: { currency: true } }),
    tx.ledgerTransaction.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, type: true, amountMinor: true, currency: true, reference: true, createdAt: true },
    }),
    tx.withdrawal.findMany({ where: { organizationId }, select: { id: true, reference: true, status: true, amountMinor: true } }),
  ]);

  const currency = organization?.currency ?? "NGN";
  const minorUnits = (v: bigint) => formatMinor(v, currency);

  // (0) One currency: every entry is in the organization's (a sum over two currencies means nothing).
  const foreign = new Map<string, { count: number; first: string }>();
  for (const e of entries) {
    if (e.currency === organization?.currency) continue;
    const slot = foreign.get(e.currency) ?? { count: 0, first: e.id };
    slot.count++;
    foreign.set(e.currency, slot);
  }
  for (const [currency, { count, first }] of foreign) {
    problems.push(
      `${count} ledger entr(ies) in ${currency}, not the organization's currency ${organization?.currency ?? "(organization missing)"} (first: ${first})`,
    );
  }

  // (a) The running balance, taken after each instant: the entries one
  // transaction writes together (a payment and its fee) share their createdAt
  // and count as one step, whatever order their ids give them.
  let balance = 0n;
  for (let i = 0; i < entries.length; i++) {
    balance += entries[i]!.amountMinor;
    const next = entries[i + 1];
    if (next && next.createdAt.getTime() === entries[i]!.createdAt.getTime()) continue;
    if (balance < 0n) {
      problems.push(`balance ${minorUnits(balance)} after entry ${entries[i]!.id} (${entries[i]!.createdAt.toISOString()})`);
    }
  }

  // (b) The overview's available balance is the same sum.
  const totals = await earningsTotals(organizationId, new Date(), tx);
  if (totals.availableBalance !== balance) {
    problems.push(`overview availableBalance ${minorUnits(totals.availableBalance)} ≠ ledger balance ${minorUnits(balance)}`);
  }

  // (c) Each withdrawal: one debit of its amount, plus — for every failure —
  // one reversal crediting it back, then one more debit per retry. So debits
  // exceed reversals by one unless it is failed now (then they are equal).
  const byReference = new Map<string, { debits: bigint[]; reversals: bigint[] }>();
  for (const e of entries) {
    if (e.type !== "withdrawal" && e.type !== "withdrawal_reversal") continue;
    // A retried withdrawal's entries carry R, R-r1, R-r2…: they all belong to R (src/server/payouts/references.ts).
    const key = baseReference(e.reference);
    const slot = byReference.get(key) ?? { debits: [], reversals: [] };
    (e.type === "withdrawal" ? slot.debits : slot.reversals).push(e.amountMinor);
    byReference.set(key, slot);
  }
  for (const w of withdrawals) {
    const { debits, reversals } = byReference.get(baseReference(w.reference)) ?? { debits: [], reversals: [] };
    byReference.delete(baseReference(w.reference));
    const expectedReversals = w.status === "failed" ? debits.length : debits.length - 1;
    if (debits.length === 0 || reversals.length !== expectedReversals) {
      problems.push(
        `withdrawal ${w.id} (${w.status}) has ${debits.length} withdrawal debit(s) and ${reversals.length} reversal(s)`,
      );
    }
    if (debits.some((a) => a !== -w.amountMinor) || reversals.some((a) => a !== w.amountMinor)) {
      problems.push(`withdrawal ${w.id}: an entry's amount is not ${minorUnits(w.amountMinor)}`);
    }
  }
  for (const [reference, { debits, reversals }] of byReference) {
    problems.push(`${debits.length + reversals.length} withdrawal entr(ies) with reference ${reference} and no withdrawal`);
  }

  problems.push(...(await checkMoneyBack(tx, organizationId, entries, currency)));
  problems.push(...(await checkRollups(tx, organizationId, currency)));
  problems.push(...(await checkLedgerDaily(tx, organizationId, currency)));
  problems.push(...(await checkCoverageValidDaily(tx, organizationId)));
  return problems;
}

type Entry = { type: string; amountMinor: bigint; reference: string };

/**
 * (e) Refunds and claim payouts: one debit of the amount each, and one
 * reversal crediting it back when it failed (same reference); no entry of
 * these types without its row; and each payment's refunded amount the sum of
 * its refunds that did not fail.
 */
async function checkMoneyBack(tx: Tx, organizationId: string, entries: Entry[], currency: string): Promise<string[]> {
  const minorUnits = (v: bigint) => formatMinor(v, currency);
  const problems: string[] = [];
  const [refunds, payouts, refundedPayments] = await Promise.all([
    tx.refund.findMany({ where: { organizationId }, select: { id: true, reference: true, status: true, amountMinor: true } }),
    tx.claimPayout.findMany({
      where: { organizationId },
      select: { id: true, reference: true, status: true, amountMinor: true },
    }),
    tx.$queryRaw<{ id: string; refunded: bigint; counted: bigint }[]>`
      SELECT p.id, p."refundedMinor" AS refunded,
        coalesce((SELECT sum(r."amountMinor") FROM refund r WHERE r."paymentId" = p.id AND r.status <> 'failed'), 0)::bigint AS counted
      FROM payment p
      WHERE p."organizationId" = ${organizationId} AND (p."refundedMinor" <> 0 OR EXISTS (SELECT 1 FROM refund r WHERE r."paymentId" = p.id))`,
  ]);
  const kinds = [
    { name: "refund", debit: "refund", reversal: "refund_reversal", rows: refunds },
    { name: "claim payout", debit: "claim_payout", reversal: "claim_payout_reversal", rows: payouts },
  ];
  for (const kind of kinds) {
    const byReference = new Map<string, { debits: bigint[]; reversals: bigint[] }>();
    for (const e of entries) {
      if (e.type !== kind.debit && e.type !== kind.reversal) continue;
      const slot = byReference.get(e.reference) ?? { debits: [], reversals: [] };
      (e.type === kind.debit ? slot.debits : slot.reversals).push(e.amountMinor);
      byReference.set(e.reference, slot);
    }
    for (const row of kind.rows) {
      const { debits, reversals } = byReference.get(row.reference) ?? { debits: [], reversals: [] };
      byReference.delete(row.reference);
      const expectedReversals = row.status === "failed" ? 1 : 0;
      if (debits.length !== 1 || reversals.length !== expectedReversals) {
        problems.push(`${kind.name} ${row.id} (${row.status}) has ${debits.length} debit(s) and ${reversals.length} reversal(s)`);
      }
      if (debits.some((a) => a !== -row.amountMinor) || reversals.some((a) => a !== row.amountMinor)) {
        problems.push(`${kind.name} ${row.id}: an entry's amount is not ${minorUnits(row.amountMinor)}`);
      }
    }
    for (const [reference, { debits, reversals }] of byReference) {
      problems.push(`${debits.length + reversals.length} ${kind.name} entr(ies) with reference ${reference} and no ${kind.name}`);
    }
  }
  for (const p of refundedPayments) {
    if (BigInt(p.refunded) !== BigInt(p.counted)) {
      problems.push(`payment ${p.id}: refunded ${minorUnits(BigInt(p.refunded))} ≠ its refunds ${minorUnits(BigInt(p.counted))}`);
    }
  }
  return problems;
}

const COUNT_COLUMNS = ["paymentsCreated", "paymentsSucceeded", "paymentsFailed", "purchases", "renewals", "claimsFiled"];
const MONEY_COLUMNS = ["grossMinor", "feesMinor", "withdrawnMinor", "reversedMinor", "claimedMinor"];
/** Withdrawals belong to the organization, not to a policy. */
const ORGANIZATION_ONLY = new Set(["withdrawnMinor", "reversedMinor"]);

type Totals = Record<string, bigint>;

/**
 * (d) The rollups against `analytics_source` (the same figures recomputed from
 * the source rows). Compared as totals: the view puts a coverage's renewals on
 * the day of its last change, the trigger on the day of each renewal.
 */
async function checkRollups(tx: Tx, organizationId: string, currency: string): Promise<string[]> {
  const minorUnits = (v: bigint) => formatMinor(v, currency);
  const sums = (columns: string[]) =>
    Prisma.join(columns.map((c) => Prisma.sql`coalesce(sum(${Prisma.raw(`"${c}"`)}), 0)::bigint AS ${Prisma.raw(`"${c}"`)}`));
  const all = [...COUNT_COLUMNS, ...MONEY_COLUMNS];
  const perPolicy = all.filter((c) => !ORGANIZATION_ONLY.has(c));
  const [[daily], [source], [policies], [sourceOfPolicies]] = await Promise.all([
    tx.$queryRaw<Totals[]>`SELECT ${sums(all)} FROM daily_stats WHERE "organizationId" = ${organizationId}`,
    tx.$queryRaw<Totals[]>`SELECT ${sums(all)} FROM analytics_source WHERE "organizationId" = ${organizationId}`,
    tx.$queryRaw<Totals[]>`SELECT ${sums(perPolicy)} FROM policy_daily_stats WHERE "organizationId" = ${organizationId}`,
    tx.$queryRaw<Totals[]>`
      SELECT ${sums(perPolicy)} FROM analytics_source WHERE "organizationId" = ${organizationId} AND "policyId" IS NOT NULL`,
  ]);
  const show = (column: string, v: bigint | undefined) =>
    MONEY_COLUMNS.includes(column) ? minorUnits(BigInt(v ?? 0n)) : String(v ?? 0n);
  const compare = (table: string, columns: string[], rollup: Totals | undefined, recomputed: Totals | undefined) => {
    const differ = columns.filter((c) => BigInt(rollup?.[c] ?? 0n) !== BigInt(recomputed?.[c] ?? 0n));
    return differ.length === 0
      ? []
      : [
          `${table} totals ≠ analytics_source: ${differ
            .map((c) => `${c} ${show(c, rollup?.[c])} ≠ ${show(c, recomputed?.[c])}`)
            .join(", ")}`,
        ];
  };
  return [...compare("daily_stats", all, daily, source), ...compare("policy_daily_stats", perPolicy, policies, sourceOfPolicies)];
}

/**
 * (e) The ledger's day sums (ledger_daily, what the earnings pages read) against the entries they sum,
 * day by day and type by type: the first few that differ.
 */
async function checkLedgerDaily(tx: Tx, organizationId: string, currency: string): Promise<string[]> {
  const rows = await tx.$queryRaw<
    { day: string; type: string; rollup: bigint | null; rollupCount: number | null; sum: bigint | null; count: number | null }[]
  >`
    SELECT coalesce(r.day, e.day)::text AS day, coalesce(r.type, e.type)::text AS type,
      r."amountMinor" AS rollup, r.entries AS "rollupCount", e.sum, e.count
    FROM (SELECT day, type, "amountMinor", entries FROM ledger_daily WHERE "organizationId" = ${organizationId}) r
    FULL JOIN (
      SELECT "createdAt"::date AS day, type, sum("amountMinor")::bigint AS sum, count(*)::int AS count
      FROM ledger_transaction WHERE "organizationId" = ${organizationId} GROUP BY 1, 2
    ) e ON r.day = e.day AND r.type = e.type
    WHERE r."amountMinor" IS DISTINCT FROM e.sum OR r.entries IS DISTINCT FROM e.count
    ORDER BY 1, 2
    LIMIT 5`;
  const minorUnits = (v: bigint | null) => formatMinor(BigInt(v ?? 0n), currency);
  return rows.map(
    (r) =>
      `ledger_daily ${r.day} ${r.type}: ${minorUnits(r.rollup)} in ${r.rollupCount ?? 0} entries ≠ the entries' ${minorUnits(r.sum)} in ${r.count ?? 0}`,
  );
}

/**
 * (f) The valid coverages by the day their cover ends (coverage_valid_daily, what the active counts read)
 * against the coverages themselves, day by day: the first few that differ.
 */
async function checkCoverageValidDaily(tx: Tx, organizationId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ day: string; rollup: number | null; count: number | null }[]>`
    SELECT coalesce(r.day, c.day)::text AS day, r.coverages AS rollup, c.count
    FROM (SELECT day, coverages FROM coverage_valid_daily WHERE "organizationId" = ${organizationId} AND coverages <> 0) r
    FULL JOIN (
      SELECT greatest("endsAt", coalesce("graceEndsAt", "endsAt"))::date AS day, count(*)::int AS count
      FROM coverage WHERE "organizationId" = ${organizationId} AND "cancelledAt" IS NULL GROUP BY 1
    ) c ON r.day = c.day
    WHERE r.coverages IS DISTINCT FROM c.count
    ORDER BY 1
    LIMIT 5`;
  return rows.map(
    (r) => `coverage_valid_daily ${r.day}: ${r.rollup ?? 0} coverages ≠ the ${r.count ?? 0} whose cover ends that day`,
  );
}
