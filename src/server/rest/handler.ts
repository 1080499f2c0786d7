// The REST API as one plain function, `(Request) => Promise<Response>`, free
// of Next so it can be mounted anywhere. Checks run in the contract's order:
// 401 key → 404/405 route → 403 permission → 400 body/query → 413/415/422
// input → (service) 404 record → 409 state.
import { M } from "@/lib/messages";
import type { z } from "zod";
import { assertKeyPermits } from "@/server/actor";
import { recordApiRequest } from "@/server/analytics/metering";
import { authenticateApiKey, keyActor, type AuthenticatedKey } from "@/server/api-keys/service";
import { env } from "@/server/env";
import { AppError, isClientAbort, RETRY_AFTER_SECONDS, toAppError } from "@/server/errors";
import { readMultipart } from "@/server/files/multipart";
import { assertDeclaredLength, readJson } from "@/server/http/body";
import { logger } from "@/server/logger";
import { decodeCursor } from "@/server/pagination";
import { requestIdOf } from "@/server/request-id";
import { assertSafeInput } from "@/server/text";
import { wakeWorker } from "@/server/webhooks/worker";
import type { AnyEndpoint } from "./endpoint";
import { endpoints } from "./endpoints";
import { requestHash, runIdempotently } from "./idempotency";
import { openApiDocument } from "./openapi";
import { fieldErrors, PROBLEM_CONTENT_TYPE, problemBody, problemResponse } from "./problem";
import { consumeRateLimit, rateLimitHeaders } from "./rate-limit";
import { responseMismatches } from "./response-check";
import { createRouter } from "./router";

export const API_PREFIX = "/api/v1";
export const match = createRouter(endpoints);

function bearer(request: Request): string {
  const header = request.headers.get("authorization");
  if (!header) throw new AppError("missing_api_key", "Send your API key as `Authorization: Bearer <key>`");
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw new AppError("invalid_api_key", "The Authorization header must be `Bearer <key>`");
  return m[1];
}

function parseQuery(ep: AnyEndpoint, url: URL): unknown {
  if (!ep.query) return undefined;
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) raw[k] = v;
  assertSafeInput(raw);
  const parsed = (ep.query as z.ZodType).safeParse(raw);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    throw new AppError(ep.queryError ?? "invalid_query", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
  const cursor = (parsed.data as { cursor?: string }).cursor;
  if (cursor !== undefined && !decodeCursor(cursor)) {
    throw new AppError("invalid_query", "cursor: is not a cursor from this API", {
      errors: [{ path: "cursor", message: M.cursor }],
    });
  }
  return parsed.data;
}

export async function readBody(ep: AnyEndpoint, request: Request): Promise<{ raw: string; value: unknown }> {
  if (ep.multipart) {
    const { fields, files } = await readMultipart(request, { files: ep.multipart.files, maxFileBytes: env.MAX_UPLOAD_BYTES });
    // What an Idempotency-Key is compared on: the fields and each file's digest.
    const raw = JSON.stringify({ fields, files: Object.fromEntries(Object.entries(files).map(([k, f]) => [k, f.sha256])) });
    return { raw, value: { ...fields, ...files } };
  }
  assertDeclaredLength(request, env.API_MAX_BODY_BYTES);
  if (!ep.body) return { raw: "", value: undefined };
  return readJson(request, env.API_MAX_BODY_BYTES, { allowEmpty: true });
}

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

export async function handleRestRequest(request: Request): Promise<Response> {
  const started = performance.now();
  const startedAt = new Date();
  const requestId = requestIdOf(request.headers);
  const headers = new Headers({ "X-Request-Id": requestId });
  const url = new URL(request.url);
  const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) || "/" : url.pathname;
  // HEAD is GET without the body (the runtime drops it).
  const method = request.method.toUpperCase() === "HEAD" ? "GET" : request.method.toUpperCase();
  let route: string | undefined;
  let key: AuthenticatedKey | undefined;
  let status = 500;
  let response: Response;

  try {
    if (path === "/openapi.json" && method === "GET") {
      route = "/openapi.json";
      headers.set("Cache-Control", "public, max-age=300");
      response = jsonResponse(200, JSON.stringify(openApiDocument()), headers);
    } else {
      key = await authenticateApiKey(bearer(request));
      // One limit per organization over its keys of both modes.
      const limit = await consumeRateLimit(key.accountId, key.rateLimit);
      rateLimitHeaders(headers, limit);
      if (!limit.allowed) {
        headers.set("Retry-After", String(limit.resetSeconds));
        throw new AppError("rate_limited", `Over ${limit.limit} requests per minute; retry in ${limit.resetSeconds} s`);
      }
      const { endpoint: ep, params } = match(method, path);
      route = ep.path;
      assertKeyPermits(key, ep.permission);
      const query = parseQuery(ep, url);
      const body = await readBody(ep, request);
      const input = {
        params: validate(ep.params, params),
        query,
        body: validate(ep.body, body.value),
      };
      response = await run(ep, key, request, input, body.raw, headers);
    }
  } catch (err) {
    response = errorResponse(err, requestId, headers, { method, path, route });
  }
  status = response.status;
  const durationMs = performance.now() - started;
  // A change answered: its events are committed, deliver them now.
  if (method !== "GET" && status < 400) wakeWorker();
  // Metered once the key is known (a request without a valid key belongs to no organization).
  if (key) {
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
      organizationId: key?.organizationId,
    },
    "request",
  );
  return response;
}

async function run(
  ep: AnyEndpoint,
  key: AuthenticatedKey,
  request: Request,
  input: { params: unknown; query: unknown; body: unknown },
  rawBody: string,
  headers: Headers,
): Promise<Response> {
  const actor = keyActor(key);
  const call = async (): Promise<{ status: number; body: string | null; file?: Response }> => {
    const result = await ep.handler({ ...(input as { params: never; query: never; body: never }), actor, key, request });
    if (result instanceof Response) return { status: result.status, body: null, file: result };
    const status = ep.status ?? 200;
    const body = status === 204 ? null : JSON.stringify(result);
    if (env.VALIDATE_RESPONSES && ep.response && body !== null) {
      // Tests only: an answer that breaks its published schema fails the request.
      const issues = responseMismatches(ep.response, body);
      if (issues.length > 0) {
        logger.error({ route: ep.path, operationId: ep.operationId, issues }, "response does not match its schema");
        throw new Error(`${ep.operationId} answered a body that does not match its response schema`);
      }
    }
    return { status, body };
  };

  const idemKey = request.method === "POST" ? request.headers.get("idempotency-key") : null;
  if (idemKey === null || ep.file) {
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
  // The work, the answer stored under the key and nothing else commit together (see idempotency.ts).
  const hash = requestHash(request.method, new URL(request.url).pathname, rawBody);
  const outcome = await runIdempotently(key.organizationId, idemKey, hash, async () => {
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
 * `CRASH_AFTER_COMMIT_FOR_TESTS=<Idempotency-Key>` the process kills itself
 * (SIGKILL) right after the request carrying that key has committed, before
 * it answers — the crash that idempotency must survive. Ignored unless
 * VALIDATE_RESPONSES is on (itself tests-only) and the key starts with
 * `crash-after-commit-`, so it cannot act in production by accident.
 */
function crashAfterCommitForTests(idemKey: string) {
  const k = process.env.CRASH_AFTER_COMMIT_FOR_TESTS;
  if (k && env.VALIDATE_RESPONSES && k === idemKey && k.startsWith("crash-after-commit-")) {
    logger.warn({ idempotencyKey: idemKey }, "CRASH_AFTER_COMMIT_FOR_TESTS: killing this process after the commit");
    process.kill(process.pid, "SIGKILL");
  }
}

export function errorResponse(
  err: unknown,
  requestId: string,
  headers: Headers,
  where: { method: string; path: string; route?: string },
) {
  // The client left mid-body: its event, not our fault — the request's own info line (status 499) says so.
  if (isClientAbort(err)) return problemResponse(new AppError("client_closed_request"), requestId, headers);
  const app = toAppError(err);
  if (app) {
    if (app.code === "service_unavailable") {
      // The database is saturated (no free connection in time): shed, the client retries.
      headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
      logger.warn({ err, requestId, ...where }, "database busy: request shed with 503");
    } else if (app !== err) logger.warn({ err, requestId, ...where }, "the database refused a value of the request");
    if (app.code === "method_not_allowed" && typeof app.extra.allow === "string") {
      headers.set("Allow", app.extra.allow);
      const { allow: _allow, ...rest } = app.extra;
      return problemResponse(new AppError(app.code, app.message, rest), requestId, headers);
    }
    return problemResponse(app, requestId, headers);
  }
  logger.error({ err, requestId, ...where }, "unhandled error");
  return problemResponse(
    new AppError("internal_error", `Something went wrong on our side. Quote ${requestId} when you contact support.`),
    requestId,
    headers,
  );
}
