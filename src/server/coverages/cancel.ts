// Cancelling a coverage, by the business (REST, dashboard) or by its
// policyholder (portal), after a quote of what it would refund:
//  - cooling_off: fewer than the cooling-off days (the account's setting,
//    default 14) have passed since the current period began → the whole
//    premium of that period;
//  - pro_rata: later → the period's unused whole days, pro rata, rounded down
//    to the minor unit (days are 24-hour blocks from the period's start; a day
//    begun counts as used; a period's length is its own number of days);
//  - claim_on_cover: a claim on this coverage was approved or paid in the
//    period → nothing.
// The period is what the latest successful payment of the coverage bought
// (`periodStartsAt` → `endsAt`) and its premium is what that payment has left
// to refund. Cancelling is ONE transaction under the organization's balance
// lock: the refund (row, ledger debit, event), the coverage marked cancelled
// with no reminder or expiry left, and `coverage.cancelled`. A refund the
// balance cannot cover → 409 insufficient_funds and nothing changes.
import type { Coverage as CoverageRow, Payment as PaymentRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import type {
  CancelCoverageInput,
  CancellationQuote,
  CancellationRule,
  CancelledCoverage,
  Coverage,
} from "@/lib/schemas/coverages";
import { assertCan, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { assertBalanceCovers, LOCKED_TX, lockOrganizationBalance } from "@/server/ledger/balance";
import { insertRefund } from "@/server/refunds/service";
import { toCoverage } from "./service";
import { coverageStatus } from "./status";

const DAY_MS = 86_400_000;

export interface QuoteFigures {
  rule: CancellationRule;
  refundMinor: bigint;
  usedDays: number;
  periodDays: number;
}

/**
 * The rule and the refund of a cancellation at `now` (pure). At exactly the
 * cooling-off days after the start the window has closed (pro rata); on the
 * period's last day nothing is left unused.
 */
export function cancellationFigures(p: {
  periodStart: Date;
  periodEnd: Date;
  coolingOffDays: number;
  premiumMinor: bigint;
  claimOnCover: boolean;
  now: Date;
}): QuoteFigures {
  const periodDays = Math.max(1, Math.round((p.periodEnd.getTime() - p.periodStart.getTime()) / DAY_MS));
  const elapsed = p.now.getTime() - p.periodStart.getTime();
  const usedDays = elapsed <= 0 ? 0 : Math.min(periodDays, Math.ceil(elapsed / DAY_MS));
  if (p.claimOnCover) return { rule: "claim_on_cover", refundMinor: 0n, usedDays, periodDays };
  if (elapsed < p.coolingOffDays * DAY_MS) return { rule: "cooling_off", refundMinor: p.premiumMinor, usedDays, periodDays };
  const unused = BigInt(periodDays - usedDays);
  return { rule: "pro_rata", refundMinor: (p.premiumMinor * unused) / BigInt(periodDays), usedDays, periodDays };
}

/** The account's cooling-off days (a test twin follows its live account, as for reminders). */
async function coolingOffDaysOf(client: Tx | typeof db, organizationId: string): Promise<number> {
  const [row] = await client.$queryRaw<{ days: number }[]>`
    SELECT COALESCE((SELECT a."coolingOffDays" FROM organization a WHERE a.id = o."liveOrganizationId"), o."coolingOffDays") AS days
    FROM organization o WHERE o.id = ${organizationId}`;
  if (!row) throw notFound("Organization");
  return row.days;
}

function assertCancellable(row: CoverageRow, now: Date): void {
  const status = coverageStatus(row, now);
  if (status === "cancelled") throw new AppError("invalid_state", "This coverage is cancelled already");
  if (status === "expired") throw new AppError("invalid_state", "This coverage has ended: there is nothing left to cancel");
}

interface Quoted {
  quote: CancellationQuote;
  figures: QuoteFigures;
  payment: PaymentRow | null;
}

async function quoteOf(client: Tx | typeof db, row: CoverageRow, now: Date): Promise<Quoted> {
  const [coolingOffDays, payment, claim] = await Promise.all([
    coolingOffDaysOf(client, row.organizationId),
    // The payment that bought the current period: the latest successful one of this coverage.
    client.payment.findFirst({
      where: { organizationId: row.organizationId, coverageId: row.id, status: "success" },
      orderBy: [{ paidAt: "desc" }, { id: "desc" }],
    }),
    client.claimStatusChange.findFirst({
      where: {
        toStatus: { in: ["approved", "paid"] },
        createdAt: { gte: row.periodStartsAt },
        organizationId: row.organizationId,
        claim: { coverageId: row.id, status: { in: ["approved", "paid"] } },
      },
      select: { id: true },
    }),
  ]);
  const premiumMinor = payment ? payment.amountMinor - payment.refundedMinor : 0n;
  const figures = cancellationFigures({
    periodStart: row.periodStartsAt,
    periodEnd: row.endsAt,
    coolingOffDays,
    premiumMinor: premiumMinor > 0n ? premiumMinor : 0n,
    claimOnCover: claim !== null,
    now,
  });
  const currency = payment?.currency ?? (await client.policy.findUniqueOrThrow({ where: { id: row.policyId } })).currency;
  return {
    figures,
    payment,
    quote: {
      refundAmount: formatMinor(figures.refundMinor, currency),
      currency,
      rule: figures.rule,
      periodStart: row.periodStartsAt.toISOString(),
      periodEnd: row.endsAt.toISOString(),
      premium: formatMinor(premiumMinor > 0n ? premiumMinor : 0n, currency),
      usedDays: figures.usedDays,
      periodDays: figures.periodDays,
      coolingOffDays,
      paymentReference: payment?.reference ?? null,
    },
  };
}

async function coverageOf(organizationId: string, coverageId: string, customerEmail?: string): Promise<CoverageRow> {
  if (!/^[\w-]{1,100}$/.test(coverageId)) throw notFound("Coverage");
  const row = await db.coverage.findFirst({
    where: { id: coverageId, organizationId, ...(customerEmail ? { customerEmail } : {}) },
  });
  if (!row) throw notFound("Coverage");
  return row;
}

/** What cancelling now would refund, and by which rule (409 when cancelled or ended already). */
export async function cancellationQuoteFor(organizationId: string, coverageId: string, customerEmail?: string, now = new Date()) {
  const row = await coverageOf(organizationId, coverageId, customerEmail);
  assertCancellable(row, now);
  return (await quoteOf(db, row, now)).quote;
}

/** The coverage row is being changed by another transaction (a payment settling, the lifecycle job): try again. */
class CoverageBusy extends Error {}

/**
 * Cancels the coverage (by its business, or by the policyholder of
 * `customerEmail`): refund by the rule unless `refund: "none"`, all in one
 * transaction. The balance lock comes first, as for every outgoing movement;
 * the coverage row is then taken without waiting (a transaction holding it —
 * a renewal settling, a reminder going out — may be waiting for the
 * organization's row we hold), and the whole cancellation starts again after
 * a moment if it was busy.
 */
export async function cancelCoverageOf(
  organizationId: string,
  coverageId: string,
  input: CancelCoverageInput,
  { customerEmail, now: at }: { customerEmail?: string; now?: Date } = {},
): Promise<CancelledCoverage> {
  const found = await coverageOf(organizationId, coverageId, customerEmail);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(async (tx) => {
        const now = at ?? new Date();
        await lockOrganizationBalance(tx, organizationId);
        const [row] = await tx.$queryRaw<CoverageRow[]>`SELECT * FROM coverage WHERE id = ${found.id} FOR UPDATE SKIP LOCKED`;
        if (!row) throw new CoverageBusy();
        assertCancellable(row, now);
        const { figures, payment } = await quoteOf(tx, row, now);
        let refund: CancelledCoverage["refund"] = null;
        if (input.refund === "auto" && figures.refundMinor > 0n && payment) {
          await assertBalanceCovers(tx, organizationId, figures.refundMinor, payment.currency);
          refund = await insertRefund(tx, payment, figures.refundMinor, `Cancellation: ${input.reason}`, {
            coverageId: row.id,
            now,
          });
        }
        const updated = await tx.coverage.update({
          where: { id: row.id },
          data: { cancelledAt: now, cancellationReason: input.reason, remindAt: null, lapseAt: null },
        });
        const coverage: CancelledCoverage = { ...toCoverage(updated, now), refund };
        await recordEvent(tx, organizationId, "coverage.cancelled", coverage, row.id);
        await audit(tx, organizationId, {
          action: "coverage.cancelled",
          resourceType: "coverage",
          resourceId: row.id,
          details: {
            customerEmail: row.customerEmail,
            reason: input.reason,
            refund: refund ? { id: refund.id, amount: refund.amount, currency: refund.currency } : null,
          },
        });
        return coverage;
      }, LOCKED_TX);
    } catch (error) {
      if (!(error instanceof CoverageBusy) || attempt >= 20) {
        if (error instanceof CoverageBusy) throw new AppError("conflict", "This coverage is being changed right now: try again");
        throw error;
      }
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
}

export async function getCoverage(actor: Actor, coverageId: string, now = new Date()): Promise<Coverage> {
  assertCan(actor, "read");
  return toCoverage(await coverageOf(actor.organizationId, coverageId), now);
}

export async function getCancellationQuote(actor: Actor, coverageId: string): Promise<CancellationQuote> {
  assertCan(actor, "read");
  return cancellationQuoteFor(actor.organizationId, coverageId);
}

export async function cancelCoverage(actor: Actor, coverageId: string, input: CancelCoverageInput): Promise<CancelledCoverage> {
  assertCan(actor, "admin");
  return cancelCoverageOf(actor.organizationId, coverageId, input);
}
