// The dashboard's way into the REST upload endpoints: POST /api/upload/<path>
// runs the multipart endpoint at /api/v1/<path> — same parser, validation,
// service and answer — as the signed-in member instead of an API key. The
// browser sends the form with XMLHttpRequest so it can show upload progress,
// which tRPC's fetch link cannot. Only endpoints declared `multipart` are
// reachable here, and only from our own origin (a cross-site form cannot post
// a member's cookie into it).
import { getAuth } from "@/server/auth";
import type { Actor } from "@/server/actor";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { resolveActiveMembership, sessionActor } from "@/server/organizations/service";
import { requestIdOf } from "@/server/request-id";
import { errorResponse, jsonResponse, match, readBody, validate } from "./handler";

export const UPLOAD_PREFIX = "/api/upload";

function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const allowed = new Set([new URL(env.APP_URL).origin, new URL(request.url).origin]);
  if (!origin || !allowed.has(origin))
    throw new AppError("forbidden", "Uploads are accepted from the dashboard's own origin only");
}

/** The multipart endpoint at `path`; anything else is not found here (no 405: this route only ever takes uploads). */
function matchUpload(method: string, path: string) {
  try {
    const found = match(method, path);
    if (found.endpoint.multipart) return found;
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "method_not_allowed") throw err;
  }
  throw new AppError("not_found", `No upload at ${path}`);
}

export async function handleSessionUpload(request: Request): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request.headers);
  const headers = new Headers({ "X-Request-Id": requestId });
  const url = new URL(request.url);
  const path = url.pathname.slice(UPLOAD_PREFIX.length) || "/";
  let route: string | undefined;
  let response: Response;
  let organizationId: string | undefined;
  try {
    const session = await getAuth().api.getSession({ headers: request.headers });
    if (!session) throw new AppError("unauthenticated", "Sign in to upload files");
    assertSameOrigin(request);
    const { endpoint: ep, params } = matchUpload(request.method.toUpperCase(), path);
    route = ep.path;
    const member = await resolveActiveMembership(session.user.id, (session.user.activeOrganizationId as string | null) ?? null);
    if (!member) throw new AppError("forbidden", "You do not belong to any organization yet");
    organizationId = member.organizationId;
    const actor: Actor = await sessionActor(session.user.id, member, session.user.testMode === true);
    const body = await readBody(ep, request);
    const input = { params: validate(ep.params, params), query: undefined, body: validate(ep.body, body.value) };
    // Multipart endpoints act through `actor` only; none reads the key.
    const result = await ep.handler({
      ...(input as { params: never; query: never; body: never }),
      actor,
      key: undefined as never,
      request,
    });
    const status = ep.status ?? 200;
    response = jsonResponse(status, status === 204 ? null : JSON.stringify(result), headers);
  } catch (err) {
    response = errorResponse(err, requestId, headers, { method: request.method, path, route });
  }
  logger.info(
    {
      requestId,
      method: request.method,
      route: route ? `${UPLOAD_PREFIX}${route}` : url.pathname,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
      organizationId,
    },
    "request",
  );
  return response;
}
