// GET /api/files/{id} — a stored file, to whoever may open it: an API key of
// the owning organization (Bearer), or a signed-in member of it (session
// cookie), or a platform admin for KYB documents. Anyone else gets the same
// 404 as an unknown id. Served with the type judged at upload, nosniff, and
// never cached by shared caches.
import type { StoredFile } from "@/generated/prisma/client";
import { isPlatformAdmin } from "@/server/admin/service";
import { authenticateApiKey } from "@/server/api-keys/service";
import { getAuth } from "@/server/auth";
import { AppError, toAppError } from "@/server/errors";
import { logger } from "@/server/logger";
import { requestIdOf } from "@/server/request-id";
import { problemResponse } from "@/server/rest/problem";
import { consumeRateLimit, rateLimitHeaders } from "@/server/rest/rate-limit";
import { contentDisposition } from "./file-name";
import { openFile, type FileAccess } from "./service";

async function accessOf(request: Request, headers: Headers): Promise<FileAccess> {
  const authorization = request.headers.get("authorization");
  if (authorization) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m?.[1]) throw new AppError("invalid_api_key", "The Authorization header must be `Bearer <key>`");
    const key = await authenticateApiKey(m[1]);
    const limit = await consumeRateLimit(key.accountId, key.rateLimit);
    rateLimitHeaders(headers, limit);
    if (!limit.allowed) {
      headers.set("Retry-After", String(limit.resetSeconds));
      throw new AppError("rate_limited", `Over ${limit.limit} requests per minute; retry in ${limit.resetSeconds} s`);
    }
    return { organizationId: key.organizationId, accountId: key.accountId };
  }
  const session = await getAuth().api.getSession({ headers: request.headers });
  if (!session) throw new AppError("unauthenticated", "Sign in, or send an API key as `Authorization: Bearer <key>`");
  // The flag is read from the database, not the session: a revoked admin loses access at once.
  return { userId: session.user.id, platformAdmin: await isPlatformAdmin(session.user.id) };
}

/**
 * A stored file's bytes as the answer: the type judged at upload, its size,
 * inline unless `?download=1`, nosniff and same-origin only (the headers given
 * are kept: request id, caching).
 */
export function storedFileResponse(
  request: Request,
  file: Pick<StoredFile, "contentType" | "size" | "fileName">,
  body: ReadableStream<Uint8Array>,
  headers: Headers,
): Response {
  const download = new URL(request.url).searchParams.get("download") === "1";
  headers.set("Content-Type", file.contentType);
  headers.set("Content-Length", String(file.size));
  headers.set("Content-Disposition", contentDisposition(file.fileName, download ? "attachment" : "inline"));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers });
}

export async function serveFile(request: Request, fileId: string): Promise<Response> {
  const requestId = requestIdOf(request.headers);
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "private, no-store" });
  try {
    if (!/^[\w-]{1,100}$/.test(fileId)) throw new AppError("not_found", "File not found");
    const access = await accessOf(request, headers);
    const { file, body } = await openFile(access, fileId);
    return storedFileResponse(request, file, body, headers);
  } catch (err) {
    const app = toAppError(err);
    if (app) return problemResponse(app, requestId, headers);
    logger.error({ err, requestId, fileId }, "serving a file failed");
    return problemResponse(
      new AppError("internal_error", `Something went wrong on our side. Quote ${requestId} when you contact support.`),
      requestId,
      headers,
    );
  }
}
