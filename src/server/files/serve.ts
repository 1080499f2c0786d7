// A stored file as an HTTP answer, for GET /api/files/{id}
// (src/server/operations/files.ts) and the portal's files and logo.
import type { StoredFile } from "@/generated/prisma/client";
import { contentDisposition } from "./file-name";

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
