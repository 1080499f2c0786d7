// Rows that only matter for a while: idempotency records (24 h) and rate-limit
// windows (a minute). Swept now and then by the background worker.
import { db } from "@/server/db/client";

export async function sweepExpiredRows(now = new Date()): Promise<{ idempotencyKeys: number; rateLimitWindows: number }> {
  const [idempotencyKeys, rateLimitWindows] = await Promise.all([
    db.idempotencyKey.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.rateLimitWindow.deleteMany({ where: { windowStart: { lt: new Date(now.getTime() - 3_600_000) } } }),
  ]);
  return { idempotencyKeys: idempotencyKeys.count, rateLimitWindows: rateLimitWindows.count };
}
