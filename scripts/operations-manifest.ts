// Prints the dashboard's operations, generated from the server's own
// declaration: every tRPC procedure of the app router (the path the dashboard
// calls, query or mutation, the JSON Schema of its input, who may call it).
// Where the operation table (src/server/operations) declares the procedure, its
// entry's auth kinds and REST path come along too. The session matrix
// (e2e/api/session-matrix.spec.ts) runs it, so a new operation is covered the
// day it is declared.
//
//   npx tsx scripts/operations-manifest.ts [--out file.json]
import fs from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { appRouter } from "@/server/trpc/root";
import { authedProcedure, orgProcedure, platformAdminProcedure } from "@/server/trpc/init";

type AuthKind = "session" | "user" | "platformAdmin" | "public";

export interface ManifestOperation {
  /** The tRPC path (`policies.update`). */
  path: string;
  type: "query" | "mutation" | "subscription";
  /** JSON Schema of the input as the client sends it (null: the procedure takes none). */
  input: unknown;
  /** A platform-admin procedure (anyone else: 404). */
  platformAdmin: boolean;
  /** Who may call it: from the operation table when it declares the procedure, else from the procedure's middlewares. */
  auth: string[];
  /** The REST binding of the same operation, when the table declares one. */
  rest?: { method: string; path: string };
}

interface ProcedureDef {
  type: "query" | "mutation" | "subscription";
  inputs: z.ZodType[];
  middlewares: unknown[];
}
type AnyProcedure = { _def: ProcedureDef };
interface TableEntry {
  name: string;
  auth: readonly string[];
  kind: string;
  dashboard?: boolean;
  rest?: { method: string; path: string };
  http?: { method: string; path: string; body?: z.ZodType; multipart?: unknown };
}

/** Another HTTP route of the app the operation table declares (the portal's, the files'…). */
export interface ManifestRoute {
  name: string;
  kind: string;
  auth: string[];
  method: string;
  path: string;
  /** What its body is: a multipart form, or JSON of this schema (input side); none when absent. */
  body?: { type: "multipart" } | { type: "json"; schema: unknown };
}

/** The middleware each base procedure adds last: finding it in a procedure says who may call it. */
const lastMiddleware = (p: unknown) => (p as AnyProcedure)._def.middlewares.at(-1);
const MARKERS: [AuthKind, unknown][] = [
  ["platformAdmin", lastMiddleware(platformAdminProcedure)],
  ["session", lastMiddleware(orgProcedure)],
  ["user", lastMiddleware(authedProcedure)],
];

function authOf(def: ProcedureDef): AuthKind {
  for (const [kind, marker] of MARKERS) if (def.middlewares.includes(marker)) return kind;
  return "public";
}

/** The input as JSON Schema: several `.input()`s are merged by tRPC, so are their schemas. */
function inputSchema(inputs: z.ZodType[]): unknown {
  if (inputs.length === 0) return null;
  const schemas = inputs.map((s) => z.toJSONSchema(s, { io: "input", unrepresentable: "any" }));
  return schemas.length === 1 ? schemas[0] : { allOf: schemas };
}

/** The operation table, when src/server/operations exports one. */
async function operationTable(): Promise<TableEntry[] | null> {
  try {
    // By a name held in a variable: the script also runs (and type-checks) where the table does not exist yet.
    const table = "@/server/operations";
    const mod = (await import(table)) as { operations?: readonly TableEntry[] };
    return Array.isArray(mod.operations) ? [...mod.operations] : null;
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_MODULE_NOT_FOUND" || /Cannot find module/.test(String(err))) return null;
    throw err;
  }
}

/** The table's other HTTP routes (none before the table exists: the spec then reads the route files). */
function httpRoutes(table: TableEntry[] | null): ManifestRoute[] {
  return (table ?? [])
    .filter((e) => e.http)
    .map((e) => ({
      name: e.name,
      kind: e.kind,
      auth: [...e.auth],
      method: e.http!.method,
      path: e.http!.path,
      ...(e.http!.multipart
        ? { body: { type: "multipart" as const } }
        : e.http!.body
          ? { body: { type: "json" as const, schema: z.toJSONSchema(e.http!.body, { io: "input", unrepresentable: "any" }) } }
          : {}),
    }));
}

export async function operationsManifest(): Promise<{ procedures: ManifestOperation[]; httpRoutes: ManifestRoute[] }> {
  const table = await operationTable();
  const byName = new Map((table ?? []).filter((e) => e.dashboard).map((e) => [e.name, e]));
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, AnyProcedure> } })._def.procedures;
  const list = Object.entries(procedures)
    .map(([path, procedure]): ManifestOperation => {
      const def = procedure._def;
      const entry = byName.get(path);
      const derived = authOf(def);
      return {
        path,
        type: def.type,
        input: inputSchema(def.inputs),
        platformAdmin: entry
          ? entry.auth.includes("platformAdmin") && !entry.auth.includes("session")
          : derived === "platformAdmin",
        auth: entry ? [...entry.auth] : [derived],
        ...(entry?.rest ? { rest: { method: entry.rest.method, path: entry.rest.path } } : {}),
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
  return { procedures: list, httpRoutes: httpRoutes(table) };
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const text = `${JSON.stringify(await operationsManifest(), null, 2)}\n`;
  if (values.out) {
    // Written whole, then renamed: a reader never sees half a file.
    const tmp = `${values.out}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, values.out);
  } else {
    // Flushed before the exit below (a pipe is written asynchronously).
    await new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
  }
}

// The server's modules may hold handles open (a pool, timers): the script ends when its output is written.
main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
