// Retention of the audit log: entries older than AUDIT_RETENTION_DAYS (730 by
// default, at least 30) are removed once a day by the job runner, through
// prune_audit_log — the one way the database lets entries go (migration
// 20261127134848_audit_log); UPDATE and DELETE stay refused for everyone else.
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { passJob } from "@/server/jobs/kind";

const DAY_MS = 86_400_000;

/** Removes the entries older than `days` before `now`, every organization's; answers how many went. */
export async function pruneAuditLog(now = new Date(), days = env.AUDIT_RETENTION_DAYS): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  // createdAt is a UTC timestamp without time zone: the cutoff is given as one, whatever the session's zone.
  const [row] = await db.$queryRaw<{ gone: bigint }[]>`
    SELECT prune_audit_log((${cutoff.toISOString()}::timestamptz AT TIME ZONE 'UTC')::timestamp) AS gone`;
  return Number(row?.gone ?? 0);
}

export const auditRetentionJob = passJob({
  kind: "audit.retention",
  // Entries expire by the day: once a day per runner is enough (a runner also runs it when it starts).
  everyMs: DAY_MS,
  run: () => pruneAuditLog(),
});
