// What a file is, judged by its first bytes only — never by its name or the
// type the sender declared. Three formats are allowed; their signatures are
// fixed by their specifications (PDF 1.7 §7.5.2, PNG §5.2, JPEG SOI + marker).
export type AllowedContentType = "application/pdf" | "image/png" | "image/jpeg";

export const ALLOWED_TYPES: readonly AllowedContentType[] = ["application/pdf", "image/png", "image/jpeg"];

const EXTENSION: Record<AllowedContentType, string> = {
  "application/pdf": "pdf",
  "image/png": "png",
  "image/jpeg": "jpg",
};

const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** The allowed type these bytes are, or null. */
export function sniffContentType(bytes: Uint8Array): AllowedContentType | null {
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  // A PDF header may follow a little junk (the spec tolerates it within the first 1 KiB).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  if (startsWith(bytes, PDF) || /^[\s\S]{0,1019}%PDF-\d/.test(head)) return "application/pdf";
  return null;
}

export const extensionOf = (type: AllowedContentType) => EXTENSION[type];
