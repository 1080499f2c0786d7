// When a coverage's next renewal reminder is due (`remindAt`) and whether its
// `coverage.expired` event is still to be written (`lapseAt`): set for every
// new period (purchase, renewal), read by the lifecycle job through indexes.
// The reminder days are the account's (the live organization's): a test twin
// follows them, so settings kept on the live account hold for both modes.
import { Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/server/db/client";

/** The organization's reminder days as SQL over `organization o`: its account's, for a test twin. */
export const REMINDER_DAYS_SQL = Prisma.sql`COALESCE((SELECT a."reminderDays" FROM organization a WHERE a.id = o."liveOrganizationId"), o."reminderDays")`;

/**
 * The period ending at `coverage.endsAt` starts over: its first reminder is due
 * the largest of the business's reminder days before the end (none when it has
 * none), and its expiry event at the end.
 */
export async function scheduleCoverage(tx: Tx, coverage: { id: string }): Promise<void> {
  await tx.$executeRaw`
    UPDATE coverage c SET
      "lapseAt" = c."endsAt",
      "remindAt" = CASE WHEN cardinality(${REMINDER_DAYS_SQL}) > 0
        THEN c."endsAt" - make_interval(days => (SELECT max(d) FROM unnest(${REMINDER_DAYS_SQL}) AS d)) END
    FROM organization o
    WHERE c.id = ${coverage.id} AND o.id = c."organizationId"`;
}

/**
 * The reminder days of an account changed: the coverages of the account and
 * of its test twin that have not ended are due for their first reminder again
 * at the end less the largest day (the job skips the ones a period already
 * had, so nothing goes twice), or never when there are no days.
 */
export async function rescheduleReminders(tx: Tx, accountId: string, days: number[], now = new Date()): Promise<number> {
  const largest = days.length ? Math.max(...days) : null;
  return tx.$executeRaw`
    UPDATE coverage c SET
      "remindAt" = CASE WHEN ${largest}::int IS NULL THEN NULL ELSE c."endsAt" - make_interval(days => ${largest}::int) END
    WHERE c."organizationId" IN (SELECT id FROM organization WHERE id = ${accountId} OR "liveOrganizationId" = ${accountId})
      AND c."endsAt" > ${now}::timestamp AND c."cancelledAt" IS NULL`;
}
