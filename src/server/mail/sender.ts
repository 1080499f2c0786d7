// Sends due mail tasks. Claimed like webhook tasks: FOR UPDATE SKIP LOCKED
// and a lease (lockedUntil), so several workers never send one task at once
// and a crashed worker's task comes back after the lease. A failure only
// touches its own task row (attempts, lastError, the next runAt) — never the
// payment, claim or KYB it is about.
import type { MailTask } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { sendEmail } from "@/server/integrations/email";
import { logger } from "@/server/logger";
import { composePortalCodeMail, PORTAL_CODE_MAIL } from "@/server/portal/auth";
import { composeMail } from "./compose";
import { MAIL_MAX_ATTEMPTS, nextMailAttemptAt } from "./kinds";

const BATCH = 10;
/** Outlasts one send (SMTP connection 30 s + greeting 30 s + 60 s of silence), so a live worker keeps its task. */
const LEASE_MS = 3 * 60_000;

/** The error in a line fit to keep: no stack, no credentials from SMTP_URL, bounded. */
export function describeMailError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  let text = typeof e?.message === "string" ? e.message : String(err);
  if (typeof e?.code === "string" && !text.includes(e.code)) text = `${e.code}: ${text}`;
  const secrets: string[] = [];
  if (env.SMTP_URL) {
    try {
      const url = new URL(env.SMTP_URL);
      for (const part of [url.password, url.username]) {
        if (part) secrets.push(part, decodeURIComponent(part));
      }
    } catch {
      // not a URL: nothing to pick out of it
    }
  }
  for (const secret of secrets.filter((s) => s.length >= 3)) text = text.split(secret).join("[redacted]");
  return text
    .replace(/\/\/[^/@\s]+@/g, "//[redacted]@")
    .replace(/\s+/g, " ")
    .slice(0, 500);
}

async function claimDue(): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM mail_task
      WHERE "sentAt" IS NULL AND attempts < ${MAIL_MAX_ATTEMPTS} AND "runAt" <= now()
        AND ("lockedUntil" IS NULL OR "lockedUntil" < now())
      ORDER BY "runAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
    if (due.length) {
      await tx.mailTask.updateMany({
        where: { id: { in: due.map((d) => d.id) } },
        data: { lockedUntil: new Date(Date.now() + LEASE_MS) },
      });
    }
    return due.map((d) => d.id);
  });
}

async function sendTask(task: MailTask): Promise<void> {
  const attempts = task.attempts + 1;
  try {
    // A portal code request is decided here, after its answer: null when the email has no cover there.
    const mail = task.kind === PORTAL_CODE_MAIL ? await composePortalCodeMail(task) : await composeMail(task);
    if (!mail) {
      await db.mailTask.deleteMany({ where: { id: task.id } }); // nothing to send, and no trace of the address
      return;
    }
    await sendEmail(mail);
  } catch (err) {
    const retryAt = nextMailAttemptAt(attempts);
    const lastError = describeMailError(err);
    // Given up after the last retry: the row stays (sentAt null) with its error, and is no longer claimed.
    await db.mailTask.updateMany({
      where: { id: task.id },
      data: { attempts, lastError, lockedUntil: null, ...(retryAt ? { runAt: retryAt } : {}) },
    });
    logger.warn(
      { mailTaskId: task.id, kind: task.kind, attempts, retryAt, lastError },
      retryAt ? "mail failed; will retry" : "mail failed; given up",
    );
    return;
  }
  await db.mailTask.updateMany({ where: { id: task.id }, data: { attempts, sentAt: new Date(), lockedUntil: null } });
}

/** Sends the mail tasks that are due. Returns how many it tried. */
export async function runDueMail(): Promise<number> {
  const ids = await claimDue();
  if (ids.length === 0) return 0;
  const tasks = await db.mailTask.findMany({ where: { id: { in: ids } } });
  const results = await Promise.allSettled(tasks.map(sendTask));
  for (const r of results) {
    // Only the bookkeeping can fail here (the database); the lease brings the task back.
    if (r.status === "rejected") logger.error({ err: r.reason }, "could not record a mail attempt");
  }
  return tasks.length;
}
