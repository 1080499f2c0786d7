// The dashboard's way to a certificate: GET /api/coverages/{id}/certificate
// answers the same PDF as GET /api/v1/business/coverages/{id}/certificate, as
// the signed-in member in their active organization and dashboard mode
// (resolved like the session export), instead of an API key. A coverage of
// another organization or the other mode is the same 404 as an unknown id. A
// plain GET so that the browser downloads the file itself; a cross-site page
// can start that download but never read it (Cross-Origin-Resource-Policy, no CORS).
import type { Actor } from "@/server/actor";
import { getAuth } from "@/server/auth";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { resolveActiveMembership, sessionActor } from "@/server/organizations/service";
import { requestIdOf } from "@/server/request-id";
import { errorResponse } from "@/server/rest/handler";
import { certificateResponse, coverageCertificate } from "./certificate";

export const CERTIFICATE_ROUTE = "/api/coverages/{id}/certificate";

export async function handleSessionCertificate(request: Request, coverageId: string): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request.headers);
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "private, no-store" });
  let response: Response;
  let organizationId: string | undefined;
  try {
    const session = await getAuth().api.getSession({ headers: request.headers });
    if (!session) throw new AppError("unauthenticated", "Sign in to download certificates");
    if (!/^[\w-]{1,100}$/.test(coverageId)) throw new AppError("not_found", "Coverage not found");
    const member = await resolveActiveMembership(session.user.id, (session.user.activeOrganizationId as string | null) ?? null);
    if (!member) throw new AppError("not_found", "Coverage not found");
    organizationId = member.organizationId;
    const actor: Actor = await sessionActor(session.user.id, member, session.user.testMode === true);
    response = certificateResponse(await coverageCertificate(actor, coverageId), headers);
    response.headers.set("Cross-Origin-Resource-Policy", "same-origin");
  } catch (err) {
    response = errorResponse(err, requestId, headers, { method: request.method, path: CERTIFICATE_ROUTE });
  }
  logger.info(
    {
      requestId,
      method: request.method,
      route: CERTIFICATE_ROUTE,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
      organizationId,
    },
    "request",
  );
  return response;
}
