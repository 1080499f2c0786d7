// The portal's calls to /api/portal/<organizationId>/…: JSON in and out,
// problem+json errors turned into an UploadError (message, status, field errors).
import { UploadError, type FieldError } from "@/components/upload/xhr-upload";

export async function portalCall<T>(path: string, init: { method: "GET" | "POST" | "PUT" | "DELETE"; body?: unknown }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method,
      headers: init.body === undefined ? {} : { "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new UploadError("We could not reach the server. Check your connection and try again.", 0, undefined, []);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (res.ok) return body as T;
  const p = (body ?? {}) as { detail?: unknown; code?: unknown; errors?: unknown };
  const errors = Array.isArray(p.errors) ? (p.errors as FieldError[]).filter((e) => typeof e?.path === "string") : [];
  throw new UploadError(
    typeof p.detail === "string" ? p.detail : `Something went wrong (HTTP ${res.status}). Try again.`,
    res.status,
    typeof p.code === "string" ? p.code : undefined,
    errors,
  );
}

export const portalButton =
  "bg-[var(--portal-accent)] text-[var(--portal-on-accent)] hover:bg-[var(--portal-accent)] hover:opacity-90 disabled:bg-[var(--portal-accent)] disabled:opacity-60";
