// RFC 9457 problem details, the body of every REST error.
import type { z } from "zod";
import { AppError, type FieldError } from "@/server/errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json; charset=utf-8";

/**
 * The members of an AppError's `extra` a client may see beside `errors`, at
 * the top level of a problem (REST) and in `data` (tRPC). Anything else in
 * `extra` (the Allow header's value, internal details) stays on the server.
 */
export interface PublicExtra {
  /** A wrong bank account verification code: tries left. */
  attemptsRemaining?: number;
}
const PUBLIC_EXTRA: (keyof PublicExtra)[] = ["attemptsRemaining"];

export function publicExtra(err: AppError): PublicExtra {
  return Object.fromEntries(PUBLIC_EXTRA.filter((k) => err.extra[k] !== undefined).map((k) => [k, err.extra[k]])) as PublicExtra;
}

/** The JSON text of the problem details for `err`. */
export function problemBody(err: AppError, requestId: string): string {
  const { errors } = err.extra;
  const extra = publicExtra(err);
  return JSON.stringify({
    type: `https://coverdesk.dev/errors/${err.code}`,
    title: err.title,
    status: err.status,
    code: err.code,
    detail: err.message,
    requestId,
    ...extra,
    ...(errors ? { errors } : {}),
  });
}

export function problemResponse(err: AppError, requestId: string, headers: Headers): Response {
  headers.set("Content-Type", PROBLEM_CONTENT_TYPE);
  return new Response(problemBody(err, requestId), { status: err.status, headers });
}

/** Zod issues as field errors; their messages come from src/lib/messages.ts. */
export function fieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
}
