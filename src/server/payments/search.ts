// The dashboard's Payments: one `where` built from the page's filters serves
// the list, its totals and its CSV, so the three count the same rows (the
// totals of all payments, or of one policy's, come from the day rollups,
// which ledger:check and search.test.ts hold equal to those rows).
// A payment's page: its timeline, money, customer, the coverage it created or
// renewed, and the events it caused with their webhook deliveries.
import { Prisma } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { toCoverage } from "@/server/coverages/service";
import { db } from "@/server/db/client";
import { dayEnd, dayStart } from "@/lib/schemas/earnings";
import { notFound } from "@/server/errors";
import { literal } from "@/server/like";
import { pageArgs, toPage, type Page } from "@/server/pagination";
import { toPayment } from "./dto";
import type { PaymentDetail, PaymentFilters, PaymentRow, PaymentTotals, SearchPaymentsQuery } from "@/lib/schemas/payments";

/** The rows the filters match, in the actor's organization. */
export function paymentWhere(organizationId: string, f: PaymentFilters): Prisma.PaymentWhereInput {
  const q = f.q?.trim();
  return {
    organizationId,
    ...(f.status ? { status: f.status } : {}),
    ...(f.policyId ? { policyId: f.policyId } : {}),
    ...(f.paymentLinkId ? { paymentLinkId: f.paymentLinkId } : {}),
    ...(f.from || f.to
      ? { createdAt: { ...(f.from ? { gte: dayStart(f.from) } : {}), ...(f.to ? { lt: dayEnd(f.to) } : {}) } }
      : {}),
    ...(q
      ? {
          OR: [
            { email: { contains: literal(q.toLowerCase()), mode: "insensitive" as const } },
            { customerName: { contains: literal(q), mode: "insensitive" as const } },
            { reference: { startsWith: literal(q) } },
          ],
        }
      : {}),
  };
}

type RowWithPolicy = Prisma.PaymentGetPayload<{ include: { policy: { select: { name: true } } } }>;

export const toPaymentRow = (row: RowWithPolicy): PaymentRow => ({
  ...toPayment(row),
  policyName: row.policy.name,
  customerName: row.customerName,
  fee: row.feeMinor === null ? null : formatMinor(row.feeMinor, row.currency),
  net: row.feeMinor === null ? null : formatMinor(row.amountMinor - row.feeMinor, row.currency),
  failureReason: row.failureReason,
});

export async function searchPayments(actor: Actor, query: SearchPaymentsQuery): Promise<Page<PaymentRow>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  // The keyset's OR and the search's OR must both hold: kept apart under AND.
  const rows = await db.payment.findMany({
    ...args,
    where: { AND: [paymentWhere(actor.organizationId, query), args.where] },
    include: { policy: { select: { name: true } } },
  });
  return toPage(rows, query, toPaymentRow);
}

/**
 * The totals line. With no filter, or the policy alone, it is read from the day rollups (daily_stats,
 * policy_daily_stats: every payment created, settled and failed, and the ledger's payment and fee rows,
 * which settlement writes once per successful payment, kept at each commit and proven equal to the rows by
 * ledger:check): flat at any number of payments (a group-by over 1 M payments took ~250 ms of each
 * Payments page). Any other filter counts the rows it matches.
 */
export async function paymentTotals(actor: Actor, filters: PaymentFilters): Promise<PaymentTotals> {
  assertCan(actor, "read");
  const organizationId = actor.organizationId;
  const rolledUp = !filters.status && !filters.paymentLinkId && !filters.from && !filters.to && !filters.q?.trim();
  const [org, sums] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { currency: true } }),
    rolledUp ? rollupTotals(organizationId, filters.policyId) : rowTotals(paymentWhere(organizationId, filters)),
  ]);
  return {
    currency: org.currency,
    count: sums.count,
    succeeded: sums.succeeded,
    failed: sums.failed,
    pending: sums.count - sums.succeeded - sums.failed,
    gross: formatMinor(sums.gross, org.currency),
    fees: formatMinor(sums.fees, org.currency),
    net: formatMinor(sums.gross - sums.fees, org.currency),
  };
}

type Sums = { count: number; succeeded: number; failed: number; gross: bigint; fees: bigint };

async function rowTotals(where: Prisma.PaymentWhereInput): Promise<Sums> {
  const groups = await db.payment.groupBy({
    by: ["status"],
    where,
    _count: { _all: true },
    _sum: { amountMinor: true, feeMinor: true },
  });
  const of = (status: string) => groups.find((g) => g.status === status);
  const success = of("success");
  return {
    count: groups.reduce((n, g) => n + g._count._all, 0),
    succeeded: success?._count._all ?? 0,
    failed: of("failed")?._count._all ?? 0,
    gross: success?._sum.amountMinor ?? 0n,
    fees: success?._sum.feeMinor ?? 0n,
  };
}

async function rollupTotals(organizationId: string, policyId: string | undefined): Promise<Sums> {
  const sums = Prisma.sql`coalesce(sum("paymentsCreated"), 0)::bigint AS count, coalesce(sum("paymentsSucceeded"), 0)::bigint AS succeeded,
    coalesce(sum("paymentsFailed"), 0)::bigint AS failed, coalesce(sum("grossMinor"), 0)::bigint AS gross,
    coalesce(sum("feesMinor"), 0)::bigint AS fees`;
  const [row] = await db.$queryRaw<{ count: bigint; succeeded: bigint; failed: bigint; gross: bigint; fees: bigint }[]>(
    policyId
      ? Prisma.sql`SELECT ${sums} FROM policy_daily_stats WHERE "organizationId" = ${organizationId} AND "policyId" = ${policyId}`
      : Prisma.sql`SELECT ${sums} FROM daily_stats WHERE "organizationId" = ${organizationId}`,
  );
  return {
    count: Number(row?.count ?? 0n),
    succeeded: Number(row?.succeeded ?? 0n),
    failed: Number(row?.failed ?? 0n),
    gross: row?.gross ?? 0n,
    fees: row?.fees ?? 0n,
  };
}

/** At most this many events and delivery attempts are shown on a payment's page. */
const MAX_EVENTS = 20;
const MAX_ATTEMPTS = 100;

export async function getPaymentDetail(actor: Actor, reference: string): Promise<PaymentDetail> {
  assertCan(actor, "read");
  const row = await db.payment.findFirst({
    where: { reference, organizationId: actor.organizationId },
    include: { policy: { select: { name: true } }, coverage: true },
  });
  if (!row) throw notFound("Payment");
  const [customer, events] = await Promise.all([
    db.customer.findUnique({
      where: { organizationId_email: { organizationId: actor.organizationId, email: row.email } },
      select: { id: true, name: true },
    }),
    db.event.findMany({
      where: { organizationId: actor.organizationId, subject: reference },
      // One settlement writes its events in one transaction (one timestamp): payment.completed, then policy.*.
      orderBy: [{ createdAt: "asc" }, { type: "asc" }, { id: "asc" }],
      take: MAX_EVENTS,
      select: { id: true, type: true, createdAt: true },
    }),
  ]);
  const attempts = events.length
    ? await db.webhookDelivery.findMany({
        where: { organizationId: actor.organizationId, eventId: { in: events.map((e) => e.id) } },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: MAX_ATTEMPTS,
        select: {
          id: true,
          webhookId: true,
          eventId: true,
          attempt: true,
          status: true,
          responseStatus: true,
          error: true,
          createdAt: true,
          webhook: { select: { url: true } },
        },
      })
    : [];

  const timeline: PaymentDetail["timeline"] = [{ status: "created", at: row.createdAt.toISOString(), note: null }];
  if (row.status === "success" && row.paidAt) timeline.push({ status: "success", at: row.paidAt.toISOString(), note: null });
  if (row.status === "failed") timeline.push({ status: "failed", at: row.updatedAt.toISOString(), note: row.failureReason });

  return {
    ...toPaymentRow(row),
    provider: row.provider,
    customer: { id: customer?.id ?? null, email: row.email, name: customer?.name ?? row.customerName },
    coverage:
      row.coverage && (row.coverageAction === "purchased" || row.coverageAction === "renewed")
        ? { ...toCoverage(row.coverage), action: row.coverageAction }
        : null,
    timeline,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      createdAt: e.createdAt.toISOString(),
      deliveries: attempts
        .filter((a) => a.eventId === e.id)
        .map((a) => ({
          id: a.id,
          webhookId: a.webhookId,
          url: a.webhook.url,
          attempt: a.attempt,
          status: a.status,
          responseStatus: a.responseStatus,
          error: a.error,
          createdAt: a.createdAt.toISOString(),
        })),
    })),
  };
}
