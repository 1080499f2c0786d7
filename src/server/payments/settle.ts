// Settling a payment is ONE transaction: the payment's new status, its ledger
// entries (amount credited, platform fee debited), the customer's coverage
// created or extended, and the events of all of it. Concurrent attempts on one
// reference serialize on the payment row; only the first settles it. A
// payment whose currency is not its business's is never credited.
import { newId } from "@/server/ids";
import { Prisma, type Coverage as CoverageRow, type Payment as PaymentRow, type PolicyDuration } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { auditAsSystem, auditInsertSql, systemAuditor } from "@/server/audit/record";
import { newCertificateNumber } from "@/server/coverages/certificate-number";
import { scheduleCoverage } from "@/server/coverages/schedule";
import { toCoverage } from "@/server/coverages/service";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError, notFound } from "@/server/errors";
import { recordEvent, recordEvents } from "@/server/events/record";
import { platformFee } from "@/server/ledger/fees";
import { logger } from "@/server/logger";
import { renewalDeclined } from "@/server/renewals/dunning";
import { periodTerms } from "@/server/renewals/terms";
import { paymentAuditDetails, toPayment } from "./dto";
import type { CardAuthorization } from "./provider";

const INTERVAL: Record<PolicyDuration, string> = { monthly: "1 month", quarterly: "3 months", yearly: "1 year" };

/** What a settlement reads of its payment (with the row's lock). */
type LockedPayment = Pick<
  PaymentRow,
  | "id"
  | "organizationId"
  | "policyId"
  | "email"
  | "customerName"
  | "customerPhone"
  | "amountMinor"
  | "currency"
  | "provider"
  | "autoRenew"
>;

/** What a settlement reads with its payment: its business's currency and its policy (null: gone). */
interface OrganizationOfPayment {
  organizationCurrency: string;
  policyName: string | null;
  duration: PolicyDuration | null;
}

export interface Settlement {
  payment: PaymentRow;
  coverage: CoverageRow | null;
}

export interface SettleOptions {
  now?: Date;
  failureReason?: string;
  customerName?: string | null;
  /** A phone given on the checkout page (E.164): kept on the payment and the customer. */
  customerPhone?: string;
  /** The card paid with, when the provider lets it be charged again (saved only with the customer's consent). */
  card?: CardAuthorization;
  /** The customer's answer to "Renew automatically" on the checkout (overrides the one given at initialize). */
  autoRenew?: boolean;
}

export async function settlePayment(
  reference: string,
  outcome: "success" | "failed",
  { now = new Date(), failureReason, customerName, customerPhone, card, autoRenew }: SettleOptions = {},
): Promise<Settlement> {
  return db.$transaction(async (tx) => {
    // The row is locked and read at once: what the settlement needs of it, not read again. With it, its
    // business's currency and its policy, and the business's row held FOR KEY SHARE, like initialize (the
    // currency cannot change under a settlement: organizations/service.ts).
    const [locked] = await tx.$queryRaw<(LockedPayment & { status: string } & OrganizationOfPayment)[]>`
      SELECT pay.id, pay.status::text AS status, pay."organizationId", pay."policyId", pay.email, pay."customerName", pay."customerPhone",
        pay."amountMinor", pay.currency, pay.provider, pay."autoRenew",
        o.currency AS "organizationCurrency", pol.name AS "policyName", pol.duration::text AS duration
      FROM payment pay JOIN organization o ON o.id = pay."organizationId" LEFT JOIN policy pol ON pol.id = pay."policyId"
      WHERE pay.reference = ${reference}
      FOR UPDATE OF pay FOR KEY SHARE OF o`;
    if (!locked) throw notFound("Payment");
    if (locked.status !== "pending") throw new AppError("payment_not_pending", `This payment is already ${locked.status}`);
    // A name given on the checkout is kept, paid or not.
    const named = { ...(customerName ? { customerName } : {}), ...(customerPhone ? { customerPhone } : {}) };

    if (outcome === "failed") {
      const payment = await tx.payment.update({ where: { id: locked.id }, data: { status: "failed", failureReason, ...named } });
      // Declined, refused by the provider, or expired unpaid: with why.
      await recordEvent(tx, payment.organizationId, "payment.failed", { ...toPayment(payment), failureReason }, reference);
      // The provider's outcome (a webhook, a verify, the checkout's card, a job): the system's, whoever asked.
      await auditAsSystem(tx, payment.organizationId, {
        action: "payment.failed",
        resourceType: "payment",
        resourceId: reference,
        details: {
          ...paymentAuditDetails(payment),
          failureReason: failureReason ?? null,
          renewalAttempt: payment.renewalAttempt,
        },
      });
      // A declined renewal: the cover is past due, the next try is planned and the policyholder told.
      if (payment.renewalAttempt) await renewalDeclined(tx, payment, now);
      return { payment, coverage: null };
    }

    const pending = locked;
    // Credited only in its business's currency. The currency cannot change
    // once a payment exists (organizations/service.ts), so a payment in another
    // one was made before that rule or by hand: it is left pending — the
    // customer may have been charged, so it is neither credited nor failed —
    // and logged for review.
    const org = { currency: pending.organizationCurrency, policyName: pending.policyName, duration: pending.duration };
    if (org.currency !== pending.currency) {
      logger.error(
        {
          reference,
          organizationId: pending.organizationId,
          paymentCurrency: pending.currency,
          organizationCurrency: org.currency,
        },
        "payment not settled: its currency is not its business's; left pending for review",
      );
      throw new AppError(
        "currency_mismatch",
        `This payment is in ${pending.currency} but the business now works in ${org.currency}: it was not credited and is left pending for review`,
      );
    }
    const name = customerName ?? pending.customerName;
    // The phone given with this payment becomes the customer's (their SMS notices go there).
    const phone = customerPhone ?? pending.customerPhone;
    if (org.policyName === null || org.duration === null) throw notFound("Policy");
    const policy = { id: pending.policyId, name: org.policyName, duration: org.duration };
    const fee = platformFee(pending.amountMinor, env.PLATFORM_FEE_BPS);
    // The payment credited and the platform fee debited: one statement (ids and time as Prisma makes them).
    const createdAt = new Date();
    const entries = [
      { type: "payment", amountMinor: pending.amountMinor, description: `Payment for ${policy.name} by ${pending.email}` },
      ...(fee > 0n ? [{ type: "fee", amountMinor: -fee, description: `Platform fee (${env.PLATFORM_FEE_BPS / 100}%)` }] : []),
    ];
    await tx.$executeRaw`
      INSERT INTO ledger_transaction (id, "organizationId", type, "amountMinor", currency, reference, description, "policyId", "createdAt")
      VALUES ${Prisma.join(
        entries.map(
          (e) =>
            Prisma.sql`(${newId()}, ${pending.organizationId}, ${e.type}::"LedgerType", ${e.amountMinor}, ${pending.currency}, ${reference}, ${e.description}, ${policy.id}, ${createdAt})`,
        ),
      )}`;

    // Created by the first payment of (policy, email), extended from the later
    // of now and its current end by every next one — atomically, even when two
    // payments of the same customer settle at once. A cancelled coverage is
    // not extended: the payment buys a new period from now (a purchase again).
    const interval = INTERVAL[policy.duration];
    // A renewal paid during an unpaid renewal's grace period (a retry, or by hand) continues from
    // the old end: the cover stayed valid, so the new period starts where the paid one stopped.
    const [before] = await tx.$queryRaw<{ cancelled: boolean }[]>`
      SELECT "cancelledAt" IS NOT NULL AS cancelled FROM coverage
      WHERE "policyId" = ${policy.id} AND "customerEmail" = ${pending.email} FOR UPDATE`;
    const [upserted] = await tx.$queryRaw<(CoverageRow & { inserted: boolean })[]>`
      INSERT INTO coverage (id, "organizationId", "policyId", "customerEmail", "customerName", "startsAt", "periodStartsAt", "endsAt", "renewalCount", "certificateNumber", "createdAt", "updatedAt")
      VALUES (${newId()}, ${pending.organizationId}, ${policy.id}, ${pending.email}, ${name}, ${now}, ${now}, ${now}::timestamp + ${interval}::interval, 0, ${newCertificateNumber()}, ${now}, ${now})
      ON CONFLICT ("policyId", "customerEmail") DO UPDATE SET
        "periodStartsAt" = CASE WHEN coverage."cancelledAt" IS NOT NULL THEN EXCLUDED."startsAt" WHEN coverage."graceEndsAt" > EXCLUDED."startsAt" THEN coverage."endsAt" ELSE GREATEST(coverage."endsAt", EXCLUDED."startsAt") END,
        "endsAt" = CASE WHEN coverage."cancelledAt" IS NOT NULL THEN EXCLUDED."startsAt" WHEN coverage."graceEndsAt" > EXCLUDED."startsAt" THEN coverage."endsAt" ELSE GREATEST(coverage."endsAt", EXCLUDED."startsAt") END + ${interval}::interval,
        "renewalCount" = coverage."renewalCount" + CASE WHEN coverage."cancelledAt" IS NULL THEN 1 ELSE 0 END,
        "cancelledAt" = NULL,
        "cancellationReason" = NULL,
        "customerName" = COALESCE(EXCLUDED."customerName", coverage."customerName"),
        "updatedAt" = EXCLUDED."updatedAt"
      RETURNING *, (xmax = 0) AS inserted`;
    if (!upserted) throw new Error("coverage upsert returned nothing");
    const { inserted, ...upsertedRow } = upserted;
    // The new period's reminders, renewal charge and expiry event are due again, written with what the period
    // cost (the next renewal's price, unless a new one was announced in time: src/server/renewals/pricing.ts) and
    // the card and consent the checkout gave: one statement.
    const coverage = await scheduleCoverage(
      tx,
      upsertedRow,
      periodTerms(upsertedRow, {
        premiumMinor: pending.amountMinor,
        consent: autoRenew ?? pending.autoRenew ?? null,
        card: card ? { ...card, provider: pending.provider } : null,
      }),
    );
    if (!coverage) throw new Error("coverage schedule returned nothing");
    const purchased = inserted || before?.cancelled === true;

    const coverageAction = purchased ? "purchased" : "renewed";
    // The payment settled and its customer (one per email, with running totals for the customers list): one
    // statement. The payment's row is locked already, so the customer's is the only lock it takes.
    const [payment] = await tx.$queryRaw<PaymentRow[]>`
      WITH customer_paid AS (
        INSERT INTO customer (id, "organizationId", email, name, phone, "paymentsCount", "totalPaidMinor", "lastPaidAt", "createdAt", "updatedAt")
        VALUES (${newId()}, ${pending.organizationId}, ${pending.email}, ${name}, ${phone}, 1, ${pending.amountMinor}, ${now}, ${now}, ${now})
        ON CONFLICT ("organizationId", email) DO UPDATE SET
          name = COALESCE(EXCLUDED.name, customer.name),
          phone = COALESCE(EXCLUDED.phone, customer.phone),
          "paymentsCount" = customer."paymentsCount" + 1,
          "totalPaidMinor" = customer."totalPaidMinor" + EXCLUDED."totalPaidMinor",
          "lastPaidAt" = GREATEST(customer."lastPaidAt", EXCLUDED."lastPaidAt"),
          "updatedAt" = EXCLUDED."updatedAt"
      )
      UPDATE payment SET status = 'success', "paidAt" = ${now}::timestamp, "feeMinor" = ${fee}, "coverageId" = ${coverage.id},
        "coverageAction" = ${coverageAction},
        "autoRenew" = ${autoRenew === undefined ? Prisma.sql`"autoRenew"` : Prisma.sql`${autoRenew}`},
        "customerName" = ${customerName ? Prisma.sql`${customerName}` : Prisma.sql`"customerName"`},
        "customerPhone" = ${customerPhone ? Prisma.sql`${customerPhone}` : Prisma.sql`"customerPhone"`},
        "updatedAt" = ${new Date()}::timestamp
      WHERE id = ${locked.id}
      RETURNING *`;
    if (!payment) throw new Error("payment update returned nothing");
    // Its two events and the audit entry: one statement.
    await recordEvents(
      tx,
      payment.organizationId,
      [
        { type: "payment.completed", data: toPayment(payment), subject: reference },
        {
          type: purchased ? "policy.purchased" : "policy.renewed",
          data: {
            coverage: toCoverage(coverage, now),
            policy: { id: policy.id, name: policy.name, duration: policy.duration },
            payment: { reference, amount: formatMinor(payment.amountMinor, payment.currency), currency: payment.currency },
          },
          subject: reference,
        },
      ],
      auditInsertSql(
        payment.organizationId,
        systemAuditor(),
        {
          action: "payment.succeeded",
          resourceType: "payment",
          resourceId: reference,
          details: {
            ...paymentAuditDetails(payment),
            fee: formatMinor(fee, payment.currency),
            coverageId: coverage.id,
            coverageAction: payment.coverageAction,
            renewalAttempt: payment.renewalAttempt,
          },
        },
        new Date(),
      ),
    );
    return { payment, coverage };
  });
}
