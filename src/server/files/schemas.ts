import { z } from "@/lib/messages";
import { UploadedFile } from "./multipart";

/** A file part of a multipart body (already type-checked by its bytes). */
export const FileField = z
  .custom<UploadedFile>((v) => v instanceof UploadedFile, { error: "attach a PDF, PNG or JPEG file" })
  .meta({ override: { type: "string", format: "binary", description: "A PDF, PNG or JPEG file (judged by its content)" } });

export const ContentType = z.enum(["application/pdf", "image/png", "image/jpeg"]);
