// Reading a multipart/form-data upload without trusting it: the body is
// streamed through busboy, a file over the limit is refused (413) the moment
// it passes it, and each file's type is judged by its first bytes (415 unless
// PDF, PNG or JPEG), and an image by its header (422 when too large to open
// safely). Nothing is written anywhere here: the bytes are held in memory (at
// most the limit per declared file field) until the service has validated
// everything, so a refused upload leaves nothing behind.
import { M } from "@/lib/messages";
import crypto from "node:crypto";
import busboy from "busboy";
import { AppError, isClientAbort, validationError } from "@/server/errors";
import { sanitizeFileName } from "./file-name";
import { imageRefusal, sniffContentType, type AllowedContentType } from "./sniff";
import { UPLOADED_FILE, type UploadedFileShape } from "@/lib/schemas/files";

/** One uploaded file, type already checked. */
export class UploadedFile implements UploadedFileShape {
  readonly [UPLOADED_FILE] = true as const;
  constructor(
    readonly field: string,
    readonly fileName: string,
    readonly contentType: AllowedContentType,
    readonly bytes: Buffer,
  ) {}
  get size(): number {
    return this.bytes.byteLength;
  }
  get sha256(): string {
    return crypto.createHash("sha256").update(this.bytes).digest("hex");
  }
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

const MAX_TEXT_FIELD_BYTES = 64 * 1024;
/** Room for the text fields and part headers beside the files. */
const ENVELOPE_BYTES = 1024 * 1024;

export const isMultipart = (request: Request) => /^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "");

const tooLarge = (field: string, limit: number) =>
  new AppError("payload_too_large", `${field}: the file is over ${limit} bytes`, {
    errors: [{ path: field, message: M.bytes(limit) }],
  });

export async function readMultipart(
  request: Request,
  opts: { files: readonly string[]; maxFileBytes: number },
): Promise<MultipartBody> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!isMultipart(request) || !/boundary=/i.test(contentType)) {
    throw new AppError("unsupported_media_type", "Send the body as multipart/form-data");
  }
  const maxTotal = opts.files.length * opts.maxFileBytes + ENVELOPE_BYTES;
  if (Number(request.headers.get("content-length") ?? "0") > maxTotal) {
    throw new AppError("payload_too_large", `The body is over ${maxTotal} bytes`);
  }
  if (!request.body) throw validationError(opts.files.map((f) => ({ path: f, message: "attach a PDF, PNG or JPEG file" })));

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: {
        // busboy reports `limit` on reaching fileSize, not on passing it: one byte more lets a file of exactly the limit through.
        fileSize: opts.maxFileBytes + 1,
        files: opts.files.length,
        fields: 50,
        fieldSize: MAX_TEXT_FIELD_BYTES,
        parts: opts.files.length + 50,
        headerPairs: 20,
      },
    });
  } catch {
    throw new AppError("malformed_multipart", "The multipart boundary is missing or invalid");
  }
  const reader = request.body.getReader();

  return new Promise<MultipartBody>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Record<string, UploadedFile> = {};
    const pending: Promise<void>[] = [];
    const seen = new Set<string>();
    let settled = false;
    let stopPump: () => void = () => {};
    const stopped = new Promise<void>((r) => (stopPump = r));
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      stopPump();
      parser.removeAllListeners();
      parser.on("error", () => {});
      reject(err);
    };

    // The body is pumped from the request's own reader into busboy. On a
    // refusal the reader is cancelled — never the stream destroyed under the
    // framework, which still feeds it (that threw "ReadableStream is already
    // closed" as an uncaught exception).
    const pump = async () => {
      let total = 0;
      try {
        for (;;) {
          if (settled) break;
          const { done, value } = await reader.read();
          if (done) {
            if (!settled) parser.end();
            return;
          }
          total += value.byteLength;
          if (total > maxTotal) return fail(new AppError("payload_too_large", `The body is over ${maxTotal} bytes`));
          if (!parser.write(value)) await Promise.race([new Promise((r) => parser.once("drain", r)), stopped]);
        }
      } catch (err) {
        // The client leaving mid-upload is its own event (499), not a malformed body.
        fail(
          isClientAbort(err)
            ? new AppError("client_closed_request")
            : new AppError("malformed_multipart", "The upload was interrupted"),
        );
      } finally {
        if (settled) await reader.cancel().catch(() => {});
      }
    };

    parser.on("file", (field, stream, info) => {
      if (!opts.files.includes(field)) {
        stream.resume();
        return fail(validationError([{ path: field, message: `unknown file field; expected ${opts.files.join(", ")}` }]));
      }
      if (seen.has(field)) {
        stream.resume();
        return fail(validationError([{ path: field, message: "send one file per field" }]));
      }
      seen.add(field);
      const chunks: Buffer[] = [];
      let size = 0;
      pending.push(
        new Promise<void>((done) => {
          stream.on("data", (chunk: Buffer) => {
            size += chunk.byteLength;
            chunks.push(chunk);
          });
          stream.on("limit", () => fail(tooLarge(field, opts.maxFileBytes)));
          stream.on("error", () => fail(new AppError("malformed_multipart", "The upload was interrupted")));
          stream.on("end", () => {
            if (settled) return done();
            const bytes = Buffer.concat(chunks, size);
            if (bytes.byteLength === 0) {
              if (!info.filename) return done(); // an empty file input: treated as missing
              fail(validationError([{ path: field, message: "Choose a file that is not empty" }]));
              return done();
            }
            const type = sniffContentType(bytes);
            if (!type) {
              fail(
                new AppError(
                  "unsupported_media_type",
                  `${field}: only PDF, PNG and JPEG files are accepted (judged by their content)`,
                  {
                    errors: [{ path: field, message: "Choose a PDF, PNG or JPEG file" }],
                  },
                ),
              );
              return done();
            }
            // An image too large to open safely (judged by its header: never decoded here) → 422.
            const refused = imageRefusal(bytes, type);
            if (refused) {
              fail(validationError([{ path: field, message: refused }]));
              return done();
            }
            files[field] = new UploadedFile(field, sanitizeFileName(info.filename, type), type, bytes);
            done();
          });
        }),
      );
    });
    parser.on("field", (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        return fail(validationError([{ path: name, message: M.bytes(MAX_TEXT_FIELD_BYTES) }]));
      }
      // Text where a file belongs is kept as text: the schema refuses it in place of the file (a missing file, if required).
      fields[name] = value;
    });
    parser.on("filesLimit", () =>
      fail(validationError([{ path: "(files)", message: `send at most ${opts.files.length} file(s)` }])),
    );
    parser.on("partsLimit", () => fail(new AppError("malformed_multipart", "Too many parts")));
    parser.on("fieldsLimit", () => fail(new AppError("malformed_multipart", "Too many fields")));
    parser.on("error", (err: Error) =>
      fail(new AppError("malformed_multipart", `The multipart body is malformed: ${err.message}`)),
    );
    parser.on("close", () => {
      void Promise.all(pending).then(() => {
        if (settled) return;
        settled = true;
        resolve({ fields, files });
      });
    });
    void pump();
  });
}
