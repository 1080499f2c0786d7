// Rows that only matter for a while: events (30 days), idempotency records (24 h), rate-limit
// windows (a minute), event streams' places once expired (a crashed instance's), the policyholder portal's codes and sessions once expired, and sent mail tasks (kept 30 days to answer "did the
// mail go out?"). Swept now and then by the job runner (src/server/jobs). Mail tasks that
// were given up are kept: their lastError is what someone will look for.
import { EVENT_RETENTION_DAYS } from "@/lib/schemas/events";
import { db } from "@/server/db/client";

const MAIL_KEPT_MS = 30 * 24 * 3_600_000;
/** Events are read back for 30 days (GET /events); older ones go, a batch per sweep (their delivery log rows stay). */
const EVENTS_KEPT_MS = EVENT_RETENTION_DAYS * 24 * 3_600_000;
const EVENT_SWEEP_BATCH = 5_000;

export async function sweepExpiredRows(
  now = new Date(),
): Promise<{
  idempotencyKeys: number;
  rateLimitWindows: number;
  mailTasks: number;
  portal: number;
  events: number;
  streamLeases: number;
}> {
  const [idempotencyKeys, rateLimitWindows, mailTasks, codes, sessions, events, streamLeases] = await Promise.all([
    db.idempotencyKey.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.rateLimitWindow.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - 3_600_000) } } }),
    db.mailTask.deleteMany({
      where: {
        OR: [
          { sentAt: { lt: new Date(now.getTime() - MAIL_KEPT_MS) } },
          { failedAt: { lt: new Date(now.getTime() - MAIL_KEPT_MS) } },
        ],
      },
    }),
    db.portalCode.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.portalSession.deleteMany({ where: { expiresAt: { lt: now } } }),
    // By dispatchedAt (within seconds of createdAt, and indexed): only events already fanned out to the webhooks.
    db.$executeRaw`
      DELETE FROM event WHERE id IN (
        SELECT id FROM event WHERE "dispatchedAt" < ${new Date(now.getTime() - EVENTS_KEPT_MS)} LIMIT ${EVENT_SWEEP_BATCH})`,
    db.eventStreamLease.deleteMany({ where: { expiresAt: { lt: now } } }),
  ]);
  return {
    idempotencyKeys: idempotencyKeys.count,
    rateLimitWindows: rateLimitWindows.count,
    mailTasks: mailTasks.count,
    portal: codes.count + sessions.count,
    events,
    streamLeases: streamLeases.count,
  };
}
