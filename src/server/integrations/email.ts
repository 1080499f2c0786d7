// Outgoing mail. With SMTP_URL it goes out through SMTP; without it every
// message is written as an .eml file under DATA_DIR/mail/. Its link (it
// carries a token) is logged outside production only, so invitations work on a
// laptop; in production the log names the file and the link stays in it.
import crypto from "node:crypto";
import { escapeHtml } from "@/server/html";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
// The file itself, not the folder: nodemailer stays external (next.config.js), so Node resolves this
// request at run time, and Node's ESM resolver does not look for a folder's index.js.
import addressparser from "nodemailer/lib/addressparser/index.js";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link a person acts on, logged in development when mail is kept on disk. */
  link?: string;
  /** Sent "<name> via Coverdesk" from MAIL_FROM's address: the business is named, never the sender. */
  onBehalfOf?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export const mailDir = () => path.join(env.DATA_DIR === "memory://" ? path.join(os.tmpdir(), "coverdesk") : env.DATA_DIR, "mail");

const g = globalThis as unknown as { __coverdeskMailer?: Transporter };
// Bounded timeouts (the URL's own query options still win): a mail worker
// holds its task's lease while it sends, so a silent server must not hold it for an hour.
const transporter = () =>
  (g.__coverdeskMailer ??= env.SMTP_URL
    ? nodemailer.createTransport({ url: env.SMTP_URL, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }));

/** A name fit for a header: no control characters (CR/LF could start a new header), one line, bounded. */
export const headerSafe = (text: string, max = 120) =>
  text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();

/**
 * MAIL_FROM, or its address under the display name "<business> via Coverdesk".
 * The name goes to nodemailer as a separate field, so it is quoted or
 * encoded there and can never become part of the address or another header.
 */
export function fromHeader(onBehalfOf?: string): string | { name: string; address: string } {
  const name = onBehalfOf ? headerSafe(onBehalfOf, 80) : "";
  const [parsed] = addressparser(env.MAIL_FROM);
  const address = parsed && "address" in parsed ? parsed.address : undefined;
  if (!name || !address) return env.MAIL_FROM;
  return { name: `${name} via Coverdesk`, address };
}

export async function sendEmail(email: Email): Promise<void> {
  const info = await transporter().sendMail({
    from: fromHeader(email.onBehalfOf),
    to: email.to,
    subject: headerSafe(email.subject, 250),
    text: email.text,
    html: email.html,
    attachments: email.attachments?.map((a) => ({
      filename: headerSafe(a.filename, 200),
      content: a.content,
      contentType: a.contentType,
    })),
  });
  if (env.SMTP_URL) {
    // The subject is not logged: some carry a secret (a portal sign-in code).
    logger.info({ to: email.to, messageId: info.messageId }, "email sent");
    return;
  }
  const dir = mailDir();
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.eml`);
  await fs.writeFile(file, (info as unknown as { message: Buffer }).message);
  const link = env.NODE_ENV === "production" && email.link ? "[redacted]" : email.link;
  logger.info({ to: email.to, file, link }, "email written to the local outbox");
}


/** A plain, accessible email body: paragraphs, an optional table of details, at most one button, then plain links. */
export function layoutEmail(opts: {
  heading: string;
  paragraphs: string[];
  details?: { label: string; value: string }[];
  action?: { label: string; url: string };
  /** Further links, under the button. */
  links?: { label: string; url: string }[];
  footer: string;
}) {
  const links = opts.links ?? [];
  const details = opts.details ?? [];
  const text = [
    opts.heading,
    "",
    ...opts.paragraphs,
    ...(details.length ? ["", ...details.map((d) => `${d.label}: ${d.value}`)] : []),
    ...(opts.action ? ["", `${opts.action.label}: ${opts.action.url}`] : []),
    ...(links.length ? ["", ...links.map((l) => `${l.label}: ${l.url}`)] : []),
    "",
    opts.footer,
  ].join("\n");
  const rows = details
    .map(
      (d) =>
        `<tr><th align="left" style="padding:4px 16px 4px 0;font-weight:600">${escapeHtml(d.label)}</th><td style="padding:4px 0">${escapeHtml(d.value)}</td></tr>`,
    )
    .join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(opts.heading)}</h1>
${opts.paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
${details.length ? `<table role="presentation" style="border-collapse:collapse;margin:8px 0 16px">${rows}</table>` : ""}
${opts.action ? `<p><a href="${escapeHtml(opts.action.url)}" style="display:inline-block;background:#1f5ad6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(opts.action.label)}</a></p>` : ""}${links.map((l) => `\n<p><a href="${escapeHtml(l.url)}" style="color:#1f5ad6">${escapeHtml(l.label)}</a></p>`).join("")}
<p style="font-size:12px;color:#64748b">${escapeHtml(opts.footer)}</p>
</body></html>`;
  return { text, html };
}
