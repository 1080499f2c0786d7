// The coverage lifecycle job, run on every pass of the job runner (src/server/jobs):
//  - renewal reminders: a coverage whose `remindAt` has come (and has not
//    ended) gets the most urgent of the business's reminders that is due — one
//    row per (coverage, period end, days), its mail to the policyholder and, at
//    the period's first reminder, a `coverage.expiring` event — and its next
//    `remindAt`;
//  - expiry: a coverage whose `lapseAt` has come gets its `coverage.expired`
//    event, once per period.
// Rows are claimed with FOR UPDATE SKIP LOCKED and everything about one
// coverage commits in the claiming transaction, so any number of app
// instances can run the job at once and a reminder still goes once (the
// unique reminder row is a second guard). Nothing due: two index range reads.
import { withPolicyholderSms } from "@/server/mail/plan";
import { newId } from "@/server/ids";
import type { Coverage as CoverageRow } from "@/generated/prisma/client";
import { db, type Tx } from "@/server/db/client";
import { recordEvent } from "@/server/events/record";
import type { MailData } from "@/server/mail/kinds";
import { coverageScope, untilShort, type CoverageJobOptions } from "./batches";
import { REMINDER_DAYS_SQL, scheduleCoverage } from "./schedule";
import { toCoverage } from "./service";
import { isActiveAt } from "./status";

const BATCH = 50;
const DAY_MS = 86_400_000;

export type LifecycleOptions = CoverageJobOptions;

export interface LifecycleResult {
  /** Reminders written (each with its mail). */
  reminders: number;
  /** `coverage.expired` events written. */
  expired: number;
}

const minus = (end: Date, days: number) => new Date(end.getTime() - days * DAY_MS);

/**
 * Which reminder a period needs at `now`, given the business's days and the
 * ones already sent for it: `send` is the most urgent due one (none when a
 * reminder at least as urgent went already), `next` when the next one is due.
 * A coverage first seen 2 days before its end with days [14, 3] gets the
 * 3-day reminder only.
 */
export function reminderPlan(
  endsAt: Date,
  days: number[],
  sent: number[],
  now: Date,
): { send: number | null; next: Date | null } {
  const desc = [...new Set(days)].sort((a, b) => b - a);
  const due = desc.filter((d) => minus(endsAt, d) <= now);
  if (due.length === 0) return { send: null, next: desc.length ? minus(endsAt, desc[0]!) : null };
  const stage = due[due.length - 1]!;
  const following = desc.find((d) => d < stage);
  return {
    send: sent.some((d) => d <= stage) ? null : stage,
    next: following === undefined ? null : minus(endsAt, following),
  };
}

const scope = coverageScope;

type Due = CoverageRow & { reminderDays: number[] };

async function remindBatch(now: Date, opts: LifecycleOptions): Promise<{ claimed: number; sent: number }> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Due[]>`
      SELECT c.*, ${REMINDER_DAYS_SQL} AS "reminderDays"
      FROM coverage c JOIN organization o ON o.id = c."organizationId"
      WHERE c."remindAt" <= ${now}::timestamp AND c."endsAt" > ${now}::timestamp ${scope(opts)}
      ORDER BY c."remindAt" LIMIT ${BATCH}
      FOR UPDATE OF c SKIP LOCKED`;
    if (rows.length === 0) return { claimed: 0, sent: 0 };
    const earlier = await tx.coverageReminder.findMany({
      where: { coverageId: { in: rows.map((r) => r.id) } },
      select: { coverageId: true, periodEndsAt: true, daysBefore: true },
    });
    let sent = 0;
    for (const row of rows) {
      const ofPeriod = earlier
        .filter((r) => r.coverageId === row.id && r.periodEndsAt.getTime() === row.endsAt.getTime())
        .map((r) => r.daysBefore);
      const plan = reminderPlan(row.endsAt, row.reminderDays ?? [], ofPeriod, now);
      if (plan.send !== null && (await sendReminder(tx, row, plan.send, ofPeriod.length === 0, now))) sent++;
      await tx.coverage.update({ where: { id: row.id }, data: { remindAt: plan.next } });
    }
    return { claimed: rows.length, sent };
  });
}

/** The reminder row, its mail and (first of the period) the `coverage.expiring` event. False when it existed already. */
async function sendReminder(tx: Tx, row: CoverageRow, daysBefore: number, first: boolean, now: Date): Promise<boolean> {
  const id = newId();
  const inserted = await tx.$executeRaw`
    INSERT INTO coverage_reminder (id, "organizationId", "coverageId", "periodEndsAt", "daysBefore", "createdAt")
    VALUES (${id}, ${row.organizationId}, ${row.id}, ${row.endsAt}::timestamp, ${daysBefore}, ${now}::timestamp)
    ON CONFLICT ("coverageId", "periodEndsAt", "daysBefore") DO NOTHING`;
  if (inserted === 0) return false;
  const data: MailData<"renewal_reminder"> = {
    coverageId: row.id,
    policyId: row.policyId,
    endsAt: row.endsAt.toISOString(),
    daysBefore,
  };
  await tx.mailTask.createMany({
    data: await withPolicyholderSms(tx, [
      {
        organizationId: row.organizationId,
        kind: "renewal_reminder",
        sourceId: id,
        recipient: row.customerEmail,
        customerEmail: row.customerEmail,
        data,
        runAt: now,
      },
    ]),
    skipDuplicates: true,
  });
  if (first) await recordEvent(tx, row.organizationId, "coverage.expiring", toCoverage(row, now), row.id);
  return true;
}

async function expireBatch(now: Date, opts: LifecycleOptions): Promise<{ claimed: number; expired: number }> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<CoverageRow[]>`
      SELECT c.* FROM coverage c
      WHERE c."lapseAt" <= ${now}::timestamp ${scope(opts)}
      ORDER BY c."lapseAt" LIMIT ${BATCH}
      FOR UPDATE OF c SKIP LOCKED`;
    let expired = 0;
    for (const row of rows) {
      if (isActiveAt(row, now)) {
        // Its end moved on since (renewed): the new period's schedule instead.
        await scheduleCoverage(tx, row);
        continue;
      }
      await recordEvent(tx, row.organizationId, "coverage.expired", toCoverage(row, now), row.id);
      await tx.coverage.update({ where: { id: row.id }, data: { lapseAt: null, remindAt: null } });
      expired++;
    }
    return { claimed: rows.length, expired };
  });
}

/** Sends the reminders that are due and writes the expiries that came, in batches until none is left. */
export async function runCoverageLifecycle(now = new Date(), opts: LifecycleOptions = {}): Promise<LifecycleResult> {
  const reminders = await untilShort(BATCH, async () => {
    const b = await remindBatch(now, opts);
    return { claimed: b.claimed, done: b.sent };
  });
  const expired = await untilShort(BATCH, async () => {
    const b = await expireBatch(now, opts);
    return { claimed: b.claimed, done: b.expired };
  });
  return { reminders, expired };
}
