// Which notices an outbox event asks for, by email and by SMS. Called by the
// job runner's dispatch, in the transaction that marks the events dispatched:
// that is after the business change committed (a notice is never planned for a
// change that rolled back), and the tasks commit together with "dispatched",
// so an event is planned exactly once. Unique (kind, channel, sourceId,
// recipient) + skipDuplicates make a replay harmless anyway.
//
// Who hears what (Settings → Notifications, kept on the live account):
// - the owners and admins: the team's notices, by email when
//   `notifications.email` is on, by SMS to their verified phone when
//   `notifications.sms` is on (live events only: test mode does not page the team);
// - the policyholder: their notices by email always (the service), and by SMS
//   when `notifications.sms` is on, a phone is known and they did not opt out.
import type { Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/server/db/client";
import { newId } from "@/server/ids";
import { logger } from "@/server/logger";
import { MAIL_DATA, type MailKind } from "./kinds";

export interface OutboxEvent {
  id: string;
  organizationId: string;
  type: string;
  data: unknown;
}

type Row = Prisma.MailTaskCreateManyInput;

/** Events whose notice goes to the business's owners and admins. */
const TEAM_NOTICE: Record<string, MailKind> = {
  "payment.completed": "payment_received",
  "claim.submitted": "claim_submitted",
  "kyb.approved": "kyb_approved",
  "kyb.rejected": "kyb_rejected",
  "withdrawal.failed": "withdrawal_failed",
  "webhook.disabled": "webhook_disabled",
  "claim_payout.failed": "payout_failed",
};

/** Payment notices in a UTC day before the rest of the day goes in one digest (when the business asked for it). */
export const DIGEST_AFTER = 20;
/** The digest of a day goes the next morning at this UTC hour (07:00 in Lagos). */
const DIGEST_HOUR_UTC = 6;

function dataFor(kind: MailKind, event: OutboxEvent, source?: unknown): Prisma.InputJsonValue | null {
  const raw = (event.data ?? {}) as Record<string, unknown>;
  const parsed = MAIL_DATA[kind].safeParse(source ?? (kind === "kyb_rejected" ? { reason: raw.rejectionReason ?? "" } : raw));
  if (!parsed.success) {
    logger.warn({ eventId: event.id, kind }, "event data does not fit its notice; none planned");
    return null;
  }
  return parsed.data as Prisma.InputJsonValue;
}

interface Channels {
  notifyEmail: boolean;
  notifySms: boolean;
  notifyDigest: boolean;
}

/** Each organization's notification settings: its own when live, its live account's for a test twin. */
async function settingsOf(tx: Tx, orgIds: string[]): Promise<Map<string, Channels & { livemode: boolean }>> {
  const rows = await tx.organization.findMany({
    where: { id: { in: orgIds } },
    select: {
      id: true,
      livemode: true,
      notifyEmail: true,
      notifySms: true,
      notifyDigest: true,
      liveOrganization: { select: { notifyEmail: true, notifySms: true, notifyDigest: true } },
    },
  });
  return new Map(rows.map((o) => [o.id, { livemode: o.livemode, ...(o.liveOrganization ?? o) }]));
}

/** The policyholder an event is about: its email (or null when none is known). */
async function policyholderEmails(tx: Tx, events: OutboxEvent[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const claimIds: string[] = [];
  const references: string[] = [];
  for (const e of events) {
    const d = (e.data ?? {}) as Record<string, unknown>;
    if (e.type === "payment.completed") out.set(e.id, typeof d.email === "string" ? d.email.toLowerCase() : null);
    else if (e.type === "coverage.cancelled")
      out.set(e.id, typeof d.customerEmail === "string" ? d.customerEmail.toLowerCase() : null);
    else if (e.type.startsWith("claim.") && typeof d.id === "string") claimIds.push(d.id);
    else if (e.type === "payment.refunded" && typeof d.paymentReference === "string") references.push(d.paymentReference);
  }
  const orgs = [...new Set(events.map((e) => e.organizationId))];
  const [claims, payments] = await Promise.all([
    claimIds.length
      ? tx.claim.findMany({
          where: { id: { in: claimIds }, organizationId: { in: orgs } },
          select: { id: true, organizationId: true, customerEmail: true },
        })
      : [],
    references.length
      ? tx.payment.findMany({
          where: { reference: { in: references }, organizationId: { in: orgs } },
          select: { reference: true, organizationId: true, email: true },
        })
      : [],
  ]);
  for (const e of events) {
    const d = (e.data ?? {}) as Record<string, unknown>;
    if (e.type.startsWith("claim.")) {
      const claim = claims.find((c) => c.id === d.id && c.organizationId === e.organizationId);
      out.set(e.id, claim?.customerEmail ?? null);
    } else if (e.type === "payment.refunded") {
      const payment = payments.find((p) => p.reference === d.paymentReference && p.organizationId === e.organizationId);
      out.set(e.id, payment?.email.toLowerCase() ?? null);
    }
  }
  return out;
}

/** The policyholder notice an event asks for, and its data; null: none. */
function policyholderNotice(event: OutboxEvent): { kind: MailKind; data: Prisma.InputJsonValue | null } | null {
  const d = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case "payment.completed":
      return { kind: "customer_receipt", data: dataFor("customer_receipt", event) };
    case "claim.submitted":
      return { kind: "claim_received", data: dataFor("claim_received", event, { claimId: d.id }) };
    case "claim.updated":
      if (d.status === "approved") return { kind: "claim_approved", data: dataFor("claim_approved", event, { claimId: d.id }) };
      if (d.status === "rejected") return { kind: "claim_rejected", data: dataFor("claim_rejected", event, { claimId: d.id }) };
      return null; // under review: nothing to tell; paid: claim.paid tells
    case "claim.paid":
      return { kind: "claim_paid", data: dataFor("claim_paid", event, { claimId: d.id }) };
    case "payment.refunded":
      return { kind: "refund", data: dataFor("refund", event) };
    case "coverage.cancelled":
      return { kind: "cancellation", data: dataFor("cancellation", event) };
    default:
      return null;
  }
}

/**
 * Adds, to policyholder email rows, the SMS each also goes as: when the
 * organization's SMS notices are on, the policyholder has a phone on file and
 * did not turn text messages off. One query for the organizations, one for the
 * customers. Used by every producer of policyholder notices.
 */
export async function withPolicyholderSms(tx: Tx, rows: Row[], known?: Awaited<ReturnType<typeof settingsOf>>): Promise<Row[]> {
  const candidates = rows.filter((r) => (r.channel ?? "email") === "email" && r.customerEmail);
  if (candidates.length === 0) return rows;
  const orgIds = [...new Set(candidates.map((r) => r.organizationId))];
  const settings = known ?? (await settingsOf(tx, orgIds));
  const wanted = candidates.filter((r) => settings.get(r.organizationId)?.notifySms);
  if (wanted.length === 0) return rows;
  const customers = await tx.customer.findMany({
    where: {
      organizationId: { in: [...new Set(wanted.map((r) => r.organizationId))] },
      email: { in: [...new Set(wanted.map((r) => r.customerEmail!))] },
      phone: { not: null },
      smsOptOut: false,
    },
    select: { organizationId: true, email: true, phone: true },
  });
  const phoneOf = new Map(customers.map((c) => [`${c.organizationId}\n${c.email}`, c.phone!]));
  const sms: Row[] = [];
  for (const r of wanted) {
    const phone = phoneOf.get(`${r.organizationId}\n${r.customerEmail}`);
    if (phone) sms.push({ ...r, channel: "sms", recipient: phone });
  }
  return [...rows, ...sms];
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** Creates the notices of these events. Returns how many rows it asked for. */
export async function planMailTasks(tx: Tx, events: OutboxEvent[], now = new Date()): Promise<number> {
  if (events.length === 0) return 0;
  const settings = await settingsOf(tx, [...new Set(events.map((e) => e.organizationId))]);

  // The team: owners and admins of the live organizations with a team notice in the batch.
  const teamOrgs = [
    ...new Set(
      events.filter((e) => TEAM_NOTICE[e.type] && settings.get(e.organizationId)?.livemode).map((e) => e.organizationId),
    ),
  ];
  const staff = teamOrgs.length
    ? await tx.member.findMany({
        where: { organizationId: { in: teamOrgs }, role: { in: ["OWNER", "ADMIN"] } },
        select: { organizationId: true, user: { select: { email: true, phone: true, phoneVerifiedAt: true } } },
      })
    : [];

  // Payment notices already planned today, per organization that wants a digest.
  const digestOrgs = teamOrgs.filter((o) => settings.get(o)?.notifyDigest);
  const today = utcDay(now);
  const dayStart = new Date(`${today}T00:00:00.000Z`);
  const sentToday = new Map<string, number>();
  if (digestOrgs.length) {
    const counts = await tx.$queryRaw<{ organizationId: string; n: bigint }[]>`
      SELECT "organizationId", count(DISTINCT "sourceId") AS n FROM mail_task
      WHERE "organizationId" = ANY(${digestOrgs}) AND kind = 'payment_received' AND "createdAt" >= ${dayStart}
      GROUP BY "organizationId"`;
    for (const c of counts) sentToday.set(c.organizationId, Number(c.n));
  }
  const digestAt = new Date(dayStart.getTime() + 86_400_000 + DIGEST_HOUR_UTC * 3_600_000);

  const emails = await policyholderEmails(tx, events);
  const rows: Row[] = [];
  for (const event of events) {
    const org = settings.get(event.organizationId);
    if (!org) continue;
    let teamKind = TEAM_NOTICE[event.type];
    if (teamKind && org.livemode) {
      let sourceId = event.id;
      let data = dataFor(teamKind, event);
      let runAt: Date | undefined;
      if (teamKind === "payment_received" && org.notifyDigest) {
        const n = sentToday.get(event.organizationId) ?? 0;
        sentToday.set(event.organizationId, n + 1);
        if (n >= DIGEST_AFTER) {
          // One digest a day per recipient and channel: the same source id, so skipDuplicates keeps one.
          teamKind = "payment_digest";
          sourceId = `digest:${today}`;
          data = { day: today };
          runAt = digestAt;
        }
      }
      const members = staff.filter((m) => m.organizationId === event.organizationId).map((m) => m.user);
      if (data) {
        const base = { organizationId: event.organizationId, kind: teamKind, sourceId, data, ...(runAt ? { runAt } : {}) };
        if (org.notifyEmail)
          for (const email of new Set(members.map((u) => u.email.toLowerCase()))) rows.push({ ...base, recipient: email });
        if (org.notifySms)
          for (const phone of new Set(members.filter((u) => u.phone && u.phoneVerifiedAt).map((u) => u.phone!)))
            rows.push({ ...base, channel: "sms", recipient: phone });
      }
    }
    const notice = policyholderNotice(event);
    const email = emails.get(event.id);
    if (notice?.data && email) {
      rows.push({
        organizationId: event.organizationId,
        kind: notice.kind,
        sourceId: event.id,
        recipient: email,
        customerEmail: email,
        data: notice.data,
      });
    }
  }
  const all = await withPolicyholderSms(tx, rows, settings);
  // Ids made here: Prisma's own cuid default costs a system call and a hash per row (src/server/ids.ts).
  if (all.length) await tx.mailTask.createMany({ data: all.map((t) => ({ id: newId(), ...t })), skipDuplicates: true });
  return all.length;
}
