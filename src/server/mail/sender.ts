// Notices (email and SMS) as a job of the runner (src/server/jobs): due mail tasks are claimed
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
import { sendSms, SmsRejected } from "@/server/integrations/sms";
import { composePhoneCode } from "@/server/notices/phone";
import { composePortalCode, PORTAL_CODE_MAIL } from "@/server/portal/auth";
import { composeMail, type Outgoing } from "./compose";
import { composeSms } from "./compose-sms";
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY, type MailChannel } from "./kinds";

const BATCH = 10;
/** Outlasts one send (SMTP connection 30 s + greeting 30 s + 60 s of silence), so a live runner keeps its task. */
const LEASE_MS = 3 * 60_000;

/** The error in a line fit to keep: no stack, no credentials from SMTP_URL or of an SMS provider, bounded. */
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
  for (const key of [env.TWILIO_AUTH_TOKEN, env.AFRICASTALKING_API_KEY]) if (key) secrets.push(key);
  for (const secret of secrets.filter((s) => s.length >= 3)) text = text.split(secret).join("[redacted]");
  return text
    .replace(/\/\/[^/@\s]+@/g, "//[redacted]@")
    .replace(/\s+/g, " ")
    .slice(0, 500);
}

/** Notices that carry a one-time code. */
const CODE_KINDS = new Set([PORTAL_CODE_MAIL, "phone_code"]);

/** What an attempt did: sent (by which channel, to whom, what it said), nothing to send, or failed. */
type Sent =
  | { ok: true; sent: { channel: MailChannel; recipient: string; preview: string } | null }
  | { ok: false; error: unknown; permanent: boolean };

/** Writes a failed try on its own task row; `retryAt` null: given up (the row stays, with its error, no longer claimed). */
async function failed(task: MailTask, error: unknown, attempts: number, retryAt: Date | null) {
  const lastError = describeMailError(error);
  await db.mailTask.updateMany({
    where: { id: task.id },
    data: { attempts, lastError, lockedUntil: null, ...(retryAt ? { runAt: retryAt } : { failedAt: new Date() }) },
  });
  logger.warn(
    { mailTaskId: task.id, kind: task.kind, channel: task.channel, attempts, retryAt, lastError },
    retryAt ? "notice failed; will retry" : "notice failed; given up",
  );
}

/** The message of a task, composed now; null: nothing to send (a code request for an email without cover). */
async function outgoing(task: MailTask): Promise<Outgoing | null> {
  if (task.kind === PORTAL_CODE_MAIL) return composePortalCode(task);
  if (task.kind === "phone_code") return composePhoneCode(task);
  if (task.channel === "sms") {
    const sms = await composeSms(task);
    return sms && { channel: "sms", sms };
  }
  const email = await composeMail(task);
  return email && { channel: "email", email };
}

export const mailJob = rowJob<MailTask, Sent>({
  kind: "mail",
  table: "mail_task",
  where: Prisma.sql`"sentAt" IS NULL AND "failedAt" IS NULL AND attempts < ${MAIL_MAX_ATTEMPTS}`,
  batch: BATCH,
  fairByOrganization: true,
  leaseMs: () => LEASE_MS,
  retry: {
    ...MAIL_RETRY,
    whenExhausted:
      "given up: the task row stays unsent with its last error and failedAt, and is no longer claimed; a provider's refusal of the number (SmsRejected) gives up at once",
    exhausted: (task, sent, attempts) => failed(task, sent.ok ? null : sent.error, attempts, null),
  },
  load: (ids) => db.mailTask.findMany({ where: { id: { in: ids } } }),
  failures: (task) => task.attempts,
  async attempt(task) {
    try {
      const out = await outgoing(task);
      if (!out) return { ok: true, sent: null };
      if (out.channel === "sms") {
        await sendSms(out.sms);
        return { ok: true, sent: { channel: "sms", recipient: out.sms.to, preview: out.sms.body } };
      }
      await sendEmail(out.email);
      return { ok: true, sent: { channel: "email", recipient: out.email.to.toLowerCase(), preview: out.email.subject } };
    } catch (error) {
      return { ok: false, error, permanent: error instanceof SmsRejected };
    }
  },
  failureOf: (sent) => (sent.ok ? null : { final: sent.permanent }),
  async succeeded(task, sent, attempts) {
    if (!sent.ok || !sent.sent) {
      await db.mailTask.deleteMany({ where: { id: task.id } }); // nothing to send, and no trace of the address
      return;
    }
    const { channel, recipient } = sent.sent;
    // A code's message is never kept: the code itself is stored only as an HMAC.
    const preview = CODE_KINDS.has(task.kind) ? "A one-time code (not kept)" : sent.sent.preview;
    await db.mailTask.updateMany({
      where: { id: task.id },
      data: { attempts, sentAt: new Date(), lockedUntil: null, channel, recipient, preview: preview.slice(0, 400) },
    });
  },
  retrying: (task, sent, attempts, retryAt) => failed(task, sent.ok ? null : sent.error, attempts, retryAt),
});

/** Sends the mail tasks that are due (one batch). Returns how many it tried. */
export const runDueMail = () => runRowJob(mailJob);
