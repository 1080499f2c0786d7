// The dashboard's way to the export: GET /api/export?type=&format=&from=&to=&granularity=
// answers the same file as GET /api/v1/business/analytics/export — same query
// schema and 422s, same service — as the signed-in member in their active
// organization (resolved like the session uploads), instead of an API key.
// Any member may export: it is a read. A plain GET so that the browser
// downloads the file itself (a link, no script holding it in memory); a
// cross-site page can start that download but never read it
// (Cross-Origin-Resource-Policy, no CORS).
import type { Actor } from "@/server/actor";
import { getAuth } from "@/server/auth";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { resolveActiveMembership, sessionActor } from "@/server/organizations/service";
import { requestIdOf } from "@/server/request-id";
import { errorResponse, validate } from "@/server/rest/handler";
import { exportAnalytics } from "./export";
import { ExportQuery } from "@/lib/schemas/analytics";

export const EXPORT_ROUTE = "/api/export";

export async function handleSessionExport(request: Request): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request.headers);
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "no-store" });
  let response: Response;
  let organizationId: string | undefined;
  try {
    const session = await getAuth().api.getSession({ headers: request.headers });
    if (!session) throw new AppError("unauthenticated", "Sign in to export");
    const member = await resolveActiveMembership(session.user.id, (session.user.activeOrganizationId as string | null) ?? null);
    if (!member) throw new AppError("forbidden", "You do not belong to any organization yet");
    organizationId = member.organizationId;
    const actor: Actor = await sessionActor(session.user.id, member, session.user.testMode === true);
    const raw: Record<string, string> = {};
    for (const [k, v] of new URL(request.url).searchParams) raw[k] = v;
    const query = validate(ExportQuery, raw) as ExportQuery;
    response = await exportAnalytics(actor, query);
    for (const [name, value] of headers) response.headers.set(name, value);
    response.headers.set("Cross-Origin-Resource-Policy", "same-origin");
  } catch (err) {
    response = errorResponse(err, requestId, headers, { method: request.method, path: EXPORT_ROUTE });
  }
  logger.info(
    {
      requestId,
      method: request.method,
      route: EXPORT_ROUTE,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
      organizationId,
    },
    "request",
  );
  return response;
}
