// The transactional outbox: an event row is written inside the transaction of
// the change it describes, so a change never commits without its event.
import crypto from "node:crypto";
import type { Prisma } from "@/generated/prisma/client";
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
