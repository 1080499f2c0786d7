// Adding evidence to a claim from the dashboard: each file posted on its own
// (with progress) to /api/upload/claims/<id>/attachments, which runs
// POST /api/v1/claims/{id}/attachments as the signed-in member. The checks
// here only answer sooner; the server judges every file by its bytes and size
// and keeps the limit of five.
import { ACCEPTED_TYPES, formatBytes, MAX_UPLOAD_BYTES, UploadError, uploadWithProgress } from "@/components/upload/xhr-upload";
import { MAX_CLAIM_ATTACHMENTS } from "@/lib/enums";

export { MAX_CLAIM_ATTACHMENTS };

/** What the file pickers offer (the server still sniffs the content). */
export const ACCEPT = Object.entries(ACCEPTED_TYPES)
  .flatMap(([type, exts]) => [type, ...exts])
  .join(",");

export interface UploadedAttachment {
  id: string;
  fileName: string;
}

export const uploadClaimAttachment = (claimId: string, file: File, onProgress: (percent: number) => void) =>
  uploadWithProgress<UploadedAttachment>({
    url: `/api/upload/claims/${encodeURIComponent(claimId)}/attachments`,
    files: { file },
    onProgress: (p) => onProgress(p.percent),
  });

const EXTENSIONS = Object.values(ACCEPTED_TYPES).flat();
const looksAccepted = (file: File) =>
  file.type in ACCEPTED_TYPES || EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext));

/** Why a picked file cannot be sent at all, or null (the server decides the rest). */
export function localProblem(file: File): string | null {
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > MAX_UPLOAD_BYTES)
    return `“${file.name}” is ${formatBytes(file.size)}; files can be ${formatBytes(MAX_UPLOAD_BYTES)} at most.`;
  if (!looksAccepted(file)) return `“${file.name}” is not a PDF, PNG or JPEG file.`;
  return null;
}

/** How many more files fit, said plainly. */
export const roomLeft = (count: number) => {
  const left = Math.max(0, MAX_CLAIM_ATTACHMENTS - count);
  return left === 0
    ? `A claim can have at most ${MAX_CLAIM_ATTACHMENTS} attachments.`
    : `${left} more ${left === 1 ? "file" : "files"} can be added (${MAX_CLAIM_ATTACHMENTS} at most).`;
};

/** The server's reason for refusing one file, as a sentence naming it. */
export function refusalOf(file: File, caught: unknown): string {
  if (!(caught instanceof UploadError)) return `“${file.name}” was not added. Try again.`;
  // The problem's detail, without the field name it starts with ("file: only PDF, …").
  const detail = caught.message.replace(/^file:\s*/, "");
  const sentence = detail.charAt(0).toUpperCase() + detail.slice(1);
  return caught.status === 0 ? sentence : `“${file.name}” was not added: ${sentence.replace(/\.?$/, ".")}`;
}
