// Auto-renew switched by the business (PATCH /business/coverages/{id}) or the
// policyholder (the portal), the saved card removed, the Renewals view and its
// figures, and a new price announced to the covers that renew at the old one.
import { Prisma, type Coverage as CoverageRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { decodeCursor, encodeCursor, type Page } from "@/lib/schemas/pagination";
import type { ListRenewalsQuery, Renewal, RenewalSummary } from "@/lib/schemas/renewals";
import type { Coverage } from "@/lib/schemas/coverages";
import { assertCan, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { scheduleRenewal } from "@/server/coverages/schedule";
import { savedCardOf, toCoverage } from "@/server/coverages/service";
import { coverageStatus, isActiveAt } from "@/server/coverages/status";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { renewalAmount } from "./pricing";
import { NO_CARD } from "./terms";

const DAY_MS = 86_400_000;
/** A new premium applies to renewals this many days after the policyholders were told, at the earliest. */
export const PRICE_NOTICE_DAYS = 14;

type Who = { organizationId: string; customerEmail?: string };

async function lockCoverage(tx: Tx, who: Who, coverageId: string): Promise<CoverageRow> {
  const [row] = await tx.$queryRaw<CoverageRow[]>`
    SELECT * FROM coverage WHERE id = ${coverageId} AND "organizationId" = ${who.organizationId} FOR UPDATE`;
  // Another organization's — or, in the portal, another policyholder's — coverage does not exist.
  if (!row || (who.customerEmail !== undefined && row.customerEmail !== who.customerEmail)) throw notFound("Coverage");
  return row;
}

/** Auto-renew on (needs a saved card and valid cover) or off, with its `coverage.updated` event; no change, no event. */
export async function setAutoRenewOf(who: Who, coverageId: string, on: boolean, now = new Date()): Promise<Coverage> {
  return db.$transaction(async (tx) => {
    const row = await lockCoverage(tx, who, coverageId);
    if (row.autoRenew === on) return toCoverage(row, now);
    if (on && !row.cardAuthorizationSealed)
      throw new AppError(
        "invalid_state",
        "This cover has no saved card: automatic renewal starts when the policyholder pays with a card and agrees to renew automatically",
      );
    if (on && !isActiveAt(row, now))
      throw new AppError("invalid_state", `This cover is ${coverageStatus(row, now)}: only valid cover can renew automatically`);
    await tx.coverage.update({ where: { id: row.id }, data: { autoRenew: on } });
    await audit(tx, row.organizationId, {
      action: "coverage.updated",
      resourceType: "coverage",
      resourceId: row.id,
      details: { customerEmail: row.customerEmail, before: { autoRenew: row.autoRenew }, after: { autoRenew: on } },
    });
    return changed(tx, row.id, now);
  });
}

/** The policyholder removes their saved card: automatic renewal stops with it. */
export async function removeCardOf(who: Who & { customerEmail: string }, coverageId: string, now = new Date()) {
  return db.$transaction(async (tx) => {
    const row = await lockCoverage(tx, who, coverageId);
    if (!row.cardAuthorizationSealed && !row.autoRenew) return toCoverage(row, now);
    await tx.coverage.update({ where: { id: row.id }, data: { autoRenew: false, ...NO_CARD } });
    await audit(tx, row.organizationId, {
      action: "coverage.card_removed",
      resourceType: "coverage",
      resourceId: row.id,
      details: { customerEmail: row.customerEmail, before: { autoRenew: row.autoRenew }, after: { autoRenew: false } },
    });
    return changed(tx, row.id, now);
  });
}

/** After a switch: the renewal charge, grace period, card notice and expiry follow, and the event says so. */
async function changed(tx: Tx, coverageId: string, now: Date): Promise<Coverage> {
  await scheduleRenewal(tx, { id: coverageId });
  const row = await tx.coverage.findUniqueOrThrow({ where: { id: coverageId } });
  const coverage = toCoverage(row, now);
  await recordEvent(tx, row.organizationId, "coverage.updated", coverage, row.id);
  return coverage;
}

export function setAutoRenew(actor: Actor, input: { id: string; autoRenew: boolean }, now = new Date()) {
  assertCan(actor, "manage");
  return setAutoRenewOf({ organizationId: actor.organizationId }, input.id, input.autoRenew, now);
}

/**
 * A policy's price changed: every valid auto-renewing cover of it is told (a
 * mail), and renews at the new price from PRICE_NOTICE_DAYS days on — a
 * renewal before then keeps its premium. Returns how many were told.
 */
export async function announcePrice(
  tx: Tx,
  policy: { id: string; organizationId: string; priceMinor: bigint; currency: string },
  now: Date,
) {
  const from = new Date(now.getTime() + PRICE_NOTICE_DAYS * DAY_MS);
  const told = await tx.$queryRaw<{ id: string; customerEmail: string; premiumMinor: bigint | null }[]>`
    UPDATE coverage SET "nextPremiumMinor" = ${policy.priceMinor}, "nextPremiumFrom" = ${from}::timestamp
    WHERE "policyId" = ${policy.id} AND "organizationId" = ${policy.organizationId} AND "autoRenew"
      AND "cancelledAt" IS NULL AND ("endsAt" > ${now}::timestamp OR "graceEndsAt" > ${now}::timestamp)
    RETURNING id, "customerEmail", "premiumMinor"`;
  if (told.length === 0) return 0;
  const amount = formatMinor(policy.priceMinor, policy.currency);
  await tx.mailTask.createMany({
    data: told.map((c) => ({
      organizationId: policy.organizationId,
      kind: "premium_change",
      sourceId: `${c.id}:${now.toISOString()}`,
      recipient: c.customerEmail,
      customerEmail: c.customerEmail,
      data: { coverageId: c.id, policyId: policy.id, amount, currency: policy.currency, from: from.toISOString() },
      runAt: now,
    })),
    skipDuplicates: true,
  });
  return told.length;
}

// ---------- the Renewals view ----------

type ViewRow = CoverageRow & { policyName: string; priceMinor: bigint; currency: string };

const charge = (row: ViewRow) => renewalAmount(row);

export async function listRenewals(actor: Actor, query: ListRenewalsQuery, now = new Date()): Promise<Page<Renewal>> {
  assertCan(actor, "read");
  const org = actor.organizationId;
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const take = query.limit + 1;
  if (query.view === "recovered") {
    const rows = await db.payment.findMany({
      where: {
        organizationId: org,
        renewalAttempt: { gt: 1 },
        status: "success",
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take,
      include: { coverage: true, policy: { select: { name: true } } },
    });
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page[page.length - 1];
    return {
      data: page.map((p) => ({
        coverageId: p.coverageId ?? "",
        customerEmail: p.email,
        customerName: p.customerName,
        policyId: p.policyId,
        policyName: p.policy.name,
        status: p.coverage ? coverageStatus(p.coverage, now) : "expired",
        autoRenew: p.coverage?.autoRenew ?? false,
        card: p.coverage ? savedCardOf(p.coverage) : null,
        amount: formatMinor(p.amountMinor, p.currency),
        currency: p.currency,
        endsAt: (p.coverage?.endsAt ?? p.renewalPeriodEndsAt!).toISOString(),
        graceEndsAt: p.coverage?.graceEndsAt?.toISOString() ?? null,
        attempts: p.renewalAttempt!,
        nextAttemptAt: null,
        lastFailureReason: null,
        paymentReference: p.reference,
        renewedAt: p.paidAt?.toISOString() ?? null,
      })),
      nextCursor: more && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
    };
  }
  // due: soonest end first over (organizationId, endsAt); past_due: soonest lapse first over (organizationId, graceEndsAt).
  const key = query.view === "due" ? "endsAt" : "graceEndsAt";
  const rows = await db.$queryRaw<ViewRow[]>`
    SELECT c.*, p.name AS "policyName", p."priceMinor", p.currency
    FROM coverage c JOIN policy p ON p.id = c."policyId"
    WHERE c."organizationId" = ${org} AND c."cancelledAt" IS NULL AND c."autoRenew"
      ${
        query.view === "due"
          ? Prisma.sql`AND c."endsAt" > ${now}::timestamp AND c."endsAt" <= ${new Date(now.getTime() + 7 * DAY_MS)}::timestamp`
          : Prisma.sql`AND c."endsAt" <= ${now}::timestamp AND c."graceEndsAt" > ${now}::timestamp`
      }
      ${after ? Prisma.sql`AND (c.${Prisma.raw(`"${key}"`)}, c.id) > (${after.createdAt}::timestamp, ${after.id})` : Prisma.empty}
    ORDER BY c.${Prisma.raw(`"${key}"`)}, c.id LIMIT ${take}`;
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  // The latest renewal charge of each listed cover: one query for the page (DISTINCT ON, within the organization).
  const charges = page.length
    ? await db.$queryRaw<
        {
          coverageId: string;
          reference: string;
          failureReason: string | null;
          renewalPeriodEndsAt: Date | null;
          status: string;
        }[]
      >`
        SELECT DISTINCT ON ("coverageId") "coverageId", reference, "failureReason", "renewalPeriodEndsAt", status::text AS status
        FROM payment
        WHERE "organizationId" = ${org} AND "coverageId" IN (${Prisma.join(page.map((r) => r.id))}) AND "renewalAttempt" IS NOT NULL
        ORDER BY "coverageId", "createdAt" DESC, id DESC`
    : [];
  const latest = new Map<string, (typeof charges)[number]>();
  for (const c of charges) latest.set(c.coverageId, c);
  const last = page[page.length - 1];
  return {
    data: page.map((r) => {
      const c = latest.get(r.id);
      const ofPeriod = c && c.renewalPeriodEndsAt?.getTime() === r.endsAt.getTime() ? c : undefined;
      return {
        coverageId: r.id,
        customerEmail: r.customerEmail,
        customerName: r.customerName,
        policyId: r.policyId,
        policyName: r.policyName,
        status: coverageStatus(r, now),
        autoRenew: r.autoRenew,
        card: savedCardOf(r),
        amount: formatMinor(charge(r), r.currency),
        currency: r.currency,
        endsAt: r.endsAt.toISOString(),
        graceEndsAt: r.graceEndsAt?.toISOString() ?? null,
        attempts: r.renewalAttempts,
        nextAttemptAt: r.renewAt?.toISOString() ?? null,
        lastFailureReason: ofPeriod?.status === "failed" ? ofPeriod.failureReason : null,
        paymentReference: ofPeriod?.reference ?? null,
        renewedAt: null,
      };
    }),
    nextCursor:
      more && last ? encodeCursor({ createdAt: (key === "endsAt" ? last.endsAt : last.graceEndsAt)!, id: last.id }) : null,
  };
}

const MONTHS = 6;

export async function renewalSummary(actor: Actor, now = new Date()): Promise<RenewalSummary> {
  assertCan(actor, "read");
  const org = actor.organizationId;
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1), 1));
  const [{ currency }, [book], [counts], collected] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: org }, select: { currency: true } }),
    // A year of premiums in minor units (exact), then per month.
    db.$queryRaw<{ yearly: bigint | null; covers: bigint }[]>`
      SELECT sum(COALESCE(c."premiumMinor", p."priceMinor") * CASE p.duration WHEN 'monthly' THEN 12 WHEN 'quarterly' THEN 4 ELSE 1 END)::bigint AS yearly,
        count(*) AS covers
      FROM coverage c JOIN policy p ON p.id = c."policyId"
      WHERE c."organizationId" = ${org} AND c."autoRenew" AND c."cancelledAt" IS NULL
        AND (c."endsAt" > ${now}::timestamp OR c."graceEndsAt" > ${now}::timestamp)`,
    db.$queryRaw<{ due: bigint; pastDue: bigint; recovered: bigint }[]>`
      SELECT
        (SELECT count(*) FROM coverage c WHERE c."organizationId" = ${org} AND c."autoRenew" AND c."cancelledAt" IS NULL
          AND c."endsAt" > ${now}::timestamp AND c."endsAt" <= ${new Date(now.getTime() + 7 * DAY_MS)}::timestamp) AS due,
        (SELECT count(*) FROM coverage c WHERE c."organizationId" = ${org} AND c."autoRenew" AND c."cancelledAt" IS NULL
          AND c."endsAt" <= ${now}::timestamp AND c."graceEndsAt" > ${now}::timestamp) AS "pastDue",
        (SELECT count(*) FROM payment p WHERE p."organizationId" = ${org} AND p."renewalAttempt" > 1 AND p.status = 'success'
          AND p."createdAt" > ${new Date(now.getTime() - 30 * DAY_MS)}::timestamp) AS recovered`,
    db.$queryRaw<{ month: string; amount: bigint; charges: bigint }[]>`
      SELECT to_char(date_trunc('month', p."paidAt"), 'YYYY-MM') AS month, sum(p."amountMinor")::bigint AS amount, count(*) AS charges
      FROM payment p
      WHERE p."organizationId" = ${org} AND p."renewalAttempt" >= 1 AND p.status = 'success' AND p."paidAt" >= ${since}::timestamp
      GROUP BY 1`,
  ]);
  const byMonth = new Map(collected.map((c) => [c.month, c]));
  const months = Array.from({ length: MONTHS }, (_, i) => {
    const d = new Date(Date.UTC(since.getUTCFullYear(), since.getUTCMonth() + i, 1));
    const month = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    const row = byMonth.get(month);
    return { month, amount: formatMinor(row?.amount ?? 0n, currency), charges: Number(row?.charges ?? 0n) };
  });
  const yearly = book?.yearly ?? 0n;
  // Rounded half up to a whole minor unit.
  const perMonth = (yearly * 2n + 12n) / 24n;
  return {
    currency,
    recurringPremiumPerMonth: formatMinor(perMonth, currency),
    autoRenewing: Number(book?.covers ?? 0n),
    dueNext7Days: Number(counts?.due ?? 0n),
    pastDue: Number(counts?.pastDue ?? 0n),
    recoveredLast30Days: Number(counts?.recovered ?? 0n),
    collected: months,
  };
}
