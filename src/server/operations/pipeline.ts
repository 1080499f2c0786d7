// The ONE HTTP pipeline, `(Request) => Promise<Response>`, free of Next: every
// route of the table — the REST API under /api/v1, the dashboard's uploads
// under /api/upload, the app's own routes (/api/files, /api/export, …) — runs
//   route → authenticate (the binding's auth kinds) → Actor → rate limit (keys)
//   → permission → parse (query, body, params) → handler (the service) → answer
// and any failure answers RFC 9457 problem+json with the request id. The
// REST API authenticates before it routes (the contract: 401 before 404/405).
import { M } from "@/lib/messages";
import type { z } from "zod";
import { assertKeyPermits } from "@/server/actor";
import { requirePlatformAdmin } from "@/server/admin/service";
import { recordApiRequest } from "@/server/analytics/metering";
import { keyActor, type AuthenticatedKey } from "@/server/api-keys/service";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { isMultipart, readMultipart } from "@/server/files/multipart";
import { assertDeclaredLength, readJson } from "@/server/http/body";
import { logger } from "@/server/logger";
import { decodeCursor } from "@/server/pagination";
import { requestIdOf } from "@/server/request-id";
import { withAuditContext } from "@/server/audit/record";
import { auditorOfPrincipal } from "@/server/audit/who";
import { requestHash, runIdempotently } from "@/server/rest/idempotency";
import { admitWrite, assertNotBehind, behindBy } from "./admission";
import { readBacklogMs } from "@/server/http-guard";
import { countWorking } from "./busy";
import { openApiDocument } from "@/server/rest/openapi";
import { fieldErrors, PROBLEM_CONTENT_TYPE, problemBody } from "@/server/rest/problem";
import { responseMismatches } from "@/server/rest/response-check";
import { assertSafeInput } from "@/server/text";
import { wakeJobs } from "@/server/jobs/wake";
import { assertRecentAuthFor, assertSameOrigin, authenticateKey, memberActor, sessionUser } from "./auth";
import { errorResponse } from "./failure";
import { operations } from "./index";
import type { AnyOperation, AuthKind, HttpShape, Principal } from "./operation";
import { portalPrincipal } from "./portal";
import { createRouter } from "./router";

export const API_PREFIX = "/api/v1";
export const UPLOAD_PREFIX = "/api/upload";

type Shape = HttpShape<z.ZodObject | undefined, z.ZodType | undefined, z.ZodType | undefined, unknown, unknown>;

/** One way to reach an operation over HTTP. */
export interface Binding {
  op: AnyOperation;
  surface: "rest" | "upload" | "app";
  method: string;
  /** The router's pattern: under /api/v1 for `rest`, the full path otherwise. */
  path: string;
  shape: Shape;
  auth: readonly AuthKind[];
  /** The answer's schema, checked in tests (VALIDATE_RESPONSES). */
  response?: z.ZodType;
  file: boolean;
  idempotent: boolean;
  sameOrigin: boolean;
  headers: Record<string, string>;
}

function bindingsOf(ops: readonly AnyOperation[]) {
  const rest: Binding[] = [];
  const app: Binding[] = [];
  for (const op of ops) {
    if (op.rest) {
      const r = op.rest;
      const common = {
        op,
        method: r.method,
        shape: r,
        response: r.status === 204 ? undefined : (r.response ?? op.output),
        file: !!r.file,
        headers: {},
      };
      rest.push({
        ...common,
        surface: "rest",
        path: r.path,
        auth: ["apiKey"],
        idempotent: r.idempotent !== false,
        sameOrigin: false,
      });
      if (r.upload) {
        // The dashboard's upload with progress: the same endpoint as the signed-in member.
        app.push({
          ...common,
          surface: "upload",
          path: `${UPLOAD_PREFIX}${r.path}`,
          auth: ["session"],
          idempotent: false,
          sameOrigin: true,
        });
      }
    }
    if (op.http) {
      const h = op.http;
      app.push({
        op,
        surface: "app",
        method: h.method,
        path: h.path,
        shape: h,
        auth: h.auth ?? op.auth,
        response: h.status === 204 ? undefined : op.output,
        file: false,
        idempotent: false,
        sameOrigin: h.sameOrigin ?? op.kind === "mutation",
        headers: h.headers ?? {},
      });
    }
  }
  return { rest, app };
}

const bindings = bindingsOf(operations);
/** The REST API's bindings, in the order of the API reference. */
export const restBindings = bindings.rest;
const matchRest = createRouter(bindings.rest);
const matchApp = createRouter(bindings.app);

function parseQuery(shape: Shape, url: URL): unknown {
  if (!shape.query) return undefined;
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) raw[k] = v;
  assertSafeInput(raw);
  const parsed = (shape.query as z.ZodType).safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    throw new AppError(shape.queryError ?? "invalid_query", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  const cursor = (parsed.data as { cursor?: string }).cursor;
  if (cursor !== undefined && !decodeCursor(cursor)) {
    throw new AppError("invalid_query", "cursor: is not a cursor from this API", {
      errors: [{ path: "cursor", message: M.cursor }],
    });
  }
  return parsed.data;
}

/** The request's body and the schema that judges it: the form's for a multipart upload, else `body`'s (JSON). */
async function readBody(shape: Shape, request: Request): Promise<{ raw: string; value: unknown; schema: z.ZodType | undefined }> {
  // A binding taking both (multipart.form) reads a form only when one is sent.
  if (shape.multipart && (!shape.multipart.form || isMultipart(request))) {
    const { fields, files } = await readMultipart(request, { files: shape.multipart.files, maxFileBytes: env.MAX_UPLOAD_BYTES });
    // What an Idempotency-Key is compared on: the fields and each file's digest.
    const raw = JSON.stringify({ fields, files: Object.fromEntries(Object.entries(files).map(([k, f]) => [k, f.sha256])) });
    return { raw, value: { ...fields, ...files }, schema: shape.multipart.form ?? shape.body };
  }
  const limit = shape.maxBodyBytes ?? env.API_MAX_BODY_BYTES;
  assertDeclaredLength(request, limit);
  if (!shape.body) return { raw: "", value: undefined, schema: undefined };
  return { ...(await readJson(request, limit, { allowEmpty: !shape.bodyRequired })), schema: shape.body };
}

/** The string rule of text.ts over the raw value, then the schema (422 with `errors` per field). */
export function validate(schema: z.ZodType | undefined, value: unknown, prefix?: string): unknown {
  if (!schema) return undefined;
  assertSafeInput(value, prefix);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const errors = fieldErrors(parsed.error, prefix);
  throw new AppError("validation_failed", errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join("; "), {
    errors,
  });
}

export function jsonResponse(status: number, body: string | null, headers: Headers): Response {
  if (body !== null) headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(body, { status, headers });
}

const UNAUTHENTICATED: Partial<Record<AuthKind, string>> = {
  session: "Sign in to continue",
  user: "Sign in, or send an API key as `Authorization: Bearer <key>`",
};

/** The caller, by the first of the binding's auth kinds the request carries. */
async function authenticate(
  b: Binding,
  request: Request,
  headers: Headers,
  params: Record<string, string>,
  onKey: (key: AuthenticatedKey) => void,
): Promise<Principal> {
  const kinds = b.auth;
  if (kinds.includes("apiKey") && (request.headers.has("authorization") || kinds.length === 1)) {
    const key = await authenticateKey(request, headers);
    onKey(key);
    assertKeyPermits(key, b.op.permission);
    return { auth: "apiKey", actor: keyActor(key), key };
  }
  if (kinds.includes("session") || kinds.includes("user") || kinds.includes("platformAdmin")) {
    const user = await sessionUser(request.headers);
    if (!user) {
      const kind = kinds.find((k) => UNAUTHENTICATED[k]) ?? "session";
      throw new AppError("unauthenticated", kinds.includes("apiKey") ? UNAUTHENTICATED.user : UNAUTHENTICATED[kind]);
    }
    if (b.sameOrigin) assertSameOrigin(request);
    if (kinds.includes("platformAdmin")) return { auth: "platformAdmin", user, admin: await requirePlatformAdmin(user.id) };
    if (kinds.includes("session")) return { auth: "session", actor: await memberActor(user), user };
    return { auth: "user", user };
  }
  if (b.sameOrigin) assertSameOrigin(request);
  if (kinds.includes("portal") || kinds.includes("portalVisitor")) return portalPrincipal(request, params, kinds);
  if (kinds.includes("payment")) return { auth: "payment" };
  if (kinds.includes("public")) return { auth: "public" };
  throw new AppError("not_found", "Not found");
}

/** The REST API (/api/v1): API keys only, the key checked before the route. */
export function handleRestRequest(request: Request): Promise<Response> {
  return handle(request, "rest");
}

/** Every other route of the table (/api/upload/…, /api/files/…, /api/export, …). */
export function handleAppRequest(request: Request): Promise<Response> {
  return handle(request, "app");
}

function handle(request: Request, surface: "rest" | "app"): Promise<Response> {
  return countWorking(() => handleCounted(request, surface));
}

async function handleCounted(request: Request, surface: "rest" | "app"): Promise<Response> {
  const started = performance.now();
  const startedAt = new Date();
  const backlogMs = surface === "rest" ? readBacklogMs(request) : 0;
  const requestId = requestIdOf(request.headers);
  const headers = new Headers({ "X-Request-Id": requestId });
  const url = new URL(request.url);
  const path =
    surface === "rest" && url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) || "/" : url.pathname;
  // HEAD is GET without the body (the runtime drops it).
  const method = request.method.toUpperCase() === "HEAD" ? "GET" : request.method.toUpperCase();
  let route: string | undefined;
  let key: AuthenticatedKey | undefined;
  let principal: Principal | undefined;
  let response: Response;

  try {
    if (surface === "rest" && path === "/openapi.json" && method === "GET") {
      route = "/openapi.json";
      headers.set("Cache-Control", "public, max-age=300");
      response = jsonResponse(200, JSON.stringify(openApiDocument()), headers);
    } else {
      let found;
      // A write that reached a process already WRITE_QUEUE_MS behind its arrivals is shed first (admission.ts).
      const behindMs = surface === "rest" && method !== "GET" ? behindBy(backlogMs) : 0;
      assertNotBehind(behindMs);
      if (surface === "rest") {
        // 401 and 429 come before the route (404/405), as the contract orders them.
        key = await authenticateKey(request, headers);
        found = matchRest(method, path);
        principal = { auth: "apiKey", actor: keyActor(key), key };
        assertKeyPermits(key, found.endpoint.op.permission);
      } else {
        found = matchApp(method, path);
        for (const [name, value] of Object.entries(found.endpoint.headers)) headers.set(name, value);
        principal = await authenticate(found.endpoint, request, headers, found.params, (k) => (key = k));
      }
      const b = found.endpoint;
      route = b.path;
      await assertRecentAuthFor(b.op, principal);
      const query = parseQuery(b.shape, url);
      const body = await readBody(b.shape, request);
      // Path parameters without a schema are passed on as they are, after the string rule.
      if (!b.shape.params) assertSafeInput(found.params);
      const parts = {
        params: validate(b.shape.params, found.params) ?? found.params,
        query,
        body: validate(body.schema, body.value),
      };
      // REST writes are admitted a few at a time (a burst past them is shed with 503, see admission.ts); their
      // time in the queue counts from their arrival: the request's start here, less how far behind it the
      // process read its head.
      response =
        surface === "rest" && method !== "GET"
          ? await admitWrite(() => run(b, principal!, request, parts, body.raw, headers), started - behindMs)
          : await run(b, principal, request, parts, body.raw, headers);
    }
  } catch (err) {
    response = errorResponse(err, requestId, headers, { method, path, route });
  }
  const status = response.status;
  const durationMs = performance.now() - started;
  // A change answered: its events are committed, deliver them now.
  if (method !== "GET" && status < 400) wakeJobs();
  // Metered once the key is known (a request without a valid key belongs to no organization).
  if (key && surface === "rest") {
    recordApiRequest({
      organizationId: key.organizationId,
      apiKeyId: key.id,
      method,
      route: route ?? "(unmatched)",
      status,
      durationMs,
      at: startedAt,
    });
  }
  logger.info(
    {
      requestId,
      method,
      route: route ?? path,
      status,
      durationMs: Math.round(durationMs),
      // How long its head waited to be read after the connection was accepted, when that was noticeable.
      ...(backlogMs >= 1 ? { backlogMs: Math.round(backlogMs) } : {}),
      organizationId: principal && "actor" in principal ? principal.actor.organizationId : key?.organizationId,
    },
    "request",
  );
  return response;
}

function inputOf(shape: Shape, parts: { params: unknown; query: unknown; body: unknown }): unknown {
  if (shape.input) return shape.input(parts as never);
  const obj = (v: unknown) => (v && typeof v === "object" ? v : {});
  return { ...obj(parts.params), ...obj(parts.query), ...obj(parts.body) };
}

async function run(
  b: Binding,
  principal: Principal,
  request: Request,
  parts: { params: unknown; query: unknown; body: unknown },
  rawBody: string,
  headers: Headers,
): Promise<Response> {
  const call = async (): Promise<{ status: number; body: string | null; file?: Response }> => {
    const handle = () => b.op.handler({ ...principal, input: inputOf(b.shape, parts), request, headers });
    // The audit entries the handler's changes write name this caller (src/server/audit/record.ts).
    const who = auditorOfPrincipal(principal, request, headers.get("X-Request-Id"));
    const result = await (who ? withAuditContext(who, handle) : handle());
    if (result instanceof Response) return { status: result.status, body: null, file: result };
    const status = b.shape.status ?? 200;
    const answer = b.shape.answer ? b.shape.answer(result) : result;
    const body = status === 204 ? null : JSON.stringify(answer);
    if (env.VALIDATE_RESPONSES && b.response && body !== null) {
      // Tests only: an answer that breaks its published schema fails the request.
      const issues = responseMismatches(b.response, body);
      if (issues.length > 0) {
        logger.error({ route: b.path, operation: b.op.name, issues }, "response does not match its schema");
        throw new Error(`${b.op.name} answered a body that does not match its response schema`);
      }
    }
    return { status, body };
  };

  const idemKey =
    request.method === "POST" && b.idempotent && principal.auth === "apiKey" ? request.headers.get("idempotency-key") : null;
  if (idemKey === null || b.file || principal.auth !== "apiKey") {
    const r = await call();
    if (r.file) {
      for (const [name, value] of headers) r.file.headers.set(name, value);
      return r.file;
    }
    return jsonResponse(r.status, r.body, headers);
  }
  if (idemKey.length === 0 || idemKey.length > 255) {
    throw new AppError("validation_failed", "Idempotency-Key: must be 1 to 255 characters", {
      errors: [{ path: "Idempotency-Key", message: "Use 1 to 255 characters" }],
    });
  }
  // The work, the answer stored under the key and nothing else commit together (see rest/idempotency.ts).
  const hash = requestHash(request.method, new URL(request.url).pathname, rawBody);
  const outcome = await runIdempotently(principal.key.organizationId, idemKey, hash, async () => {
    try {
      const r = await call();
      return { status: r.status, body: r.body ?? "" };
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        // A refusal is the answer to this request: replay it like a success.
        return { status: err.status, body: problemBody(err, headers.get("X-Request-Id")!) };
      }
      throw err; // rolled back, nothing stored: the client may retry
    }
  });
  if (outcome.replayed) headers.set("Idempotent-Replayed", "true");
  else crashAfterCommitForTests(idemKey);
  if (outcome.status >= 400) {
    headers.set("Content-Type", PROBLEM_CONTENT_TYPE);
    return new Response(outcome.body, { status: outcome.status, headers });
  }
  return jsonResponse(outcome.status, outcome.status === 204 ? null : outcome.body, headers);
}

/**
 * TESTS ONLY (e2e/api/idempotency-crash.spec.ts): with
 * `CRASH_AFTER_COMMIT_FOR_TESTS=<Idempotency-Key,…>` the process kills itself
 * (SIGKILL) right after the request carrying that key has committed, before
 * it answers — the crash that idempotency must survive. Ignored unless
 * VALIDATE_RESPONSES is on (itself tests-only) and the key starts with
 * `crash-after-commit-`, so it cannot act in production by accident.
 */
function crashAfterCommitForTests(idemKey: string) {
  const keys = (process.env.CRASH_AFTER_COMMIT_FOR_TESTS ?? "").split(",");
  if (env.VALIDATE_RESPONSES && keys.includes(idemKey) && idemKey.startsWith("crash-after-commit-")) {
    logger.warn({ idempotencyKey: idemKey }, "CRASH_AFTER_COMMIT_FOR_TESTS: killing this process after the commit");
    process.kill(process.pid, "SIGKILL");
  }
}
