// For the mail tests only (imported by *.test.ts, never by the app): reading
// the .eml files the local outbox writes, and a tiny SMTP server that accepts
// everything, to send real mail over a real socket.
import fs from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { mailDir } from "@/server/integrations/email";

export interface ParsedMail {
  raw: string;
  headers: Record<string, string[]>;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

const decodeWords = (value: string) =>
  value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : qp(data.replace(/_/g, " ")).toString("utf8"),
    );

function qp(body: string): Buffer {
  const bytes: number[] = [];
  const text = body.replace(/=\r?\n/g, "");
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, "utf8"));
  }
  return Buffer.from(bytes);
}

function parseHeaders(block: string): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const line of block.replace(/\n[ \t]+/g, " ").split("\n")) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    (headers[line.slice(0, i).trim().toLowerCase()] ??= []).push(decodeWords(line.slice(i + 1).trim()));
  }
  return headers;
}

const param = (header: string | undefined, name: string) => new RegExp(`${name}="?([^";]+)"?`, "i").exec(header ?? "")?.[1];

function walk(raw: string, into: ParsedMail) {
  const split = raw.indexOf("\n\n");
  const headers = parseHeaders(split < 0 ? raw : raw.slice(0, split));
  const body = split < 0 ? "" : raw.slice(split + 2);
  const type = headers["content-type"]?.[0] ?? "text/plain";
  const boundary = param(type, "boundary");
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) if (!part.startsWith("--")) walk(part.replace(/^\n/, ""), into);
    return;
  }
  const encoding = (headers["content-transfer-encoding"]?.[0] ?? "7bit").toLowerCase();
  const content =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64")
      : encoding === "quoted-printable"
        ? qp(body)
        : Buffer.from(body);
  const disposition = headers["content-disposition"]?.[0];
  if (/^attachment/i.test(disposition ?? "")) {
    into.attachments.push({
      filename: param(disposition, "filename") ?? param(type, "name") ?? "",
      contentType: type.split(";")[0]!.trim(),
      content,
    });
  } else if (/^text\/html/i.test(type)) into.html += content.toString("utf8");
  else if (/^text\/plain/i.test(type)) into.text += content.toString("utf8");
}

export function parseEml(raw: string): ParsedMail {
  const normalized = raw.replace(/\r\n/g, "\n");
  const mail: ParsedMail = { raw: normalized, headers: {}, text: "", html: "", attachments: [] };
  const split = normalized.indexOf("\n\n");
  mail.headers = parseHeaders(normalized.slice(0, split));
  walk(normalized, mail);
  return mail;
}

/** Every mail in the local outbox addressed to `recipient`, oldest first. */
export async function mailsTo(recipient: string): Promise<ParsedMail[]> {
  const dir = mailDir();
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".eml")).sort();
  const mails: ParsedMail[] = [];
  for (const name of names) {
    const raw = await fs.readFile(path.join(dir, name), "utf8").catch(() => "");
    if (!raw.toLowerCase().includes(recipient.toLowerCase())) continue;
    const mail = parseEml(raw);
    if ((mail.headers.to ?? []).some((to) => to.toLowerCase().includes(recipient.toLowerCase()))) mails.push(mail);
  }
  return mails;
}

/** A port nothing listens on (it did a moment ago): SMTP to it is refused. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An SMTP server on 127.0.0.1:`port` that accepts every message; `messages` are the raw DATA. */
export async function smtpReceiver(port: number) {
  const messages: ParsedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.setEncoding("utf8");
    let buffer = "";
    let data: string[] | null = null;
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (let i = buffer.indexOf("\r\n"); i >= 0; i = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data) {
          if (line === ".") {
            messages.push(parseEml(data.join("\n")));
            data = null;
            socket.write("250 2.0.0 queued\r\n");
          } else data.push(line.startsWith("..") ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") socket.write("250-test\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n");
        else if (verb === "AUTH") socket.write("235 2.7.0 accepted\r\n");
        else if (verb === "DATA") {
          data = [];
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
