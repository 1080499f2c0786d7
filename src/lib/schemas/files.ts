import { z } from "@/lib/messages";

/**
 * Marks the server's UploadedFile (files/multipart.ts). A symbol, so no parsed
 * JSON or form text can pass for an uploaded file.
 */
export const UPLOADED_FILE = Symbol.for("coverdesk.uploaded-file");

/** What the services read of an uploaded file (the class lives with the multipart reader). */
export interface UploadedFileShape {
  readonly [UPLOADED_FILE]: true;
  readonly field: string;
  readonly fileName: string;
  readonly contentType: z.infer<typeof ContentType>;
  /** Node Buffer: only the server ever holds one. */
  readonly bytes: Buffer;
  readonly size: number;
  readonly sha256: string;
}

/** A file part of a multipart body (already type-checked by its bytes). */
export const FileField = z
  .custom<UploadedFileShape>(
    (v) => typeof v === "object" && v !== null && (v as Partial<UploadedFileShape>)[UPLOADED_FILE] === true,
    {
      error: "attach a PDF, PNG or JPEG file",
    },
  )
  .meta({ override: { type: "string", format: "binary", description: "A PDF, PNG or JPEG file (judged by its content)" } });

export const ContentType = z.enum(["application/pdf", "image/png", "image/jpeg"]);
