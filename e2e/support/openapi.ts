// The REST API as the app describes it (/api/v1/openapi.json): its operations,
// sample request bodies built from their schemas, and small HTTP helpers the
// generated specs (security matrix, fuzz) share. Nothing here lists endpoints:
// a new endpoint is picked up the day it is added.
import net from "node:net";
import { BASE_URL } from "./api";
import { isFilePart, samplePdfPart } from "./files";

export const API_ROOT = `${BASE_URL}/api/v1`;

// JSON Schema as zod-openapi emits it; loosely typed on purpose.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Template under /api/v1, e.g. `/business/policies/{id}`. */
  path: string;
  operationId: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON request body's schema ($refs resolved lazily through `doc`). */
  body?: Schema;
  /** A multipart/form-data body's schema instead (an upload), and its file fields (`format: binary`). */
  form?: { schema: Schema; files: string[] };
  /** `write` unless GET: what the contract says a key needs. */
  permission: "read" | "write";
  /** The success status the document declares. */
  successStatus: number;
}

export interface ApiDocument {
  doc: Schema;
  operations: Operation[];
}

/** The operations of the live OpenAPI document. */
export async function loadApi(): Promise<ApiDocument> {
  const res = await fetch(`${API_ROOT}/openapi.json`);
  if (!res.ok) throw new Error(`openapi.json: ${res.status}`);
  const doc = (await res.json()) as Schema;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [m, op] of Object.entries<Schema>(item)) {
      const method = m.toUpperCase() as Operation["method"];
      if (!["GET", "POST", "PUT", "PATCH", "DELETE"].includes(method)) continue;
      const params = ((op.parameters ?? []) as Parameter[]).map((p) => ({ ...p, schema: p.schema ?? {} }));
      const formSchema = op.requestBody?.content?.["multipart/form-data"]?.schema as Schema | undefined;
      operations.push({
        method,
        path,
        operationId: op.operationId,
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        body: op.requestBody?.content?.["application/json"]?.schema,
        form: formSchema ? { schema: formSchema, files: fileFields(doc, formSchema) } : undefined,
        permission: method === "GET" ? "read" : "write",
        successStatus: Number(Object.keys(op.responses).find((s) => /^2\d\d$/.test(s)) ?? 200),
      });
    }
  }
  return { doc, operations };
}

/** The properties of a form schema that are files (`type: string, format: binary`). */
function fileFields(doc: Schema, schema: Schema): string[] {
  return Object.entries<Schema>(deref(doc, schema).properties ?? {})
    .filter(([, prop]) => deref(doc, prop).format === "binary")
    .map(([name]) => name);
}

/** Follows `$ref`s into `components`. */
export function deref(doc: Schema, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 20 && s?.$ref; i++) {
    const parts = String(s.$ref).replace(/^#\//, "").split("/");
    s = parts.reduce((node: Schema, part) => node?.[part], doc);
  }
  return s ?? {};
}

/**
 * The path templates a path's parameters stand for, outermost first:
 * `/organizations/{accountID}/members/{memberId}` → `/organizations/{accountID}`,
 * `/organizations/{accountID}/members/{memberId}`. One record kind each.
 */
export function parameterKinds(path: string): { name: string; kind: string }[] {
  const out: { name: string; kind: string }[] = [];
  const re = /\{(\w+)\}/g;
  for (let m = re.exec(path); m; m = re.exec(path)) out.push({ name: m[1]!, kind: path.slice(0, m.index + m[0].length) });
  return out;
}

/** The template with its `{name}`s replaced by the (already encoded, unless `encode`) values. */
export function fillPath(template: string, values: Record<string, string>, encode = true): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encode ? encodeURIComponent(v) : v;
  });
}

// ---------- sample values from schemas ----------

export interface SampleOptions {
  /** Include optional properties too (else only the required ones). */
  rich?: boolean;
  /** Values for properties by name (e.g. `policyId` → a real policy's id). */
  hints?: Record<string, unknown>;
  /** Seed for distinct strings (emails, names). */
  tag?: string;
}

const nonNull = (s: Schema) => s.type !== "null";

/** The first value of the `e.g. …` hint a description gives (`e.g. "150.00"`, `e.g. 150 or 150.5`). */
function exampleInDescription(s: Schema): string | undefined {
  const m = /e\.g\.\s*(?:"([^"]*)"|(-?\d+(?:\.\d+)?))/.exec(String(s.description ?? ""));
  return m ? (m[1] ?? m[2]) : undefined;
}

/** A value that satisfies `schema`, as far as JSON Schema alone tells (then hints and `e.g.` in descriptions). */
export function sample(doc: Schema, schema: Schema, opts: SampleOptions = {}, name?: string): unknown {
  const s = deref(doc, schema);
  if (name && opts.hints && name in opts.hints) return opts.hints[name];
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches) return sample(doc, branches.map((b) => deref(doc, b)).find(nonNull) ?? branches[0]!, opts, name);
  if (Array.isArray(s.allOf)) return sample(doc, s.allOf[0], opts, name);
  const type = Array.isArray(s.type) ? (s.type.find((t: string) => t !== "null") ?? "null") : s.type;
  const tag = opts.tag ?? "s";
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(s.required ?? []);
      for (const [key, prop] of Object.entries<Schema>(s.properties ?? {})) {
        if (required.has(key) || opts.rich) out[key] = sample(doc, prop, opts, key);
      }
      return out;
    }
    case "array": {
      const items = deref(doc, s.items ?? {});
      const n = Math.max(s.minItems ?? 0, opts.rich ? 1 : 0);
      // Distinct values where the items are an enum (sets of permissions, events).
      return Array.from({ length: n }, (_, i) =>
        Array.isArray(items.enum) ? items.enum[i % items.enum.length] : sample(doc, items, opts, name),
      );
    }
    case "integer":
    case "number": {
      const hinted = exampleInDescription(s);
      if (hinted !== undefined && !Number.isNaN(Number(hinted))) return Number(hinted);
      return s.maximum ?? s.minimum ?? 1;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "string": {
      if (s.format === "email") return `${tag}-${name ?? "x"}@example.test`.toLowerCase().replace(/[^a-z0-9@.-]/g, "-");
      if (s.format === "uri" || s.format === "url") return "http://127.0.0.1:9/sample";
      if (s.format === "date-time") return new Date().toISOString();
      if (s.format === "date") return new Date().toISOString().slice(0, 10);
      if (s.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      const hinted = exampleInDescription(s);
      if (hinted !== undefined) return hinted;
      const base = `Sample ${name ?? "value"} ${tag}`;
      const min = s.minLength ?? 0;
      return base.padEnd(min, "x").slice(0, s.maxLength ?? base.length);
    }
    default:
      return {};
  }
}

/**
 * A form the server accepts as input for an upload operation: text fields
 * sampled from the schema, a small valid PDF in every file field.
 */
export function sampleForm(doc: Schema, op: Operation, opts: SampleOptions = {}): Record<string, unknown> {
  if (!op.form) throw new Error(`${op.method} ${op.path} takes no form`);
  const form = sample(doc, op.form.schema, opts) as Record<string, unknown>;
  for (const field of op.form.files) form[field] = samplePdfPart(`${field}.pdf`);
  return form;
}

/** The sample body of any operation: JSON, or a form for an upload (undefined without a body). */
export function sampleBody(doc: Schema, op: Operation, opts: SampleOptions = {}): unknown {
  if (op.form) return sampleForm(doc, op, opts);
  return op.body ? sample(doc, op.body, opts) : undefined;
}

/** The schema of the operation's body, JSON or form. */
export const bodySchema = (op: Operation): Schema | undefined => op.body ?? op.form?.schema;

/** Deletes `a.b.c` from an object (used to drop an optional field the server refused). */
export function deletePath(value: unknown, path: string): boolean {
  const parts = path.split(".");
  let node = value as Record<string, unknown> | undefined;
  for (const part of parts.slice(0, -1)) node = node?.[part] as Record<string, unknown> | undefined;
  const last = parts.at(-1)!;
  if (!node || typeof node !== "object" || !(last in node)) return false;
  delete node[last];
  return true;
}

/** Is `path` (a.b.c) required by the body schema? */
export function isRequired(doc: Schema, schema: Schema, path: string): boolean {
  let s = deref(doc, schema);
  for (const part of path.split(".")) {
    if (!(s.required ?? []).includes(part)) return false;
    s = deref(doc, s.properties?.[part] ?? {});
  }
  return true;
}

// ---------- HTTP ----------

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** A request to /api/v1 with fetch (`path` is sent as given, already encoded). */
export async function apiRequest(
  method: string,
  path: string,
  init: {
    key?: string;
    body?: string | Uint8Array<ArrayBuffer> | FormData;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization"))
    headers.authorization = `Bearer ${init.key}`;
  const res = await fetch(`${API_ROOT}${path}`, {
    method,
    headers,
    body: init.body,
    redirect: "manual",
    signal: AbortSignal.timeout(init.timeoutMs ?? 60_000),
  });
  // An event stream never ends: its status and headers are the answer (the events themselves: events-stream.spec.ts).
  if (res.ok && (res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    await res.body?.cancel();
    return { status: res.status, headers: Object.fromEntries(res.headers), text: "" };
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

/** A JSON request to /api/v1. */
export function apiJson(method: string, path: string, key: string | undefined, body?: unknown) {
  return apiRequest(method, path, {
    key,
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
}

/** A multipart/form-data request to /api/v1: FilePart values as files, anything else as text. */
export function apiForm(method: string, path: string, key: string | undefined, fields: Record<string, unknown>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (isFilePart(value)) form.append(name, new Blob([new Uint8Array(value.buffer)], { type: value.mimeType }), value.name);
    else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return apiRequest(method, path, { key, body: form });
}

/** Sends `op` with `body` as the operation takes it: a form for an upload, else JSON. */
export function apiSend(op: Operation, path: string, key: string | undefined, body: unknown) {
  return op.form && body !== undefined
    ? apiForm(op.method, path, key, body as Record<string, unknown>)
    : apiJson(op.method, path, key, body);
}

/**
 * One HTTP/1.1 request written byte for byte on a socket: methods and paths
 * (bad percent-encodings, TRACE, CONNECT…) that fetch clients normalise or refuse.
 */
export function rawRequest(head: string, body = "", timeoutMs = 30_000): Promise<Answer> {
  const url = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    // No half-close: the server answers, then closes (Connection: close).
    socket.on("connect", () =>
      socket.write(
        `${head}\r\nHost: ${url.host}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(parseRawAnswer(Buffer.concat(chunks)));
      } catch (e) {
        reject(e);
      }
    });
  });
}

function parseRawAnswer(buf: Buffer): Answer {
  const end = buf.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no HTTP answer: ${JSON.stringify(buf.toString("latin1").slice(0, 200))}`);
  const [statusLine, ...lines] = buf.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1]);
  if (!status) throw new Error(`bad status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = buf.subarray(end + 4);
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = body.indexOf("\r\n", at);
      if (lineEnd < 0) break;
      const size = parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
      if (!size) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status, headers, text: body.toString("utf8") };
}

/**
 * What is wrong with an error answer, or null: every 4xx/5xx must be
 * `application/problem+json` with `code`, `status` (the HTTP one) and `requestId`.
 */
export function problemDefect(a: Answer, method = "GET"): string | null {
  if (a.status < 400) return null;
  const type = a.headers["content-type"] ?? "";
  if (!type.startsWith("application/problem+json")) return `content-type ${JSON.stringify(type)}, not problem+json`;
  if (method === "HEAD") return null;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(a.text) as Record<string, unknown>;
  } catch {
    return `body is not JSON: ${a.text.slice(0, 120)}`;
  }
  if (typeof body.code !== "string" || !body.code) return "no `code`";
  if (body.status !== a.status) return `body status ${String(body.status)} ≠ ${a.status}`;
  if (typeof body.requestId !== "string" || !body.requestId) return "no `requestId`";
  return null;
}

/** The `code` of a problem answer (undefined when not one). */
export function problemCode(a: Answer): string | undefined {
  try {
    return (JSON.parse(a.text) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** Runs `tasks` with at most `limit` at a time, in order of start. */
export async function pool<T>(items: T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await task(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
