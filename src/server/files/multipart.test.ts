// The multipart reader on real request bodies (built with FormData or by hand,
// streamed like a socket would deliver them).
import { describe, expect, it } from "vitest";
import { readMultipart } from "./multipart";
import { sanitizeFileName, contentDisposition } from "./file-name";
import { sniffContentType } from "./sniff";
import { refusal } from "@/test/fixtures";

const PDF = Buffer.from("%PDF-1.4\n%%EOF\n");
/** A real 1×1 PNG (an image's header is read: ./images.test.ts). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const EXE = Buffer.from("MZ\x90\x00 this is not a pdf");
const opts = { files: ["file"], maxFileBytes: 1024 };

function formRequest(parts: [string, string | Blob, string?][]) {
  const form = new FormData();
  for (const [name, value, fileName] of parts) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value, fileName);
  }
  return new Request("http://x/upload", { method: "POST", body: form });
}

/** A body that arrives in small chunks without Content-Length (like chunked transfer). */
function chunkedRequest(contentType: string, body: Buffer, chunk = 100) {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < body.length; i += chunk) controller.enqueue(new Uint8Array(body.subarray(i, i + chunk)));
      controller.close();
    },
  });
  return new Request("http://x/upload", {
    method: "POST",
    body: stream,
    headers: { "content-type": contentType },
    duplex: "half",
  } as RequestInit);
}

describe("sniffContentType", () => {
  it("judges by the first bytes only", () => {
    expect(sniffContentType(PDF)).toBe("application/pdf");
    expect(sniffContentType(PNG)).toBe("image/png");
    expect(sniffContentType(JPEG)).toBe("image/jpeg");
    expect(sniffContentType(EXE)).toBeNull();
    expect(sniffContentType(Buffer.from("<html><script>"))).toBeNull();
    expect(sniffContentType(Buffer.alloc(0))).toBeNull();
  });
});

describe("sanitizeFileName", () => {
  it("keeps the name readable and safe, with the extension of the real type", () => {
    expect(sanitizeFileName("../../etc/passwd", "application/pdf")).toBe("passwd.pdf");
    expect(sanitizeFileName("C:\\Users\\me\\licence.PDF", "application/pdf")).toBe("licence.pdf");
    expect(sanitizeFileName("evil.exe", "image/png")).toBe("evil.exe.png");
    expect(sanitizeFileName('a"b\r\nc<d>.jpg', "image/jpeg")).toBe("abcd.jpg");
    expect(sanitizeFileName("", "image/png")).toBe("file.png");
    expect(sanitizeFileName("...", "image/png")).toBe("file.png");
    expect(sanitizeFileName("x".repeat(500), "application/pdf").length).toBeLessThanOrEqual(120);
    expect(sanitizeFileName("Reçu été.pdf", "application/pdf")).toBe("Reçu été.pdf");
  });

  it("never lets a quote or a line break into Content-Disposition", () => {
    const header = contentDisposition('na"me\u00e9.pdf', "inline");
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(`inline; filename="na_me_.pdf"; filename*=UTF-8''na%22me%C3%A9.pdf`);
  });
});

describe("readMultipart", () => {
  it("reads fields and a file, judging its type by content", async () => {
    const { fields, files } = await readMultipart(
      formRequest([
        ["name", "Licence"],
        ["file", new Blob([PNG], { type: "application/pdf" }), "scan.pdf"],
      ]),
      opts,
    );
    expect(fields).toEqual({ name: "Licence" });
    expect(files.file?.contentType).toBe("image/png");
    expect(files.file?.fileName).toBe("scan.png");
    expect(files.file?.bytes.equals(PNG)).toBe(true);
  });

  it("refuses a file whose bytes are not PDF, PNG or JPEG with 415", async () => {
    const err = await refusal(
      readMultipart(formRequest([["file", new Blob([EXE], { type: "application/pdf" }), "x.pdf"]]), opts),
    );
    expect(err.status).toBe(415);
    expect(err.extra.errors?.[0]?.path).toBe("file");
  });

  it("refuses a file over the limit with 413, with or without Content-Length", async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(2048)]);
    expect((await refusal(readMultipart(formRequest([["file", new Blob([big]), "big.pdf"]]), opts))).status).toBe(413);
    const boundary = "----b";
    const raw = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      big,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const req = chunkedRequest(`multipart/form-data; boundary=${boundary}`, raw);
    expect(req.headers.get("content-length")).toBeNull();
    expect((await refusal(readMultipart(req, opts))).status).toBe(413);
  });

  it("accepts a file of exactly the limit and refuses one byte more", async () => {
    const exact = Buffer.concat([PDF, Buffer.alloc(opts.maxFileBytes - PDF.length)]);
    const body = await readMultipart(formRequest([["file", new Blob([exact]), "exact.pdf"]]), opts);
    expect(body.files.file?.size).toBe(opts.maxFileBytes);
    const over = Buffer.concat([exact, Buffer.alloc(1)]);
    expect((await refusal(readMultipart(formRequest([["file", new Blob([over]), "over.pdf"]]), opts))).status).toBe(413);
  });

  it("refuses a declared length far over the limit before reading", async () => {
    const req = new Request("http://x/upload", {
      method: "POST",
      body: "x",
      headers: { "content-type": "multipart/form-data; boundary=b", "content-length": String(50 * 1024 * 1024) },
    });
    expect((await refusal(readMultipart(req, opts))).status).toBe(413);
  });

  it("answers 415 for a body that is not multipart, 400 for a broken one", async () => {
    const json = new Request("http://x/upload", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect((await refusal(readMultipart(json, opts))).status).toBe(415);
    const noBoundary = new Request("http://x/upload", {
      method: "POST",
      body: "x",
      headers: { "content-type": "multipart/form-data; charset=utf-8" },
    });
    expect((await refusal(readMultipart(noBoundary, opts))).status).toBe(415);
    const truncated = chunkedRequest(
      "multipart/form-data; boundary=zz",
      Buffer.from('--zz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4'),
    );
    const err = await refusal(readMultipart(truncated, opts));
    expect(err.status).toBe(400);
    expect(err.code).toBe("malformed_multipart");
  });

  it("refuses unknown file fields, two files in one field and empty files with 422", async () => {
    const pdf = () => new Blob([PDF]);
    expect((await refusal(readMultipart(formRequest([["other", pdf(), "a.pdf"]]), opts))).status).toBe(422);
    const two = await refusal(
      readMultipart(
        formRequest([
          ["file", pdf(), "a.pdf"],
          ["file", pdf(), "b.pdf"],
        ]),
        { ...opts, files: ["file", "second"] },
      ),
    );
    expect(two.status).toBe(422);
    expect((await refusal(readMultipart(formRequest([["file", new Blob([]), "empty.pdf"]]), opts))).status).toBe(422);
  });

  it("keeps a text value in a file field as text, for the schema to refuse in place of the file", async () => {
    const { fields, files } = await readMultipart(formRequest([["file", "not a file"]]), opts);
    expect(files.file).toBeUndefined();
    expect(fields.file).toBe("not a file");
  });
});
