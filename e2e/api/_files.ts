// Files for the upload specs (real PDF, PNG and JPEG bytes, and an executable
// dressed as a PDF), the exact resource shapes, and raw multipart requests
// that Playwright's `multipart` option cannot send (chunked, no Content-Length).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { BASE_URL, unique } from "../support/api";
import type { FilePart } from "../support/files";
import { ok } from "./_helpers";

export { pdfOfSize, type FilePart } from "../support/files";

/** A real one-page PDF; `title` makes its bytes unique. */
export async function pdfFile(title = `Certificate ${unique()}`): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const page = doc.addPage([420, 300]);
  page.drawText(title, { x: 40, y: 240, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** A 1×1 baseline JPEG (JFIF). */
export const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////" +
    "wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);

/** The first bytes of a Windows executable: "MZ", the DOS stub, its message. */
export const EXE = Buffer.concat([
  Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00]),
  Buffer.alloc(48),
  Buffer.from("This program cannot be run in DOS mode.\r\r\n$", "latin1"),
  Buffer.alloc(400),
]);

export const pdfPart = async (name = "licence.pdf"): Promise<FilePart> => ({
  name,
  mimeType: "application/pdf",
  buffer: await pdfFile(),
});
export const pngPart = (name = "scan.png"): FilePart => ({ name, mimeType: "image/png", buffer: PNG });
export const jpegPart = (name = "photo.jpg"): FilePart => ({ name, mimeType: "image/jpeg", buffer: JPEG });
/** An executable named x.pdf and declared application/pdf: only its bytes tell. */
export const exePart = (): FilePart => ({ name: "x.pdf", mimeType: "application/pdf", buffer: EXE });

export const CERTIFICATE_FIELDS = ["contentType", "createdAt", "fileName", "id", "isActive", "name", "size", "type", "url"];
export const RECEIPT_SAMPLE_FIELDS = ["contentType", "createdAt", "fileName", "id", "name", "size", "url"];
export const KYB_FIELDS = ["documents", "rejectionReason", "reviewedAt", "status", "submittedAt"];
export const KYB_DOCUMENT_FIELDS = ["contentType", "createdAt", "fileName", "id", "kind", "size", "url"];

export const CERTIFICATES = "business/documents/certificates";
export const RECEIPT_SAMPLES = "business/documents/receipt-samples";

export const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

// Specs read loosely-typed JSON and assert on it.
/* eslint-disable @typescript-eslint/no-explicit-any */

/** Uploads a certificate (a fresh PDF unless `file` is given); answers the created certificate. */
export async function uploadCertificate(client: APIRequestContext, opts: { file?: FilePart; name?: string; type?: string } = {}) {
  const res = await client.post(CERTIFICATES, {
    multipart: {
      file: opts.file ?? (await pdfPart()),
      name: opts.name ?? `Licence ${unique()}`,
      type: opts.type ?? "insurance licence",
    },
  });
  return ok<any>(res, 201);
}

/** Uploads a receipt sample (a fresh PDF unless `file` is given); answers the created sample. */
export async function uploadReceiptSample(client: APIRequestContext, opts: { file?: FilePart; name?: string } = {}) {
  const res = await client.post(RECEIPT_SAMPLES, {
    multipart: { file: opts.file ?? (await pdfPart("receipt.pdf")), name: opts.name ?? `Receipt ${unique()}` },
  });
  return ok<any>(res, 201);
}

/** A file URL's answer, reduced to what the specs compare: status, the headers that matter, the bytes' digest. */
export async function fileAnswer(res: APIResponse) {
  const body = await res.body();
  const h = res.headers();
  return {
    status: res.status(),
    contentType: h["content-type"],
    disposition: h["content-disposition"],
    sha256: res.status() === 200 ? sha256(body) : undefined,
  };
}

// ---------- raw multipart ----------

export type RawPart = { name: string; value: string } | { name: string; file: FilePart };

/** A multipart/form-data body written by hand, for bodies no client library would send. */
export function multipartBytes(boundary: string, parts: RawPart[], { close = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      "file" in p
        ? `form-data; name="${p.name}"; filename="${p.file.name}"\r\nContent-Type: ${p.file.mimeType}`
        : `form-data; name="${p.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`, "utf8"));
    chunks.push("file" in p ? p.file.buffer : Buffer.from(p.value, "utf8"));
    chunks.push(Buffer.from("\r\n"));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The server closed the connection while the request body was still being written (its answer lost). */
  closedEarly?: boolean;
}

/**
 * POSTs `head`, then `fileBytes` bytes of `filler` (in 64 KiB writes), then
 * `tail`, with Node's http client: chunked (no Content-Length) unless
 * `contentLength` is given. The server may answer and close before the body
 * is all sent; the answer is what counts, not the write errors after it.
 */
export function postStreamed(
  path: string,
  headers: Record<string, string>,
  body: { head: Buffer; fileBytes: number; tail: Buffer; contentLength?: boolean },
): Promise<RawAnswer> {
  const url = new URL(path, BASE_URL);
  const total = body.head.length + body.fileBytes + body.tail.length;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      url,
      {
        method: "POST",
        headers: {
          ...headers,
          ...(body.contentLength ? { "Content-Length": String(total) } : { "Transfer-Encoding": "chunked" }),
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error("no answer in 60 s")));
    req.on("error", (e: NodeJS.ErrnoException) => {
      if (answered) return;
      // The server may refuse and close before the client has finished writing: the refusal itself
      // is then lost to the client (EPIPE / ECONNRESET), which is still an early refusal.
      if (e.code === "EPIPE" || e.code === "ECONNRESET") return resolve({ status: 0, headers: {}, text: "", closedEarly: true });
      reject(e);
    });
    const filler = Buffer.alloc(64 * 1024, 0x41);
    let sent = 0;
    let started = false;
    const pump = () => {
      if (req.destroyed || answered) return;
      if (!started) {
        started = true;
        req.write(body.head);
      }
      while (sent < body.fileBytes) {
        const n = Math.min(filler.length, body.fileBytes - sent);
        sent += n;
        if (!req.write(n === filler.length ? filler : filler.subarray(0, n))) return void req.once("drain", pump);
        if (req.destroyed || answered) return;
      }
      req.end(body.tail);
    };
    pump();
  });
}

/** The bytes the server holds for an organization (disk storage under its DATA_DIR). */
export async function storedBytes(organizationId: string): Promise<string[]> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? "", "files", organizationId);
  try {
    return (await fs.readdir(dir)).filter((f) => !f.endsWith(".tmp")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}
