// The local outbox (no SMTP_URL: DATA_DIR/mail/*.eml) read as a mail client
// would: MIME parts taken apart, quoted-printable and base64 decoded as UTF-8,
// attachments with their Content-Disposition — so specs assert on what a
// recipient sees, not on the encoding nodemailer happened to pick.
import fs from "node:fs/promises";
import path from "node:path";
import { mailDirectory } from "./_helpers";

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** "attachment" or "inline", as the part's Content-Disposition says. */
  disposition: string;
  content: Buffer;
}

export interface ParsedMail {
  file: string;
  to: string;
  from: string;
  subject: string;
  /** The text/plain body, decoded. */
  text: string;
  /** The text/html body, decoded. */
  html: string;
  attachments: MailAttachment[];
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

/** Headers (unfolded, names lower-cased) and the raw body of one entity. */
function splitEntity(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** `type/sub; a=b; c="d"` → its value and parameters (RFC 2231 `name*=utf-8''…` decoded). */
function headerValue(value = ""): { value: string; params: Record<string, string> } {
  const [first, ...rest] = value.split(";");
  const params: Record<string, string> = {};
  for (const piece of rest) {
    const eq = piece.indexOf("=");
    if (eq === -1) continue;
    const key = piece.slice(0, eq).trim().toLowerCase();
    let v = piece
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (key.endsWith("*")) {
      v = decodeURIComponent(v.replace(/^[^']*'[^']*'/, ""));
      params[key.slice(0, -1)] = v;
    } else params[key] = decodeWords(v);
  }
  return { value: (first ?? "").trim().toLowerCase(), params };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header. */
function decodeWords(text: string): string {
  return text
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : quotedPrintableBytes(data.replace(/_/g, " ")).toString("utf8"),
    );
}

function quotedPrintableBytes(text: string): Buffer {
  const unfolded = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < unfolded.length; i++) {
    const hex = unfolded.slice(i + 1, i + 3);
    if (unfolded[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(unfolded[i]!, "utf8"));
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): Buffer {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64");
  if (encoding === "quoted-printable") return quotedPrintableBytes(part.body);
  return Buffer.from(part.body, "utf8");
}

/** The leaf parts of an entity, depth first. */
function leaves(part: Part): Part[] {
  const type = headerValue(part.headers.get("content-type") ?? "text/plain");
  if (!type.value.startsWith("multipart/") || !type.params.boundary) return [part];
  const delimiter = `--${type.params.boundary}`;
  const sections = part.body.split(new RegExp(`^${delimiter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \t]*$`, "m"));
  // The preamble before the first delimiter and the epilogue after the last are not parts.
  return sections
    .slice(1, -1)
    .map((s) => s.replace(/^\n/, "").replace(/\n$/, ""))
    .flatMap((s) => leaves(splitEntity(s)));
}

export function parseMail(raw: string, file = ""): ParsedMail {
  const root = splitEntity(raw);
  const mail: ParsedMail = {
    file,
    to: decodeWords(root.headers.get("to") ?? ""),
    from: decodeWords(root.headers.get("from") ?? ""),
    subject: decodeWords(root.headers.get("subject") ?? ""),
    text: "",
    html: "",
    attachments: [],
  };
  for (const leaf of leaves(root)) {
    const type = headerValue(leaf.headers.get("content-type") ?? "text/plain");
    const disposition = headerValue(leaf.headers.get("content-disposition"));
    const filename = disposition.params.filename ?? type.params.name;
    if (disposition.value === "attachment" || disposition.value === "inline" || filename) {
      mail.attachments.push({
        filename: filename ?? "",
        contentType: type.value,
        disposition: disposition.value,
        content: decodeBody(leaf),
      });
    } else if (type.value === "text/html") mail.html += decodeBody(leaf).toString("utf8");
    else if (type.value === "text/plain") mail.text += decodeBody(leaf).toString("utf8");
  }
  return mail;
}

/** Every message in the outbox addressed to `to`, oldest first (files are named by time). */
export async function mailboxOf(to: string): Promise<ParsedMail[]> {
  const dir = mailDirectory();
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
  const out: ParsedMail[] = [];
  for (const file of files) {
    const raw = await fs.readFile(path.join(dir, file), "utf8").catch(() => "");
    // Cheap check on the raw header before parsing the whole message.
    const header = /^To: *(.+)$/im.exec(raw)?.[1]?.trim().toLowerCase();
    if (header !== to.toLowerCase()) continue;
    out.push(parseMail(raw, file));
  }
  return out;
}

/**
 * Polls `to`'s mailbox until `done` holds for it (the app's mail worker sends
 * within seconds of the change); answers the mailbox, or fails with what it held.
 */
export async function waitForMailbox(
  to: string,
  done: (mails: ParsedMail[]) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<ParsedMail[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailboxOf(to);
    if (done(mails)) return mails;
    if (Date.now() > until) {
      const subjects = mails.map((m) => m.subject).join(" | ") || "nothing";
      throw new Error(`${to}: expected ${what} in ${mailDirectory()} within ${timeoutMs} ms; found: ${subjects}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
