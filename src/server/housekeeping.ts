// Rows that only matter for a while: idempotency records (24 h), rate-limit
// windows (a minute), the policyholder portal's codes and sessions once expired, and sent mail tasks (kept 30 days to answer "did the
// mail go out?"). Swept now and then by the job runner (src/server/jobs). Mail tasks that
// were given up are kept: their lastError is what someone will look for.
import { db } from "@/server/db/client";

const MAIL_KEPT_MS = 30 * 24 * 3_600_000;

export async function sweepExpiredRows(
  now = new Date(),
): Promise<{ idempotencyKeys: number; rateLimitWindows: number; mailTasks: number; portal: number }> {
  const [idempotencyKeys, rateLimitWindows, mailTasks, codes, sessions] = await Promise.all([
    db.idempotencyKey.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.rateLimitWindow.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - 3_600_000) } } }),
    db.mailTask.deleteMany({
      where: { OR: [{ sentAt: { lt: new Date(now.getTime() - MAIL_KEPT_MS) } }, { failedAt: { lt: new Date(now.getTime() - MAIL_KEPT_MS) } }] },
    }),
    db.portalCode.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.portalSession.deleteMany({ where: { expiresAt: { lt: now } } }),
  ]);
  return {
    idempotencyKeys: idempotencyKeys.count,
    rateLimitWindows: rateLimitWindows.count,
    mailTasks: mailTasks.count,
    portal: codes.count + sessions.count,
  };
}
