// The one place a failure becomes an answer: a refusal (AppError, a database
// error the input caused, a client that left) keeps its code; anything else is
// logged and answers `internal_error` with the request id, never its detail.
import { AppError, isClientAbort, RETRY_AFTER_SECONDS, toAppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { problemResponse } from "@/server/rest/problem";

/** The ONE answer to a failure that is not a refusal: a generic message with the request id (the detail goes to the log). */
export function internalError(requestId: string): AppError {
  return new AppError("internal_error", `Something went wrong on our side. Quote ${requestId} when you contact support.`);
}

/** Any failure as problem+json: a refusal keeps its code, anything else is logged and answers `internal_error`. */
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
    // A limit that says when to come back (the portal's code and sign-in limits).
    if (typeof app.extra.retryAfterSeconds === "number") headers.set("Retry-After", String(app.extra.retryAfterSeconds));
    if (app.code === "method_not_allowed" && typeof app.extra.allow === "string") {
      headers.set("Allow", app.extra.allow);
      const { allow: _allow, ...rest } = app.extra;
      return problemResponse(new AppError(app.code, app.message, rest), requestId, headers);
    }
    return problemResponse(app, requestId, headers);
  }
  logger.error({ err, requestId, ...where }, "unhandled error");
  return problemResponse(internalError(requestId), requestId, headers);
}
