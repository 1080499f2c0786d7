// Reading a JSON request body without trusting its size: the stream is read
// chunk by chunk and refused as soon as it passes the limit, whether or not a
// Content-Length was sent (a chunked body has none).
import { AppError } from "@/server/errors";

const tooLarge = (limit: number) => new AppError("payload_too_large", `The body is over ${limit} bytes`);

/** application/json, or any application/…+json. */
export const isJsonContentType = (request: Request) =>
  /^application\/(.+\+)?json\b/i.test(request.headers.get("content-type") ?? "");

/** 413 when the declared Content-Length is over the limit (even where no body is read). */
export function assertDeclaredLength(request: Request, limit: number): void {
  if (Number(request.headers.get("content-length") ?? "0") > limit) throw tooLarge(limit);
}

/** The body's bytes, never more than `limit` of them in memory (413 beyond, whether or not a Content-Length was sent). */
export async function readBytes(request: Request, limit: number): Promise<Buffer<ArrayBuffer>> {
  assertDeclaredLength(request, limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as text, never more than `limit` bytes of it in memory. */
export async function readText(request: Request, limit: number): Promise<string> {
  return (await readBytes(request, limit)).toString("utf8");
}

/**
 * A JSON body: 413 over `limit`, 415 unless the Content-Type is JSON, 400
 * `malformed_json` when it does not parse. With `allowEmpty`, an empty body is
 * `undefined` whatever its Content-Type; otherwise the Content-Type is checked
 * before anything is read.
 */
export async function readJson(
  request: Request,
  limit: number,
  { allowEmpty = false }: { allowEmpty?: boolean } = {},
): Promise<{ raw: string; value: unknown }> {
  assertDeclaredLength(request, limit);
  const json = isJsonContentType(request);
  if (!json && !allowEmpty) throw new AppError("unsupported_media_type", "Send the body as application/json");
  const raw = await readText(request, limit);
  if (allowEmpty && raw.trim() === "") return { raw, value: undefined };
  if (!json) throw new AppError("unsupported_media_type", "Send the body as application/json");
  try {
    return { raw, value: JSON.parse(raw) };
  } catch {
    throw new AppError("malformed_json", "The body is not valid JSON");
  }
}
