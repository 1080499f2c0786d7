// Outgoing mail. With SMTP_URL it goes out through SMTP; without it every
// message is written as an .eml file under DATA_DIR/mail/. Its link (it
// carries a token) is logged outside production only, so invitations work on a
// laptop; in production the log names the file and the link stays in it.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link a person acts on, logged in development when mail is kept on disk. */
  link?: string;
}

export const mailDir = () => path.join(env.DATA_DIR === "memory://" ? path.join(os.tmpdir(), "coverdesk") : env.DATA_DIR, "mail");

const g = globalThis as unknown as { __coverdeskMailer?: Transporter };
const transporter = () =>
  (g.__coverdeskMailer ??= env.SMTP_URL
    ? nodemailer.createTransport(env.SMTP_URL)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }));

export async function sendEmail(email: Email): Promise<void> {
  const info = await transporter().sendMail({
    from: env.MAIL_FROM,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
  });
  if (env.SMTP_URL) {
    logger.info({ to: email.to, subject: email.subject, messageId: info.messageId }, "email sent");
    return;
  }
  const dir = mailDir();
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.eml`);
  await fs.writeFile(file, (info as unknown as { message: Buffer }).message);
  const link = env.NODE_ENV === "production" && email.link ? "[redacted]" : email.link;
  logger.info({ to: email.to, subject: email.subject, file, link }, "email written to the local outbox");
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain, accessible email body with one button. */
export function layoutEmail(opts: {
  heading: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footer: string;
}) {
  const text = [opts.heading, "", ...opts.paragraphs, "", `${opts.action.label}: ${opts.action.url}`, "", opts.footer].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escape(opts.heading)}</h1>
${opts.paragraphs.map((p) => `<p style="line-height:1.5">${escape(p)}</p>`).join("\n")}
<p><a href="${escape(opts.action.url)}" style="display:inline-block;background:#1f5ad6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escape(opts.action.label)}</a></p>
<p style="font-size:12px;color:#64748b">${escape(opts.footer)}</p>
</body></html>`;
  return { text, html };
}
