// Customers: the people who paid a business for a policy, one per email.
// The row and its running totals are written by the payment's settlement (in
// its transaction); coverages, payments and claims are found by the email.
import { Prisma, type Customer as CustomerRow, type MailTask } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { toClaim } from "@/server/claims/service";
import { toCoverage } from "@/server/coverages/service";
import { validAt, isActiveAt } from "@/server/coverages/status";
import { db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import { literal } from "@/server/like";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { toPaymentRow } from "@/server/payments/search";
import type { Customer, CustomerDetail, CustomerMessage, ListCustomersQuery } from "@/lib/schemas/customers";

const toCustomerMessage = (m: MailTask): CustomerMessage => ({
  id: m.id,
  kind: m.kind,
  channel: m.channel === "sms" ? "sms" : "email",
  recipient: m.recipient,
  preview: m.preview,
  status: m.sentAt ? "sent" : m.failedAt ? "failed" : "queued",
  attempts: m.attempts,
  lastError: m.lastError,
  createdAt: m.createdAt.toISOString(),
  sentAt: m.sentAt?.toISOString() ?? null,
});

/** At most this many payments and claims are shown on a customer's page (newest first). */
const RECENT = 50;

type Counts = Map<string, { total: number; active: number }>;

type Refunded = Map<string, bigint>;

const toCustomer = (row: CustomerRow, currency: string, counts: Counts, refunded: Refunded): Customer => ({
  id: row.id,
  email: row.email,
  name: row.name,
  phone: row.phone,
  currency,
  paymentsCount: row.paymentsCount,
  // Net of the refunds made to them (pending or processed; a failed one gave nothing back).
  totalPaid: formatMinor(row.totalPaidMinor - (refunded.get(row.email) ?? 0n), currency),
  lastPaidAt: row.lastPaidAt?.toISOString() ?? null,
  coverages: counts.get(row.email) ?? { total: 0, active: 0 },
  createdAt: row.createdAt.toISOString(),
});

/** Coverages held and active now, per email, in two grouped reads. */
async function coverageCounts(organizationId: string, emails: string[], now = new Date()): Promise<Counts> {
  if (emails.length === 0) return new Map();
  const where = { organizationId, customerEmail: { in: emails } };
  const [all, active] = await Promise.all([
    db.coverage.groupBy({ by: ["customerEmail"], where, _count: { _all: true } }),
    db.coverage.groupBy({ by: ["customerEmail"], where: { ...where, ...validAt(now) }, _count: { _all: true } }),
  ]);
  const counts: Counts = new Map(all.map((g) => [g.customerEmail, { total: g._count._all, active: 0 }]));
  for (const g of active) counts.get(g.customerEmail)!.active = g._count._all;
  return counts;
}

/** What was refunded per email (refunds not failed), in one grouped read for the page. */
async function refundedByEmail(organizationId: string, emails: string[]): Promise<Refunded> {
  if (emails.length === 0) return new Map();
  const rows = await db.$queryRaw<{ email: string; refunded: bigint }[]>`
    SELECT p.email, COALESCE(SUM(r."amountMinor"), 0)::bigint AS refunded
    FROM refund r JOIN payment p ON p.id = r."paymentId"
    WHERE r."organizationId" = ${organizationId} AND r.status <> 'failed'
      AND p."organizationId" = ${organizationId} AND p.email IN (${Prisma.join(emails)})
    GROUP BY p.email`;
  return new Map(rows.map((r) => [r.email, BigInt(r.refunded)]));
}

const currencyOf = async (organizationId: string) =>
  (await db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { currency: true } })).currency;

export async function listCustomers(actor: Actor, query: ListCustomersQuery, now = new Date()): Promise<Page<Customer>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const q = query.q?.trim();
  const where: Prisma.CustomerWhereInput = {
    AND: [
      { organizationId: actor.organizationId },
      q
        ? {
            OR: [
              { email: { contains: literal(q.toLowerCase()), mode: "insensitive" } },
              { name: { contains: literal(q), mode: "insensitive" } },
            ],
          }
        : {},
      args.where,
    ],
  };
  const [rows, currency] = await Promise.all([db.customer.findMany({ ...args, where }), currencyOf(actor.organizationId)]);
  const emails = rows.slice(0, query.limit).map((r) => r.email);
  const [counts, refunded] = await Promise.all([
    coverageCounts(actor.organizationId, emails, now),
    refundedByEmail(actor.organizationId, emails),
  ]);
  return toPage(rows, query, (r) => toCustomer(r, currency, counts, refunded));
}

/** One customer as the REST API shows them (their totals; the dashboard's page adds what they hold and did). */
export async function getCustomerSummary(actor: Actor, id: string, now = new Date()): Promise<Customer> {
  assertCan(actor, "read");
  const row = await db.customer.findFirst({ where: { id, organizationId: actor.organizationId } });
  if (!row) throw notFound("Customer");
  const [currency, counts, refunded] = await Promise.all([
    currencyOf(actor.organizationId),
    coverageCounts(actor.organizationId, [row.email], now),
    refundedByEmail(actor.organizationId, [row.email]),
  ]);
  return toCustomer(row, currency, counts, refunded);
}

export async function getCustomer(actor: Actor, id: string, now = new Date()): Promise<CustomerDetail> {
  assertCan(actor, "read");
  const row = await db.customer.findFirst({ where: { id, organizationId: actor.organizationId } });
  if (!row) throw notFound("Customer");
  const org = actor.organizationId;
  const [currency, refunded, coverages, payments, claims, messages] = await Promise.all([
    currencyOf(org),
    refundedByEmail(org, [row.email]),
    db.coverage.findMany({
      where: { organizationId: org, customerEmail: row.email },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      // One coverage per policy: bounded by the policies the business sells.
      take: 500,
      include: { policy: { select: { name: true } } },
    }),
    db.payment.findMany({
      where: { organizationId: org, email: row.email },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT,
      include: { policy: { select: { name: true } } },
    }),
    db.claim.findMany({
      where: { organizationId: org, customerEmail: row.email },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT,
      include: { policy: { select: { name: true } } },
    }),
    db.mailTask.findMany({
      where: { organizationId: org, customerEmail: row.email },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT,
    }),
  ]);
  const counts: Counts = new Map([
    [row.email, { total: coverages.length, active: coverages.filter((c) => isActiveAt(c, now)).length }],
  ]);
  return {
    ...toCustomer(row, currency, counts, refunded),
    coverageList: coverages.map((c) => ({ ...toCoverage(c, now), policyName: c.policy.name })),
    payments: payments.map(toPaymentRow),
    claims: claims.map((c) => ({ ...toClaim(c), policyName: c.policy.name, customerEmail: c.customerEmail })),
    smsOptOut: row.smsOptOut,
    messages: messages.map(toCustomerMessage),
  };
}
