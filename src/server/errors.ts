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
  | "INTERNAL_SERVER_ERROR";

const TABLE = {
  malformed_json: [400, "BAD_REQUEST", "Malformed JSON"],
  invalid_query: [400, "BAD_REQUEST", "Invalid query string"],
  invalid_path: [400, "BAD_REQUEST", "Invalid path"],
  malformed_multipart: [400, "BAD_REQUEST", "Malformed multipart body"],
  missing_api_key: [401, "UNAUTHORIZED", "Missing API key"],
  invalid_api_key: [401, "UNAUTHORIZED", "Invalid API key"],
  revoked_api_key: [401, "UNAUTHORIZED", "Revoked API key"],
  unauthenticated: [401, "UNAUTHORIZED", "Sign in required"],
  insufficient_permissions: [403, "FORBIDDEN", "Insufficient permissions"],
  forbidden: [403, "FORBIDDEN", "Forbidden"],
  not_found: [404, "NOT_FOUND", "Not found"],
  method_not_allowed: [405, "METHOD_NOT_SUPPORTED", "Method not allowed"],
  conflict: [409, "CONFLICT", "Conflict"],
  invalid_state: [409, "CONFLICT", "Invalid state"],
  policy_inactive: [409, "CONFLICT", "Policy inactive"],
  payment_not_pending: [409, "CONFLICT", "Payment no longer pending"],
  kyb_not_approved: [409, "CONFLICT", "KYB not approved"],
  bank_account_not_verified: [409, "CONFLICT", "Bank account not verified"],
  insufficient_funds: [409, "CONFLICT", "Insufficient funds"],
  currency_locked: [409, "CONFLICT", "Currency cannot change"],
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
  const sqlState = dataExceptionCode(err);
  if (sqlState) return new AppError("validation_failed", "A value in the request cannot be stored or compared");
  return null;
}
