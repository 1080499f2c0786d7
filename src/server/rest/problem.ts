// RFC 9457 problem details, the body of every REST error.
import type { z } from "zod";
import { AppError, type FieldError } from "@/server/errors";

export function problemResponse(err: AppError, requestId: string, headers: Headers): Response {
  const { errors, ...extra } = err.extra;
  const body = {
    type: `https://coverdesk.dev/errors/${err.code}`,
    title: err.title,
    status: err.status,
    code: err.code,
    detail: err.message,
    requestId,
    ...extra,
    ...(errors ? { errors } : {}),
  };
  headers.set("Content-Type", "application/problem+json; charset=utf-8");
  return new Response(JSON.stringify(body), { status: err.status, headers });
}

/** Zod issues as field errors, with a plain "is required" for missing fields. */
export function fieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    const missing = issue.code === "invalid_type" && /received undefined$/.test(issue.message);
    return { path, message: missing ? "is required" : issue.message };
  });
}
