// Hostile multipart/form-data for the fuzz suite: every upload operation of
// the OpenAPI document (requestBody multipart/form-data) gets wrong file
// types, missing and extra parts, files given as text and text as files, bad
// boundaries, truncated bodies, huge fields, too many parts and a file over
// the limit. Bodies are written by hand so nothing normalises them.
import { EXE, multipartBytes, pdfOfSize, type FilePart, type RawPart } from "./_files";
import { isRequired, sampleForm, type Operation, type Schema, type SampleOptions } from "../support/openapi";
import { isFilePart, SAMPLE_PDF } from "../support/files";

export interface FormCase {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  expect?: { status: number; code?: string };
}

const BOUNDARY = "----fuzz-8c1f0d2e";
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

const file = (name: string, mimeType: string, bytes: Buffer | string): FilePart => ({
  name,
  mimeType,
  buffer: typeof bytes === "string" ? Buffer.from(bytes, "latin1") : bytes,
});
const bytes = (b: Buffer) => new Uint8Array(b);

/** Files that are not a PDF, PNG or JPEG by their content, whatever they are called: 415 each. */
const WRONG_FILES: [string, FilePart][] = [
  ["exe named x.pdf", file("x.pdf", "application/pdf", EXE)],
  ["text", file("notes.txt", "text/plain", "hello, not a document")],
  ["html as png", file("x.png", "image/png", "<html><script>alert(1)</script></html>")],
  ["svg", file("x.svg", "image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
  ["gif", file("x.gif", "image/gif", "GIF89a\x01\x00\x01\x00\x00\x00\x00;")],
  ["zip", file("x.zip", "application/zip", "PK\x03\x04\x14\x00\x00\x00\x08\x00")],
  ["%PDF without version", file("x.pdf", "application/pdf", "%PDF")],
  ["PDF header after 1 KiB", file("x.pdf", "application/pdf", `${"x".repeat(1100)}%PDF-1.7\n`)],
  ["ELF", file("x.jpg", "image/jpeg", "\x7fELF\x02\x01\x01\x00")],
  ["one byte", file("x.jpg", "image/jpeg", "\xff")],
];

/** Files the type check accepts, with hostile names and declared types: never a 5xx. */
const ODD_NAMES: FilePart[] = [
  "../../../etc/passwd",
  "a\u0000b.pdf",
  "\u202egpj.exe",
  "x".repeat(5000),
  "😀.pdf",
  "con.pdf",
  ".htaccess",
  'quote".pdf',
  "",
].map((name) => file(name, "application/x-msdownload", SAMPLE_PDF));

const TEXT_VALUES = [
  "",
  " ",
  "A".repeat(70_000),
  "a\u0000b",
  "\ud800",
  "😀".repeat(50),
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "${7*7}{{7*7}}",
  "%00",
];

/** The form as raw parts, in order. */
const partsOf = (form: Record<string, unknown>): RawPart[] =>
  Object.entries(form).map(([name, v]) => (isFilePart(v) ? { name, file: v } : { name, value: String(v) }));

const encode = (parts: RawPart[], opts?: { close?: boolean }) => multipartBytes(BOUNDARY, parts, opts);

/** Every hostile form for one upload operation at `path`. */
export function formCases(op: Operation, path: string, doc: Schema, opts: SampleOptions): FormCase[] {
  if (!op.form) return [];
  const out: FormCase[] = [];
  const base = sampleForm(doc, op, opts);
  const parts = partsOf(base);
  const files = op.form.files;
  const texts = parts.filter((p) => !("file" in p)).map((p) => p.name);
  const add = (
    kind: string,
    body: Buffer,
    expect?: FormCase["expect"],
    headers: Record<string, string> = { "content-type": TYPE },
  ) => out.push({ kind: `form ${kind}`, method: op.method, path, headers, body: bytes(body), ...(expect ? { expect } : {}) });
  const replace = (name: string, by: RawPart | null, extra: RawPart[] = []) =>
    encode([...parts.flatMap((p) => (p.name !== name ? [p] : by ? [by] : [])), ...extra]);
  const invalid = { status: 422, code: "validation_failed" };

  add("valid", encode(parts));
  for (const field of files) {
    for (const [label, wrong] of WRONG_FILES)
      add(`${field} ${label}`, replace(field, { name: field, file: wrong }), { status: 415, code: "unsupported_media_type" });
    for (const odd of ODD_NAMES)
      add(`${field} named ${JSON.stringify(odd.name.slice(0, 20))}`, replace(field, { name: field, file: odd }));
    add(`${field} empty`, replace(field, { name: field, file: file("empty.pdf", "application/pdf", "") }), invalid);
    // An empty file input (no name, no bytes) is no file: refused where the file is required.
    add(
      `${field} empty, no name`,
      replace(field, { name: field, file: file("", "application/octet-stream", "") }),
      isRequired(doc, op.form.schema, field) ? invalid : undefined,
    );
    add(`${field} as text`, replace(field, { name: field, value: "%PDF-1.7 given as text" }), invalid);
    add(
      `${field} twice`,
      replace(field, null, [
        { name: field, file: file("a.pdf", "application/pdf", SAMPLE_PDF) },
        { name: field, file: file("b.pdf", "application/pdf", SAMPLE_PDF) },
      ]),
      invalid,
    );
  }
  // One file over the limit per operation (10 MiB each: enough to show the limit holds).
  add(
    `${files[0]} over the limit`,
    replace(files[0]!, { name: files[0]!, file: file("big.pdf", "application/pdf", pdfOfSize(MAX_UPLOAD_BYTES + 1)) }),
    { status: 413, code: "payload_too_large" },
  );
  // A missing field is refused when the form requires it (POST /claims takes its files and the email optionally).
  for (const field of [...files, ...texts])
    add(`without ${field}`, replace(field, null), isRequired(doc, op.form.schema, field) ? invalid : undefined);
  for (const field of texts) {
    for (const value of TEXT_VALUES)
      add(
        `${field} = ${JSON.stringify(value.slice(0, 12))}`,
        replace(field, { name: field, value }),
        value.includes("\u0000") || value.length > 65_536 ? invalid : undefined,
      );
    add(`${field} as a file`, replace(field, { name: field, file: file("x.pdf", "application/pdf", SAMPLE_PDF) }), invalid);
  }
  add("extra text field", encode([...parts, { name: "organizationId", value: "x" }]), invalid);
  add("extra file field", encode([...parts, { name: "extra", file: file("x.pdf", "application/pdf", SAMPLE_PDF) }]), invalid);
  add("no parts", Buffer.from(`--${BOUNDARY}--\r\n`), invalid);
  add("empty body", Buffer.alloc(0));
  add("200 text fields", encode([...parts, ...Array.from({ length: 200 }, (_, i) => ({ name: `f${i}`, value: "x" }))]), {
    status: 400,
    code: "malformed_multipart",
  });
  add(
    "50 file parts",
    encode([
      ...parts,
      ...Array.from({ length: 50 }, () => ({ name: files[0]!, file: file("x.pdf", "application/pdf", SAMPLE_PDF) })),
    ]),
  );

  // The envelope itself.
  const whole = encode(parts);
  add("truncated in half", whole.subarray(0, Math.floor(whole.length / 2)), { status: 400, code: "malformed_multipart" });
  add("no closing boundary", encode(parts, { close: false }), { status: 400, code: "malformed_multipart" });
  add("LF line ends", Buffer.from(whole.toString("latin1").replace(/\r\n/g, "\n"), "latin1"));
  add("preamble and epilogue", Buffer.concat([Buffer.from("preamble\r\n"), whole, Buffer.from("epilogue")]));
  add("part without a name", Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n`), whole]));
  add("part without headers", Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n\r\nx\r\n`), whole]));
  const manyHeaders = Array.from({ length: 40 }, (_, i) => `X-H${i}: v`).join("\r\n");
  add(
    "40 part headers",
    Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\n${manyHeaders}\r\nContent-Disposition: form-data; name="n"\r\n\r\nx\r\n`),
      whole,
    ]),
  );
  add("header without end", Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${"n".repeat(100_000)}`));
  for (const type of [
    "multipart/form-data",
    "multipart/form-data; boundary=",
    "multipart/form-data; boundary=other",
    `multipart/form-data; boundary="${BOUNDARY}"`,
    `multipart/form-data;boundary=${BOUNDARY}`,
    `MULTIPART/FORM-DATA; BOUNDARY=${BOUNDARY}`,
    `multipart/form-data; boundary=${"b".repeat(200)}`,
    `multipart/form-data; boundary=${BOUNDARY}; boundary=x`,
    `multipart/mixed; boundary=${BOUNDARY}`,
    "application/x-www-form-urlencoded",
    "application/json",
    "text/plain",
    "",
  ]) {
    // An operation that also takes JSON (op.body) reads a JSON-typed body as JSON: these bytes are not.
    const expect415 = !/^multipart\/form-data\s*;.*boundary=/i.test(type)
      ? op.body && type === "application/json"
        ? { status: 400, code: "malformed_json" }
        : { status: 415, code: "unsupported_media_type" }
      : undefined;
    add(`content-type ${type || "(none)"}`, whole, expect415, type ? { "content-type": type } : {});
  }
  add(
    "a JSON body",
    Buffer.from(JSON.stringify(Object.fromEntries(texts.map((t) => [t, "x"])))),
    // Unsupported for an upload; judged as JSON input where the operation takes JSON too.
    op.body ? { status: 422, code: "validation_failed" } : { status: 415, code: "unsupported_media_type" },
    { "content-type": "application/json" },
  );
  for (const idem of ["", "k".repeat(256)]) {
    add(
      `idempotency-key ${idem.length} chars`,
      whole,
      { status: 422, code: "validation_failed" },
      { "content-type": TYPE, "idempotency-key": idem },
    );
  }
  return out;
}
