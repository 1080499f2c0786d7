// The renewal job: each auto-renewing coverage whose `renewAt` has
// come is charged on its saved card, through the same settlement as a
// checkout. One coverage, one period, one attempt → one payment, its
// reference derived from the three (a keyed hash), and a unique key on them:
//  1. claim (one transaction, FOR UPDATE SKIP LOCKED): the charge's pending
//     payment is written and the coverage leased (`renewAt` moved past the
//     lease) — any number of instances run this at once and a period's attempt
//     is charged once;
//  2. charge: the provider is asked with that reference;
//  3. settle: success renews the cover (ledger, `policy.renewed`, receipt) and
//     plans the next period; a decline writes `payment.failed`, plans the
//     retry and tells the policyholder (./dunning.ts).
// A crash between 1 and 3 leaves the pending payment: once the lease has run
// out the coverage is claimed again and the SAME reference is charged again —
// Paystack refuses a duplicate reference and the first charge's outcome is
// verified instead — so it is settled once. Covers not to be charged (turned
// off, cancelled, no card, policy no longer on sale, tries used up) are let go
// here. The card notices (a card expiring before the charge) go from here too.
import { newId } from "@/server/ids";
import crypto from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { authSecret, env } from "@/server/env";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import type { MailData } from "@/server/mail/kinds";
import { checkoutUrl, providerOf, type ProviderVerification } from "@/server/payments/provider";
import { judgeCharge } from "@/server/payments/remote";
import { settlePayment } from "@/server/payments/settle";
import { unseal } from "@/server/seal";
import { coverageScope, untilShort, type CoverageJobOptions } from "@/server/coverages/batches";
import { RENEWAL_MAX_ATTEMPTS } from "./dunning";
import { renewalAmount } from "./pricing";
import { CARD_SEAL } from "./terms";

const BATCH = 50;
/** Charges of a batch sent and settled at once (each settlement holds a connection). */
const CONCURRENCY = 8;
/** How long a claimed coverage is left alone: longer than a charge and its settlement can take (10 min unless RENEWAL_LEASE_SECONDS). */
export const RENEWAL_LEASE_MS = env.RENEWAL_LEASE_SECONDS * 1000;

export type RenewalOptions = CoverageJobOptions;

export interface RenewalResult {
  /** Charges sent (new and resumed). */
  charged: number;
  renewed: number;
  declined: number;
  /** Covers let go: not to be charged (see above). */
  stopped: number;
  /** Card notices written. */
  cardNotices: number;
}

/** The reference of a period's attempt: the same every time it is asked for, unguessable without the app secret. */
export function renewalReference(coverageId: string, periodEndsAt: Date, attempt: number): string {
  const mac = crypto
    .createHmac("sha256", authSecret())
    .update(`renewal|${coverageId}|${periodEndsAt.toISOString()}|${attempt}`)
    .digest("base64url");
  return `cdr_${mac.slice(0, 32)}`;
}

const scope = coverageScope;

interface Due {
  id: string;
  organizationId: string;
  policyId: string;
  customerEmail: string;
  customerName: string | null;
  endsAt: Date;
  autoRenew: boolean;
  cancelledAt: Date | null;
  cardProvider: string | null;
  cardAuthorizationSealed: string | null;
  premiumMinor: bigint | null;
  nextPremiumMinor: bigint | null;
  nextPremiumFrom: Date | null;
  renewalAttempts: number;
  graceEndsAt: Date | null;
  policyActive: boolean;
  priceMinor: bigint;
  currency: string;
  livemode: boolean;
}

/** A charge to send: the pending payment and what the provider needs. */
interface Charge {
  reference: string;
  provider: string;
  livemode: boolean;
  authorizationCode: string | null;
  amountMinor: bigint;
  currency: string;
  email: string;
}

async function claimBatch(now: Date, opts: RenewalOptions): Promise<{ claimed: number; charges: Charge[]; stopped: number }> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Due[]>`
      SELECT c.id, c."organizationId", c."policyId", c."customerEmail", c."customerName", c."endsAt", c."autoRenew",
        c."cancelledAt", c."cardProvider", c."cardAuthorizationSealed", c."premiumMinor", c."nextPremiumMinor",
        c."nextPremiumFrom", c."renewalAttempts", c."graceEndsAt",
        p."isActive" AS "policyActive", p."priceMinor", p.currency, o.livemode
      FROM coverage c JOIN policy p ON p.id = c."policyId" JOIN organization o ON o.id = c."organizationId"
      WHERE c."renewAt" <= ${now}::timestamp ${scope(opts)}
      ORDER BY c."renewAt" LIMIT ${BATCH}
      FOR UPDATE OF c SKIP LOCKED`;
    if (rows.length === 0) return { claimed: 0, charges: [], stopped: 0 };
    const leaseUntil = new Date(now.getTime() + RENEWAL_LEASE_MS);
    // A charge started before (a crash, a provider that did not answer) is finished first, with its own reference.
    const pending = await tx.payment.findMany({
      where: { coverageId: { in: rows.map((r) => r.id) }, status: "pending", renewalAttempt: { not: null } },
      orderBy: { createdAt: "asc" },
    });
    const pendingOf = new Map(pending.map((p) => [p.coverageId!, p]));
    const charges: Charge[] = [];
    const resumed: string[] = [];
    const fresh: Prisma.PaymentCreateManyInput[] = [];
    const freshCharges: Charge[] = [];
    let stopped = 0;
    for (const row of rows) {
      const card = row.cardAuthorizationSealed ? unseal(CARD_SEAL, row.cardAuthorizationSealed) : null;
      const started = pendingOf.get(row.id);
      if (started) {
        resumed.push(row.id);
        charges.push({
          reference: started.reference,
          provider: started.provider,
          livemode: row.livemode,
          authorizationCode: card,
          amountMinor: started.amountMinor,
          currency: started.currency,
          email: started.email,
        });
        continue;
      }
      if (row.cancelledAt || !row.autoRenew || !card || row.renewalAttempts >= RENEWAL_MAX_ATTEMPTS) {
        await tx.coverage.update({ where: { id: row.id }, data: { renewAt: null } });
        stopped++;
        continue;
      }
      if (row.endsAt > now) {
        // Not due yet (its end moved): at its end.
        await tx.coverage.update({ where: { id: row.id }, data: { renewAt: row.endsAt } });
        continue;
      }
      if (!row.policyActive) {
        // No longer on sale: not renewed, the cover ends at its end (the lifecycle job writes coverage.expired), and the policyholder is told.
        await tx.coverage.update({
          where: { id: row.id },
          data: { renewAt: null, graceEndsAt: null, cardNoticeAt: null, lapseAt: row.endsAt },
        });
        const data: MailData<"renewal_stopped"> = {
          coverageId: row.id,
          policyId: row.policyId,
          endsAt: row.endsAt.toISOString(),
        };
        await tx.mailTask.createMany({
          data: [
            {
              organizationId: row.organizationId,
              kind: "renewal_stopped",
              sourceId: `${row.id}:${row.endsAt.toISOString()}`,
              recipient: row.customerEmail,
              customerEmail: row.customerEmail,
              data,
              runAt: now,
            },
          ],
          skipDuplicates: true,
        });
        stopped++;
        continue;
      }
      const attempt = row.renewalAttempts + 1;
      const reference = renewalReference(row.id, row.endsAt, attempt);
      const amountMinor = renewalAmount(row);
      freshCharges.push({
        reference,
        provider: row.cardProvider ?? "sandbox",
        livemode: row.livemode,
        authorizationCode: card,
        amountMinor,
        currency: row.currency,
        email: row.customerEmail,
      });
      fresh.push({
        id: newId(),
        organizationId: row.organizationId,
        policyId: row.policyId,
        reference,
        email: row.customerEmail,
        customerName: row.customerName,
        amountMinor,
        currency: row.currency,
        provider: row.cardProvider ?? "sandbox",
        authorizationUrl: checkoutUrl(reference),
        coverageId: row.id,
        renewalPeriodEndsAt: row.endsAt,
        renewalAttempt: attempt,
        createdAt: now,
      });
    }
    if (fresh.length) {
      // The unique key (coverage, period end, attempt) is the last guard: a row it refuses is not charged.
      const created = await tx.payment.createManyAndReturn({ data: fresh, skipDuplicates: true, select: { reference: true } });
      const made = new Set(created.map((p) => p.reference));
      // Every one counts its attempt (a refused one is tried as the next attempt after the lease).
      await tx.$executeRaw`
        UPDATE coverage SET "renewAt" = ${leaseUntil}::timestamp, "renewalAttempts" = "renewalAttempts" + 1
        WHERE id IN (${Prisma.join(fresh.map((f) => f.coverageId!))})`;
      charges.push(...freshCharges.filter((c) => made.has(c.reference)));
    }
    if (resumed.length)
      await tx.$executeRaw`UPDATE coverage SET "renewAt" = ${leaseUntil}::timestamp WHERE id IN (${Prisma.join(resumed)})`;
    return { claimed: rows.length, charges, stopped };
  });
}

/** Sends one charge and settles it. */
async function chargeAndSettle(c: Charge, now: Date): Promise<"renewed" | "declined" | "pending"> {
  const provider = providerOf({ provider: c.provider }, c.livemode);
  let result: ProviderVerification;
  if (!provider) result = { status: "failed", gatewayResponse: "the saved card's payment provider is no longer offered" };
  else if (!c.authorizationCode) result = { status: "failed", gatewayResponse: "no saved card" };
  else {
    try {
      result = await provider.chargeAuthorization({
        reference: c.reference,
        authorizationCode: c.authorizationCode,
        amountMinor: c.amountMinor,
        currency: c.currency,
        email: c.email,
      });
    } catch (err) {
      // Not reached or not answered: the lease brings the same reference back.
      logger.warn({ err, reference: c.reference }, "renewal charge not answered; tried again after the lease");
      return "pending";
    }
  }
  if (result.status === "pending") return "pending";
  crashAfterChargeForTests(c.reference);
  const { outcome, failureReason } = judgeCharge(c, { ...result, status: result.status }, provider?.name ?? c.provider);
  try {
    await settlePayment(c.reference, outcome, { failureReason, now });
  } catch (err) {
    if (err instanceof AppError && err.code === "payment_not_pending") return outcome === "success" ? "renewed" : "declined";
    throw err;
  }
  return outcome === "success" ? "renewed" : "declined";
}

/**
 * TESTS ONLY (e2e/api/idempotency-crash.spec.ts): with
 * `CRASH_AFTER_RENEWAL_CHARGE_FOR_TESTS=1` the process kills itself (SIGKILL)
 * after the provider charged a renewal and before its settlement commits — the
 * crash the renewal job must survive. Ignored unless VALIDATE_RESPONSES is on
 * (itself tests-only).
 */
function crashAfterChargeForTests(reference: string) {
  if (env.VALIDATE_RESPONSES && process.env.CRASH_AFTER_RENEWAL_CHARGE_FOR_TESTS === "1") {
    logger.warn({ reference }, "CRASH_AFTER_RENEWAL_CHARGE_FOR_TESTS: killing this process after the charge");
    process.kill(process.pid, "SIGKILL");
  }
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function cardNoticeBatch(now: Date, opts: RenewalOptions): Promise<{ claimed: number; sent: number }> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      {
        id: string;
        organizationId: string;
        policyId: string;
        customerEmail: string;
        endsAt: Date;
        autoRenew: boolean;
        cardLast4: string | null;
        cardExpMonth: number | null;
        cardExpYear: number | null;
      }[]
    >`
      SELECT c.id, c."organizationId", c."policyId", c."customerEmail", c."endsAt", c."autoRenew", c."cardLast4", c."cardExpMonth", c."cardExpYear"
      FROM coverage c WHERE c."cardNoticeAt" <= ${now}::timestamp ${scope(opts)}
      ORDER BY c."cardNoticeAt" LIMIT ${BATCH} FOR UPDATE OF c SKIP LOCKED`;
    let sent = 0;
    for (const row of rows) {
      await tx.coverage.update({ where: { id: row.id }, data: { cardNoticeAt: null } });
      if (!row.autoRenew || !row.cardLast4 || row.cardExpMonth === null || row.cardExpYear === null || row.endsAt <= now)
        continue;
      const data: MailData<"card_expiring"> = {
        coverageId: row.id,
        policyId: row.policyId,
        endsAt: row.endsAt.toISOString(),
        last4: row.cardLast4,
        expMonth: row.cardExpMonth,
        expYear: row.cardExpYear,
      };
      const made = await tx.mailTask.createMany({
        data: [
          {
            organizationId: row.organizationId,
            kind: "card_expiring",
            sourceId: `${row.id}:${row.endsAt.toISOString()}`,
            recipient: row.customerEmail,
            customerEmail: row.customerEmail,
            data,
            runAt: now,
          },
        ],
        skipDuplicates: true,
      });
      sent += made.count;
    }
    return { claimed: rows.length, sent };
  });
}

/** Charges the renewals that are due and sends the card notices, in batches until none is left. */
export async function runRenewals(now = new Date(), opts: RenewalOptions = {}): Promise<RenewalResult> {
  const result: RenewalResult = { charged: 0, renewed: 0, declined: 0, stopped: 0, cardNotices: 0 };
  for (;;) {
    const batch = await claimBatch(now, opts);
    result.stopped += batch.stopped;
    result.charged += batch.charges.length;
    await pool(batch.charges, CONCURRENCY, async (c) => {
      try {
        const outcome = await chargeAndSettle(c, now);
        if (outcome === "renewed") result.renewed++;
        if (outcome === "declined") result.declined++;
      } catch (err) {
        // This charge only: its lease brings it back.
        logger.error({ err, reference: c.reference }, "renewal charge failed");
      }
    });
    if (batch.claimed < BATCH) break;
  }
  result.cardNotices = await untilShort(BATCH, async () => {
    const b = await cardNoticeBatch(now, opts);
    return { claimed: b.claimed, done: b.sent };
  });
  return result;
}
