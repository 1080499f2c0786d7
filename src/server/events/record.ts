// The transactional outbox: an event row is written inside the transaction of
// the change it describes, so a change never commits without its event.
import crypto from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/server/db/client";

import { EVENT_TYPES } from "@/lib/enums";
export { EVENT_TYPES };
/**
 * Events kept in the outbox for the platform's own reactions (emails), not
 * offered to webhooks: a business's KYB moves, bank accounts and withdrawals.
 */
export const INTERNAL_EVENT_TYPES = [
  "kyb.submitted",
  "kyb.approved",
  "kyb.rejected",
  "bank_account.added",
  "bank_account.verified",
  "bank_account.verification_failed",
  "bank_account.default_changed",
  "bank_account.removed",
  "withdrawal.requested",
  "withdrawal.processing",
  "withdrawal.paid",
  "withdrawal.failed",
  "refund.created",
  "refund.failed",
  "claim_payout.requested",
  "claim_payout.processing",
  "claim_payout.failed",
  "webhook.disabled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number] | (typeof INTERNAL_EVENT_TYPES)[number] | "ping";

export const newEventId = () => `evt_${crypto.randomBytes(12).toString("base64url")}`;

/**
 * Writes the event in the caller's transaction. `subject` names the record it
 * is about (a payment's reference, a claim's id) so that record's page can list
 * its events and their webhook deliveries.
 */
export async function recordEvent(
  tx: Tx,
  organizationId: string,
  type: EventType,
  data: object,
  subject?: string,
): Promise<string> {
  const id = newEventId();
  await tx.event.create({ data: { id, organizationId, type, data: data as Prisma.InputJsonValue, subject } });
  return id;
}

/**
 * Writes several events of one change in the caller's transaction with one
 * statement, in the order given: what recordEvent does for each (its id, its
 * createdAt taken now), one round trip for all.
 */
export async function recordEvents(
  tx: Tx,
  organizationId: string,
  events: { type: EventType; data: object; subject?: string }[],
  /** Written by the same statement after the events (e.g. auditInsertSql's entry): one round trip for both. */
  alsoSql?: Prisma.Sql,
): Promise<string[]> {
  if (events.length === 0) return [];
  const { sql, ids } = eventsInsertSql(organizationId, events, new Date());
  await tx.$executeRaw`${alsoSql ? Prisma.sql`WITH written_events AS (${sql}) ${alsoSql}` : sql}`;
  return ids;
}

/**
 * The events as one INSERT statement (their ids made now), to compose into a
 * caller's statement; a millisecond apart from `createdAt` in the order given,
 * so they are listed (and delivered) in that order whatever their random ids.
 */
export function eventsInsertSql(
  organizationId: string,
  /** `data` may be an SQL expression of the caller's statement (a value only the statement knows). */
  events: { type: EventType; data: object | Prisma.Sql; subject?: string }[],
  createdAt: Date,
): { sql: Prisma.Sql; ids: string[] } {
  const rows = events.map((e, i) => ({ ...e, id: newEventId(), at: new Date(createdAt.getTime() + i) }));
  const sql = Prisma.sql`
    INSERT INTO event (id, "organizationId", type, data, subject, "createdAt")
    VALUES ${Prisma.join(
      rows.map(
        (r) =>
          Prisma.sql`(${r.id}, ${organizationId}, ${r.type}, ${r.data instanceof Prisma.Sql ? r.data : Prisma.sql`${JSON.stringify(r.data)}::jsonb`}, ${r.subject ?? null}, ${r.at}::timestamp)`,
      ),
    )}`;
  return { sql, ids: rows.map((r) => r.id) };
}
