// One error type for every rule a service enforces, and the one table that
// maps its code to an HTTP status (REST) and a tRPC code (dashboard).
export type TrpcCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_SUPPORTED"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNPROCESSABLE_CONTENT"
  | "TOO_MANY_REQUESTS"
  | "PAYMENT_REQUIRED"
  | "BAD_GATEWAY"
  | "SERVICE_UNAVAILABLE"
  | "TIMEOUT"
  | "CLIENT_CLOSED_REQUEST"
  | "INTERNAL_SERVER_ERROR";

const TABLE = {
  malformed_json: [400, "BAD_REQUEST", "Malformed JSON"],
  invalid_query: [400, "BAD_REQUEST", "Invalid query string"],
  invalid_path: [400, "BAD_REQUEST", "Invalid path"],
  malformed_multipart: [400, "BAD_REQUEST", "Malformed multipart body"],
  malformed_request: [400, "BAD_REQUEST", "Malformed HTTP request"],
  request_timeout: [408, "TIMEOUT", "Request timeout"],
  headers_too_large: [431, "BAD_REQUEST", "Request header fields too large"],
  // The client went away before its request was read whole: nobody receives this answer (nginx's 499).
  client_closed_request: [499, "CLIENT_CLOSED_REQUEST", "Client closed request"],
  missing_api_key: [401, "UNAUTHORIZED", "Missing API key"],
  invalid_api_key: [401, "UNAUTHORIZED", "Invalid API key"],
  revoked_api_key: [401, "UNAUTHORIZED", "Revoked API key"],
  unauthenticated: [401, "UNAUTHORIZED", "Sign in required"],
  insufficient_permissions: [403, "FORBIDDEN", "Insufficient permissions"],
  forbidden: [403, "FORBIDDEN", "Forbidden"],
  // The dashboard asks for the password or a two-factor code again (money moves, keys, roles): 10 minutes.
  reauthentication_required: [403, "FORBIDDEN", "Reauthentication required"],
  // The organization requires two-factor sign-in and this member has not set it up.
  two_factor_required: [403, "FORBIDDEN", "Two-factor sign-in required"],
  not_found: [404, "NOT_FOUND", "Not found"],
  method_not_allowed: [405, "METHOD_NOT_SUPPORTED", "Method not allowed"],
  conflict: [409, "CONFLICT", "Conflict"],
  invalid_state: [409, "CONFLICT", "Invalid state"],
  policy_inactive: [409, "CONFLICT", "Policy inactive"],
  payment_not_pending: [409, "CONFLICT", "Payment no longer pending"],
  kyb_not_approved: [409, "CONFLICT", "KYB not approved"],
  bank_account_not_verified: [409, "CONFLICT", "Bank account not verified"],
  insufficient_funds: [409, "CONFLICT", "Insufficient funds"],
  payout_exists: [409, "CONFLICT", "Payout already exists"],
  coverage_cancelled: [409, "CONFLICT", "Coverage cancelled"],
  currency_locked: [409, "CONFLICT", "Currency cannot change"],
  // A payment in another currency than its business's is never credited (left pending, logged for review).
  currency_mismatch: [409, "CONFLICT", "Currency mismatch"],
  provider_not_configured: [409, "CONFLICT", "Payment provider not configured"],
  test_mode_only: [409, "CONFLICT", "Test mode only"],
  amount_mismatch: [422, "UNPROCESSABLE_CONTENT", "Amount mismatch"],
  card_declined: [402, "PAYMENT_REQUIRED", "Card declined"],
  provider_error: [502, "BAD_GATEWAY", "Payment provider error"],
  already_member: [409, "CONFLICT", "Already a member"],
  invitation_pending: [409, "CONFLICT", "Invitation already pending"],
  invitation_limit_reached: [409, "CONFLICT", "Too many pending invitations"],
  attachment_limit: [409, "CONFLICT", "Attachment limit reached"],
  idempotency_in_progress: [409, "CONFLICT", "Idempotent request in progress"],
  payload_too_large: [413, "PAYLOAD_TOO_LARGE", "Payload too large"],
  unsupported_media_type: [415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type"],
  validation_failed: [422, "UNPROCESSABLE_CONTENT", "Validation failed"],
  idempotency_key_reused: [422, "UNPROCESSABLE_CONTENT", "Idempotency key reused"],
  rate_limited: [429, "TOO_MANY_REQUESTS", "Too many requests"],
  internal_error: [500, "INTERNAL_SERVER_ERROR", "Internal error"],
  // The database is saturated (no connection or transaction in time): shed, with Retry-After.
  service_unavailable: [503, "SERVICE_UNAVAILABLE", "Service unavailable"],
} as const satisfies Record<string, readonly [number, TrpcCode, string]>;

export type ErrorCode = keyof typeof TABLE;

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly extra: { errors?: FieldError[]; [key: string]: unknown } = {},
  ) {
    super(detail ?? TABLE[code][2]);
    this.name = "AppError";
  }
  get status(): number {
    return TABLE[this.code][0];
  }
  get trpcCode(): TrpcCode {
    return TABLE[this.code][1];
  }
  get title(): string {
    return TABLE[this.code][2];
  }
}

export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found`);

export function validationError(errors: FieldError[]): AppError {
  const detail = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join("; ");
  return new AppError("validation_failed", detail, { errors });
}

/** Prisma's unique-constraint violation, for turning races into 409s. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "P2002";
}

/**
 * The SQLSTATE of a PostgreSQL data exception (class 22: bad encoding, value
 * out of range, …) behind `err`, as Prisma's driver adapters (pg and PGlite
 * alike) report it in `meta.driverAdapterError.cause`, or a raw driver error.
 */
export function dataExceptionCode(err: unknown): string | null {
  for (let e = err, i = 0; typeof e === "object" && e !== null && i < 5; i++) {
    const o = e as {
      code?: unknown;
      meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } };
      cause?: unknown;
    };
    const adapter = o.meta?.driverAdapterError?.cause;
    for (const code of [adapter?.originalCode, adapter?.code, o.code]) {
      if (typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code)) return code;
    }
    e = o.cause;
  }
  return null;
}

/**
 * The AppError a thrown value answers as: itself, 422 for a database data
 * exception the input caused, else null (a bug: 500, logged by the caller).
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  // The client left mid-body (every route: REST, tRPC, checkout, portal): 499, an info line, not an error.
  if (isClientAbort(err)) return new AppError("client_closed_request");
  const sqlState = dataExceptionCode(err);
  if (sqlState) return new AppError("validation_failed", "A value in the request cannot be stored or compared");
  if (isDatabaseBusy(err)) return new AppError("service_unavailable", "We are busy right now: retry in a moment");
  return null;
}

/** What a 503 `service_unavailable` asks the client to wait (`Retry-After`, seconds). */
export const RETRY_AFTER_SECONDS = 2;

// Prisma: P2024 no pool connection in time, P2028 a transaction not started (or
// expired) in time, P1001/P1002 server unreachable or too slow, P1017 connection
// closed; PostgreSQL class 53 (too many connections, out of memory) and 57P03
// (starting up); node-postgres's pool timeout.
const BUSY_PRISMA = new Set(["P2024", "P2028", "P1001", "P1002", "P1017"]);
const BUSY_MESSAGE = /timeout exceeded when trying to connect|Unable to start a transaction in the given time/i;

/**
 * True when `err` says the database could not take the request in time (pool
 * exhausted, transaction not started), not that the request was wrong: the
 * answer is 503 with Retry-After, never 500.
 */
export function isDatabaseBusy(err: unknown): boolean {
  for (let e = err, i = 0; typeof e === "object" && e !== null && i < 5; i++) {
    const o = e as {
      code?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
      cause?: unknown;
    };
    if (typeof o.code === "string" && BUSY_PRISMA.has(o.code)) return true;
    const sqlState = o.meta?.driverAdapterError?.cause?.originalCode ?? o.code;
    if (typeof sqlState === "string" && /^(53[0-9A-Z]{3}|57P03)$/.test(sqlState)) return true;
    if (typeof o.message === "string" && BUSY_MESSAGE.test(o.message)) return true;
    e = o.cause;
  }
  return false;
}

/**
 * True when `err` is Node's error for a request whose client went away before
 * sending its whole body (`aborted`, ECONNRESET on the IncomingMessage) — an
 * event of the client's, not a fault of ours. Other ECONNRESETs (the database,
 * a provider) are not this.
 */
export function isClientAbort(err: unknown): boolean {
  for (let e = err, i = 0; typeof e === "object" && e !== null && i < 5; i++) {
    const o = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (o.code === "ECONNRESET" && o.message === "aborted") return true;
    e = o.cause;
  }
  return false;
}
