// Reads the OpenAPI document (the one served at /api/v1/openapi.json) into
// what the /docs page shows: operations grouped by tag, their parameters, the
// request body's fields as an indented list ($refs resolved, cycles cut), the
// responses and a curl example. Plain data, rendered by reference.tsx.
import { operations } from "@/server/operations";
import { openApiDocument } from "@/server/rest/openapi";

export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};

type Parameter = {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
};
type MediaType = { schema?: Schema };
type Response = { description: string; content?: Record<string, MediaType> };
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
};
type Document = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

export type ParamRow = { name: string; in: string; type: string; required: boolean; description?: string };
export type FieldRow = {
  name: string;
  depth: number;
  type: string;
  required: boolean;
  description?: string;
  values?: string[];
  notes: string[];
};
export type BodyView = { contentType: string; schemaName?: string; fields: FieldRow[] };
export type ResponseView = { status: string; description: string; schema?: string };
export type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  permission?: string;
  params: ParamRow[];
  bodies: BodyView[];
  responses: ResponseView[];
  curl: string;
};
export type TagView = { id: string; name: string; operations: OperationView[] };
export type ReferenceView = {
  title: string;
  version: string;
  description?: string;
  baseUrl: string;
  tags: TagView[];
  /** Answers every operation lists alike (401, 404, 429): shown once, not in each operation's table. */
  shared: ResponseView[];
};

const METHODS = ["get", "post", "put", "patch", "delete"];
const MAX_DEPTH = 4;

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** The anchor of an operation: its operationId, stable as long as the operation is. */
export const operationAnchor = (operationId: string) => `op-${operationId}`;
export const tagAnchor = (tag: string) => `tag-${slug(tag)}`;

const refName = (ref: string) => ref.split("/").pop() ?? ref;

function resolver(doc: Document) {
  const schemas = doc.components?.schemas ?? {};
  return (schema: Schema): { schema: Schema; name?: string } => {
    if (!schema.$ref) return { schema };
    const name = refName(schema.$ref);
    return { schema: schemas[name] ?? {}, name };
  };
}

/** A short type label: `string (date-time)`, `array of Policy`, `string | null`. */
function typeLabel(schema: Schema, resolve: ReturnType<typeof resolver>): string {
  if (schema.$ref) return refName(schema.$ref);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return [...new Set(variants.map((v) => typeLabel(v, resolve)))].join(" | ");
  if (schema.allOf) return schema.allOf.map((v) => typeLabel(v, resolve)).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.const !== undefined ? JSON.stringify(schema.const) : "any";
  return types
    .map((t) => {
      if (t === "array") return `array of ${schema.items ? typeLabel(schema.items, resolve) : "any"}`;
      if (t === "string" && schema.format) return `string (${schema.format})`;
      return t;
    })
    .join(" | ");
}

function notesOf(schema: Schema): string[] {
  const notes: string[] = [];
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) notes.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) notes.push(`≥ ${schema.minimum}`);
  else if (schema.maximum !== undefined) notes.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) notes.push(`${schema.minLength ?? 0}–${schema.maxLength} characters`);
  else if (schema.minLength !== undefined && schema.minLength > 0) notes.push(`at least ${schema.minLength} characters`);
  if (schema.maxItems !== undefined) notes.push(`at most ${schema.maxItems} items`);
  return notes;
}

/** The object schema a field's children come from (through arrays, nullable unions and $refs), if any. */
function childObject(schema: Schema, resolve: ReturnType<typeof resolver>): { schema: Schema; name?: string } | undefined {
  const { schema: s, name } = resolve(schema);
  if (s.properties) return { schema: s, name };
  if (s.items) return childObject(s.items, resolve);
  const variants = (s.anyOf ?? s.oneOf ?? []).filter((v) => !(v.type === "null"));
  if (variants.length === 1) return childObject(variants[0]!, resolve);
  return undefined;
}

function enumOf(schema: Schema, resolve: ReturnType<typeof resolver>): string[] | undefined {
  const s = resolve(schema).schema;
  if (s.enum) return s.enum.map((v) => String(v));
  if (s.items) return enumOf(s.items, resolve);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const values = variants.flatMap((v) => enumOf(v, resolve) ?? []);
    return values.length > 0 ? values : undefined;
  }
  return undefined;
}

/** The fields of an object schema, nested ones indented (depth), each named schema expanded once per branch. */
function fieldsOf(
  schema: Schema,
  resolve: ReturnType<typeof resolver>,
  depth = 0,
  seen: ReadonlySet<string> = new Set(),
): FieldRow[] {
  const rows: FieldRow[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, raw] of Object.entries(schema.properties ?? {})) {
    const own = resolve(raw).schema;
    const row: FieldRow = {
      name,
      depth,
      type: typeLabel(raw, resolve),
      required: required.has(name),
      description: raw.description ?? own.description,
      values: enumOf(raw, resolve),
      notes: notesOf(own),
    };
    rows.push(row);
    const child = childObject(raw, resolve);
    if (!child) continue;
    if ((child.name && seen.has(child.name)) || depth + 1 >= MAX_DEPTH) {
      row.notes.push("fields as above");
      continue;
    }
    rows.push(...fieldsOf(child.schema, resolve, depth + 1, child.name ? new Set([...seen, child.name]) : seen));
  }
  return rows;
}

/** A value of the schema's shape for the curl example: examples, defaults and enums first. */
function sample(schema: Schema, resolve: ReturnType<typeof resolver>, seen: ReadonlySet<string> = new Set()): unknown {
  const { schema: s, name } = resolve(schema);
  if (name && seen.has(name)) return {};
  const next = name ? new Set([...seen, name]) : seen;
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return sample(variants.find((v) => v.type !== "null") ?? variants[0]!, resolve, next);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) if (s.properties?.[key]) out[key] = sample(s.properties[key], resolve, next);
      return out;
    }
    case "array":
      return s.items ? [sample(s.items, resolve, next)] : [];
    case "integer":
    case "number":
      return s.minimum !== undefined && s.minimum > 0 ? s.minimum : 1;
    case "boolean":
      return true;
    case "string":
      if (s.format === "email") return "customer@example.com";
      if (s.format === "uri") return "https://example.com/";
      if (s.format === "date-time") return "2026-01-01T00:00:00.000Z";
      if (s.format === "date") return "2026-01-01";
      return "string";
    default:
      return null;
  }
}

function curlOf(baseUrl: string, method: string, path: string, op: Operation, resolve: ReturnType<typeof resolver>): string {
  const url = `${baseUrl}${path}`;
  const lines = [`curl ${method === "GET" ? "" : `-X ${method} `}"${url}"`, `  -H "Authorization: Bearer cd_test_…"`];
  const content = op.requestBody?.content;
  if (content?.["application/json"]?.schema) {
    const body = JSON.stringify(sample(content["application/json"].schema, resolve));
    lines.push(`  -H "Content-Type: application/json"`);
    if (method === "POST") lines.push(`  -H "Idempotency-Key: $(uuidgen)"`);
    lines.push(`  -d '${body}'`);
  } else if (content?.["multipart/form-data"]?.schema) {
    const form = resolve(content["multipart/form-data"].schema).schema;
    for (const key of form.required ?? Object.keys(form.properties ?? {}).slice(0, 1)) {
      const field = form.properties?.[key];
      const isFile = field && resolve(field).schema.format === "binary";
      lines.push(isFile ? `  -F "${key}=@document.pdf"` : `  -F "${key}=${String(field ? sample(field, resolve) : "")}"`);
    }
  }
  return lines.join(" \\\n");
}

let cached: ReferenceView | undefined;

export function referenceView(): ReferenceView {
  if (cached) return cached;
  // A JSON round trip: the document as served, without zod-openapi's internal objects.
  const doc = JSON.parse(JSON.stringify(openApiDocument())) as Document;
  const resolve = resolver(doc);
  const permissions = new Map<string, string>();
  for (const entry of operations) if (entry.rest) permissions.set(entry.rest.operationId, entry.permission);
  const baseUrl = doc.servers?.[0]?.url ?? "/api/v1";

  const tags = new Map<string, TagView>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      if (!tags.has(tag)) tags.set(tag, { id: tagAnchor(tag), name: tag, operations: [] });
      const params: ParamRow[] = (op.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        type: p.schema ? typeLabel(p.schema, resolve) : "string",
        required: p.required === true || p.in === "path",
        description: p.description ?? p.schema?.description,
      }));
      const bodies: BodyView[] = Object.entries(op.requestBody?.content ?? {}).map(([contentType, media]) => {
        const { schema, name } = media.schema ? resolve(media.schema) : { schema: {} as Schema, name: undefined };
        return { contentType, schemaName: name, fields: fieldsOf(schema, resolve, 0, name ? new Set([name]) : new Set()) };
      });
      const responses: ResponseView[] = Object.entries(op.responses).map(([status, r]) => {
        const entries = Object.entries(r.content ?? {});
        const schema = entries
          .map(([type, media]) =>
            media.schema?.format === "binary" || (media.schema && !media.schema.$ref && media.schema.type === "string")
              ? type
              : media.schema
                ? typeLabel(media.schema, resolve)
                : type,
          )
          .join(", ");
        return { status, description: r.description, schema: schema || undefined };
      });
      tags.get(tag)!.operations.push({
        id: operationAnchor(op.operationId),
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? op.operationId,
        description: op.description,
        permission: permissions.get(op.operationId),
        params,
        bodies,
        responses,
        curl: curlOf(baseUrl, method.toUpperCase(), path, op, resolve),
      });
    }
  }
  // An answer every operation gives with the same words and schema is listed once, above the reference:
  // 98 operations × 3 such rows were the page's largest part.
  const all = [...tags.values()].flatMap((t) => t.operations);
  const key = (r: ResponseView) => `${r.status}\u0000${r.description}\u0000${r.schema ?? ""}`;
  const shared = (all[0]?.responses ?? []).filter((r) => all.every((op) => op.responses.some((o) => key(o) === key(r))));
  const sharedKeys = new Set(shared.map(key));
  for (const op of all) op.responses = op.responses.filter((r) => !sharedKeys.has(key(r)));
  cached = {
    title: doc.info.title,
    version: doc.info.version,
    description: doc.info.description,
    baseUrl,
    tags: [...tags.values()],
    shared,
  };
  return cached;
}
