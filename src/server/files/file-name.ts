// A file name that is safe to store, show and send back in
// Content-Disposition: no directories, no control or reserved characters, at
// most 120 characters, and an extension matching what the bytes really are.
import { extensionOf, type AllowedContentType } from "./sniff";

export function sanitizeFileName(raw: string | undefined, type: AllowedContentType): string {
  const ext = extensionOf(type);
  const base = (raw ?? "")
    .normalize("NFC")
    .split(/[/\\]/)
    .pop()!
    // control characters, lone surrogates and characters Windows or headers refuse
    .replace(/[\u0000-\u001f\u007f-\u009f"*:<>?|\\/]|[\ud800-\udfff]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .replace(/\.(pdf|png|jpe?g)$/i, "");
  const stem = (base || "file").slice(0, 120 - ext.length - 1).trim() || "file";
  return `${stem}.${ext}`;
}

/** `Content-Disposition` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(fileName: string, kind: "inline" | "attachment"): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
