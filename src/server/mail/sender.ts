// Mail as a job of the runner (src/server/jobs): due mail tasks are claimed
// with the runner's lease (FOR UPDATE SKIP LOCKED), so several runners never
// send one task at once and a crashed runner's task comes back after the
// lease. A failure only touches its own task row (attempts, lastError, the
// next runAt from MAIL_RETRY_SCHEDULE_S) — never the payment, claim or KYB it
// is about.
import { Prisma, type MailTask } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { sendEmail } from "@/server/integrations/email";
import { rowJob, runRowJob } from "@/server/jobs/kind";
import { logger } from "@/server/logger";
import { composePortalCodeMail, PORTAL_CODE_MAIL } from "@/server/portal/auth";
import { composeMail } from "./compose";
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY } from "./kinds";

const BATCH = 10;
/** Outlasts one send (SMTP connection 30 s + greeting 30 s + 60 s of silence), so a live runner keeps its task. */
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

type Sent = { ok: true; mailed: boolean } | { ok: false; error: unknown };

/** Writes a failed try on its own task row; `retryAt` null: given up (the row stays, with its error, no longer claimed). */
async function failed(task: MailTask, error: unknown, attempts: number, retryAt: Date | null) {
  const lastError = describeMailError(error);
  await db.mailTask.updateMany({
    where: { id: task.id },
    data: { attempts, lastError, lockedUntil: null, ...(retryAt ? { runAt: retryAt } : {}) },
  });
  logger.warn(
    { mailTaskId: task.id, kind: task.kind, attempts, retryAt, lastError },
    retryAt ? "mail failed; will retry" : "mail failed; given up",
  );
}

export const mailJob = rowJob<MailTask, Sent>({
  kind: "mail",
  table: "mail_task",
  where: Prisma.sql`"sentAt" IS NULL AND attempts < ${MAIL_MAX_ATTEMPTS}`,
  batch: BATCH,
  leaseMs: () => LEASE_MS,
  retry: {
    ...MAIL_RETRY,
    whenExhausted: "given up: the task row stays unsent with its last error, and is no longer claimed",
    exhausted: (task, sent, attempts) => failed(task, sent.ok ? null : sent.error, attempts, null),
  },
  load: (ids) => db.mailTask.findMany({ where: { id: { in: ids } } }),
  failures: (task) => task.attempts,
  async attempt(task) {
    try {
      // A portal code request is decided here, after its answer: null when the email has no cover there.
      const mail = task.kind === PORTAL_CODE_MAIL ? await composePortalCodeMail(task) : await composeMail(task);
      if (!mail) return { ok: true, mailed: false };
      await sendEmail(mail);
      return { ok: true, mailed: true };
    } catch (error) {
      return { ok: false, error };
    }
  },
  failureOf: (sent) => (sent.ok ? null : {}),
  async succeeded(task, sent, attempts) {
    if (!sent.ok || !sent.mailed) {
      await db.mailTask.deleteMany({ where: { id: task.id } }); // nothing to send, and no trace of the address
      return;
    }
    await db.mailTask.updateMany({ where: { id: task.id }, data: { attempts, sentAt: new Date(), lockedUntil: null } });
  },
  retrying: (task, sent, attempts, retryAt) => failed(task, sent.ok ? null : sent.error, attempts, retryAt),
});

/** Sends the mail tasks that are due (one batch). Returns how many it tried. */
export const runDueMail = () => runRowJob(mailJob);
