// When a coverage's next renewal reminder is due (`remindAt`) and whether its
// `coverage.expired` event is still to be written (`lapseAt`): set for every
// new period (purchase, renewal), read by the lifecycle job through indexes.
// The reminder days are the account's (the live organization's): a test twin
// follows them, so settings kept on the live account hold for both modes.
import { Prisma, type Coverage as CoverageRow } from "@/generated/prisma/client";
import type { Tx } from "@/server/db/client";

/** The organization's reminder days as SQL over `organization o`: its account's, for a test twin. */
export const REMINDER_DAYS_SQL = Prisma.sql`COALESCE((SELECT a."reminderDays" FROM organization a WHERE a.id = o."liveOrganizationId"), o."reminderDays")`;

/** Days an auto-renewing cover stays valid (past_due) after its end while the renewal is retried. */
export const GRACE_DAYS = 7;
/** Days before the renewal charge a policyholder whose card expires first is asked to update it. */
export const CARD_NOTICE_DAYS = 7;

/**
 * The period ending at `coverage.endsAt` starts over: its first reminder is due
 * the largest of the business's reminder days before the end (none when it has
 * none); an auto-renewing cover's renewal charge at the end (no tries yet), its
 * grace period after it, and the card notice a week before when the card
 * expires first; its expiry event at the end — or at the grace period's end.
 * Returns the coverage as it now is (undefined when there is none).
 */
export async function scheduleCoverage(tx: Tx, coverage: { id: string }, also?: ScheduleWith): Promise<CoverageRow | undefined> {
  // With `also`, the statement writes its assignments too, and the schedule follows the values they give.
  const autoRenew = also ? Prisma.sql`${also.autoRenew}::boolean` : Prisma.sql`c."autoRenew"`;
  const cardFirst = also
    ? cardExpiresBeforeEnd(Prisma.sql`${also.cardExpYear}::int`, Prisma.sql`${also.cardExpMonth}::int`)
    : CARD_EXPIRES_BEFORE_END;
  const [row] = await tx.$queryRaw<CoverageRow[]>`
    UPDATE coverage c SET
      ${also?.set.length ? Prisma.sql`${Prisma.join(also.set)},` : Prisma.empty}
      "lapseAt" = CASE WHEN ${autoRenew} THEN c."endsAt" + make_interval(days => ${GRACE_DAYS}) ELSE c."endsAt" END,
      "graceEndsAt" = CASE WHEN ${autoRenew} THEN c."endsAt" + make_interval(days => ${GRACE_DAYS}) END,
      "renewAt" = CASE WHEN ${autoRenew} THEN c."endsAt" END,
      "renewalAttempts" = 0,
      "cardNoticeAt" = CASE WHEN ${autoRenew} AND ${cardFirst} THEN c."endsAt" - make_interval(days => ${CARD_NOTICE_DAYS}) END,
      "remindAt" = CASE WHEN cardinality(${REMINDER_DAYS_SQL}) > 0
        THEN c."endsAt" - make_interval(days => (SELECT max(d) FROM unnest(${REMINDER_DAYS_SQL}) AS d)) END
    FROM organization o
    WHERE c.id = ${coverage.id} AND o.id = c."organizationId"
    RETURNING c.*`;
  return row;
}

/** Assignments written with a period's schedule, and the values of theirs the schedule depends on. */
export interface ScheduleWith {
  set: Prisma.Sql[];
  autoRenew: boolean;
  cardExpYear: number | null;
  cardExpMonth: number | null;
}

/** The saved card's last valid moment (the end of its expiry month) comes before the period's end. */
const cardExpiresBeforeEnd = (year: Prisma.Sql, month: Prisma.Sql) =>
  Prisma.sql`${year} IS NOT NULL AND make_date(${year}, ${month}, 1) + interval '1 month' <= c."endsAt"`;
const CARD_EXPIRES_BEFORE_END = cardExpiresBeforeEnd(Prisma.sql`c."cardExpYear"`, Prisma.sql`c."cardExpMonth"`);

/**
 * Auto-renew was switched on or off (or the card removed) in the middle of a
 * period: its renewal charge, grace period, card notice and expiry follow. Off
 * during the grace period: the retries stop and the cover expires now. An
 * expiry already written (lapseAt null) is not written again.
 */
export async function scheduleRenewal(tx: Tx, coverage: { id: string }): Promise<void> {
  await tx.$executeRaw`
    UPDATE coverage c SET
      "graceEndsAt" = CASE WHEN c."autoRenew" THEN c."endsAt" + make_interval(days => ${GRACE_DAYS}) END,
      "renewAt" = CASE WHEN c."autoRenew" THEN GREATEST(c."endsAt", COALESCE(c."renewAt", c."endsAt")) END,
      "cardNoticeAt" = CASE WHEN c."autoRenew" AND ${CARD_EXPIRES_BEFORE_END} THEN c."endsAt" - make_interval(days => ${CARD_NOTICE_DAYS}) END,
      "lapseAt" = CASE WHEN c."lapseAt" IS NULL OR c."cancelledAt" IS NOT NULL THEN NULL
        WHEN c."autoRenew" THEN c."endsAt" + make_interval(days => ${GRACE_DAYS}) ELSE c."endsAt" END
    WHERE c.id = ${coverage.id}`;
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
