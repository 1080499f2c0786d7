// Multipart uploads from the dashboard, with progress. tRPC's fetch link cannot
// report upload progress, so forms post with XMLHttpRequest (upload.onprogress)
// to our own /api/upload/… route, which runs the REST endpoint as the signed-in
// member. Uploads ALWAYS go through that route so the server judges every file
// by its bytes (type) and size; when UploadThing storage is configured, it is
// used server-side behind that route, never directly from the browser.

import { REAUTH_CODE, requestReauthentication } from "@/components/reauth/store";

/** The server's default per-file limit (MAX_UPLOAD_BYTES); checked here only to answer sooner. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** What the dropzones offer; the server still sniffs the content. */
export const ACCEPTED_TYPES: Record<string, string[]> = {
  "application/pdf": [".pdf"],
  "image/png": [".png"],
  "image/jpeg": [".jpg", ".jpeg"],
};

export interface FieldError {
  path: string;
  message: string;
}

/** A refused upload: the problem+json answer (RFC 9457), or a network failure (status 0). */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly fieldErrors: FieldError[],
  ) {
    super(message);
    this.name = "UploadError";
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100 */
  percent: number;
}

/**
 * Posts the form with progress. Refused for want of a recent password
 * (`reauthentication_required`), it asks the user (components/reauth) and
 * sends the same form again once they confirm.
 */
export async function uploadWithProgress<T>(options: Parameters<typeof sendOnce>[0]): Promise<T> {
  try {
    return await sendOnce<T>(options);
  } catch (err) {
    if (!(err instanceof UploadError) || err.code !== REAUTH_CODE) throw err;
    if (!(await requestReauthentication())) throw err;
    return sendOnce<T>(options);
  }
}

function sendOnce<T>({
  url,
  fields = {},
  files,
  onProgress,
  signal,
}: {
  url: string;
  fields?: Record<string, string>;
  files: Record<string, File>;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) form.append(name, file, file.name);

  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "text";
    xhr.setRequestHeader("Accept", "application/json, application/problem+json");
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable || !onProgress) return;
      onProgress({ loaded: e.loaded, total: e.total, percent: Math.min(100, Math.round((e.loaded / e.total) * 100)) });
    };
    xhr.onload = () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      reject(problemError(xhr.status, body));
    };
    xhr.onerror = () =>
      reject(new UploadError("The upload did not reach the server. Check your connection and try again.", 0, undefined, []));
    xhr.onabort = () => reject(new UploadError("Upload cancelled", 0, "aborted", []));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

const FALLBACK: Record<number, string> = {
  413: "The file is too large (10 MiB at most).",
  415: "Only PDF, PNG and JPEG files are accepted.",
};

function problemError(status: number, body: unknown): UploadError {
  const problem = (body ?? {}) as { detail?: unknown; code?: unknown; errors?: unknown };
  const errors = Array.isArray(problem.errors)
    ? problem.errors.filter((e): e is FieldError => typeof e?.path === "string" && typeof e?.message === "string")
    : [];
  const detail =
    typeof problem.detail === "string" ? problem.detail : (FALLBACK[status] ?? `The upload failed (HTTP ${status}).`);
  return new UploadError(detail, status, typeof problem.code === "string" ? problem.code : undefined, errors);
}

/** Field errors keyed by their first path segment ("file", "name", …), first message wins. */
export function errorsByField(err: UploadError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of err.fieldErrors) {
    const field = e.path.split(".")[0] ?? "";
    out[field] ??= capitalize(e.message);
  }
  return out;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
}
