// Which mails an outbox event asks for. Called by the job runner's
// dispatch, in the transaction that marks the events dispatched: that is after
// the business change committed (a mail is never planned for a change that
// rolled back), and the tasks commit together with "dispatched", so an event
// is planned exactly once. Unique (kind, sourceId, recipient) + skipDuplicates
// make a replay harmless anyway.
import type { Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/server/db/client";
import { logger } from "@/server/logger";
import { MAIL_DATA, type MailKind } from "./kinds";

export interface OutboxEvent {
  id: string;
  organizationId: string;
  type: string;
  data: unknown;
}

/** Events whose mail goes to the business's owner and admins — only while its email notifications are on. */
const BUSINESS_MAIL: Record<string, MailKind> = {
  "payment.completed": "payment_received",
  "claim.submitted": "claim_submitted",
  "kyb.approved": "kyb_approved",
  "kyb.rejected": "kyb_rejected",
  "withdrawal.failed": "withdrawal_failed",
};

function dataFor(kind: MailKind, event: OutboxEvent): Prisma.InputJsonValue | null {
  const raw = (event.data ?? {}) as Record<string, unknown>;
  const source = kind === "kyb_rejected" ? { reason: raw.rejectionReason ?? "" } : raw;
  const parsed = MAIL_DATA[kind].safeParse(source);
  if (!parsed.success) {
    logger.warn({ eventId: event.id, kind }, "event data does not fit its mail; no mail planned");
    return null;
  }
  return parsed.data as Prisma.InputJsonValue;
}

/** Creates the mail tasks of these events. Returns how many rows it asked for. */
export async function planMailTasks(tx: Tx, events: OutboxEvent[]): Promise<number> {
  const forBusiness = events.filter((e) => BUSINESS_MAIL[e.type]);
  const orgs = [...new Set(forBusiness.map((e) => e.organizationId))];
  // One query for the whole batch: the owners and admins of organizations that want email.
  const staff = orgs.length
    ? await tx.member.findMany({
        where: { organizationId: { in: orgs }, role: { in: ["OWNER", "ADMIN"] }, organization: { notifyEmail: true } },
        select: { organizationId: true, user: { select: { email: true } } },
      })
    : [];

  const rows: Prisma.MailTaskCreateManyInput[] = [];
  for (const event of events) {
    const kind = BUSINESS_MAIL[event.type];
    if (kind) {
      const data = dataFor(kind, event);
      const recipients = new Set(
        staff.filter((m) => m.organizationId === event.organizationId).map((m) => m.user.email.toLowerCase()),
      );
      if (data)
        for (const recipient of recipients)
          rows.push({ organizationId: event.organizationId, kind, sourceId: event.id, recipient, data });
    }
    if (event.type === "payment.completed") {
      // The customer's receipt goes out whatever the business's notification
      // setting says: that setting is about mail to the business's own team,
      // and a receipt is the customer's record of a payment they made.
      const data = dataFor("customer_receipt", event);
      const email = (event.data as { email?: unknown } | null)?.email;
      if (data && typeof email === "string" && email) {
        rows.push({
          organizationId: event.organizationId,
          kind: "customer_receipt",
          sourceId: event.id,
          recipient: email.toLowerCase(),
          data,
        });
      }
    }
  }
  if (rows.length) await tx.mailTask.createMany({ data: rows, skipDuplicates: true });
  return rows.length;
}
