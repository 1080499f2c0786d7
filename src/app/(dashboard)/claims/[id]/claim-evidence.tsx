"use client";

// The claim's evidence, inline on its page: photos as thumbnails that open full
// size, PDFs as rows to open or download — all served by /api/files/<id> to the
// organization's members only. Members who can manage claims add files here,
// up to the claim's limit of five.
import { useQueryClient } from "@tanstack/react-query";
import { Download, ExternalLink, FileText, ImageOff, Paperclip, Upload } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "@/lib/toast";
import { Button } from "@/components/ui/button";
import { Card, EmptyState } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { UploadProgressBar } from "@/components/upload/upload-progress";
import { formatBytes, MAX_UPLOAD_BYTES } from "@/components/upload/xhr-upload";
import { formatDateTime } from "@/lib/format";
import type { ClaimAttachment } from "@/lib/schemas/claims";
import { useTRPC } from "@/trpc/react";
import {
  ACCEPT,
  localProblem,
  MAX_CLAIM_ATTACHMENTS,
  refusalOf,
  roomLeft,
  uploadClaimAttachment,
} from "../_components/attachment-upload";

/** Same-origin path of a file's URL, so the member's session cookie goes with it. */
const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, "");
const isImage = (a: ClaimAttachment) => a.contentType !== "application/pdf";
const kindOf = (a: ClaimAttachment) =>
  a.contentType === "application/pdf" ? "PDF" : a.contentType === "image/png" ? "PNG image" : "JPEG image";

interface Progress {
  name: string;
  index: number;
  total: number;
  percent: number;
}

export function ClaimEvidence({
  claimId,
  attachments,
  canManage,
}: {
  claimId: string;
  attachments: ClaimAttachment[];
  canManage: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [viewing, setViewing] = useState<ClaimAttachment | null>(null);
  const full = attachments.length >= MAX_CLAIM_ATTACHMENTS;
  const images = attachments.filter(isImage);
  const documents = attachments.filter((a) => !isImage(a));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.claims.detail.queryKey({ id: claimId }) });

  const addFiles = async (picked: File[]) => {
    if (picked.length === 0) return;
    const room = MAX_CLAIM_ATTACHMENTS - attachments.length;
    if (picked.length > room) {
      setProblems([
        `You chose ${picked.length} files, but ${room === 0 ? "no more" : `only ${room} more`} can be added: a claim can have at most ${MAX_CLAIM_ATTACHMENTS} attachments.`,
      ]);
      return;
    }
    const local = picked.map(localProblem).filter((p): p is string => p !== null);
    if (local.length) {
      setProblems(local);
      return;
    }
    setProblems([]);
    const refused: string[] = [];
    let added = 0;
    for (const [index, file] of picked.entries()) {
      setProgress({ name: file.name, index, total: picked.length, percent: 0 });
      try {
        await uploadClaimAttachment(claimId, file, (percent) => setProgress((p) => p && { ...p, percent }));
        added++;
      } catch (err) {
        refused.push(refusalOf(file, err));
      }
    }
    // The list shows the new files by the time the page says so (and, after a refusal, what the claim really holds).
    await refresh();
    setProgress(null);
    setProblems(refused);
    if (added) toast.success(added === 1 ? "File added" : `${added} files added`);
  };

  const hintId = `evidence-hint-${claimId}`;
  return (
    <Card className="p-4 sm:p-6" aria-labelledby="evidence-heading" role="region">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id="evidence-heading" className="text-base font-semibold">
            Evidence
          </h2>
          <p id={hintId} className="mt-0.5 text-xs text-slate-600" data-testid="evidence-room">
            {attachments.length} of {MAX_CLAIM_ATTACHMENTS} files
            {canManage &&
              ` · ${full ? roomLeft(attachments.length) : `PDF, PNG or JPEG, up to ${formatBytes(MAX_UPLOAD_BYTES)} each`}`}
          </p>
        </div>
        {canManage && (
          <>
            <input
              ref={input}
              type="file"
              multiple
              accept={ACCEPT}
              hidden
              data-testid="evidence-input"
              onChange={(e) => {
                const files = Array.from(e.target.files ?? []);
                e.target.value = "";
                void addFiles(files);
              }}
            />
            <Button
              variant="secondary"
              size="sm"
              className="w-full sm:w-auto"
              disabled={full}
              loading={progress !== null}
              aria-describedby={hintId}
              onClick={() => input.current?.click()}
            >
              {progress === null && <Upload className="h-4 w-4" aria-hidden />}
              Add files
            </Button>
          </>
        )}
      </div>

      {progress && (
        <div className="mt-4">
          <UploadProgressBar
            percent={progress.percent}
            label={`Uploading ${progress.name}${progress.total > 1 ? ` (${progress.index + 1} of ${progress.total})` : ""}`}
          />
          <p className="mt-1 text-xs text-slate-600 [overflow-wrap:anywhere]">
            {progress.total > 1 ? `File ${progress.index + 1} of ${progress.total}: ` : ""}
            {progress.name}
          </p>
        </div>
      )}
      {problems.length > 0 && (
        <div role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="evidence-errors">
          <ul className="space-y-1">
            {problems.map((p) => (
              <li key={p} className="[overflow-wrap:anywhere]">
                {p}
              </li>
            ))}
          </ul>
        </div>
      )}

      {attachments.length === 0 ? (
        <EmptyState
          icon={<Paperclip className="h-8 w-8" />}
          title="No evidence yet"
          description={
            canManage
              ? "Add photos of the damage, invoices or a police report: PDF, PNG or JPEG files."
              : "Photos, invoices and reports added to this claim appear here."
          }
        />
      ) : (
        <div className="mt-4 space-y-4">
          {images.length > 0 && (
            <ul aria-label="Photos" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {images.map((a) => (
                <li key={a.id} data-testid="evidence-image" className="min-w-0">
                  <Thumbnail attachment={a} onOpen={() => setViewing(a)} />
                  <p className="mt-1 truncate text-xs font-medium text-slate-900" title={a.fileName}>
                    {a.fileName}
                  </p>
                  <p className="text-xs text-slate-600">{formatBytes(a.size)}</p>
                </li>
              ))}
            </ul>
          )}
          {documents.length > 0 && (
            <ul aria-label="Documents" className="divide-y divide-slate-200 rounded-md border border-slate-200">
              {documents.map((a) => (
                <li key={a.id} data-testid="evidence-document" className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
                  <div className="flex min-w-0 flex-1 items-center gap-3">
                    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md bg-red-50">
                      <FileText className="h-5 w-5 text-red-600" aria-hidden />
                    </span>
                    <div className="min-w-0">
                      <p className="text-sm font-medium text-slate-900 [overflow-wrap:anywhere]">{a.fileName}</p>
                      <p className="text-xs text-slate-600">
                        {kindOf(a)} · {formatBytes(a.size)} · Added {formatDateTime(a.createdAt)}
                      </p>
                    </div>
                  </div>
                  <FileLinks attachment={a} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <Dialog
        open={viewing !== null}
        onOpenChange={(open) => !open && setViewing(null)}
        title={viewing?.fileName ?? "Photo"}
        description={
          viewing ? `${kindOf(viewing)} · ${formatBytes(viewing.size)} · Added ${formatDateTime(viewing.createdAt)}` : undefined
        }
      >
        {viewing && (
          <div className="space-y-4">
            {/* eslint-disable-next-line @next/next/no-img-element -- a private file behind the session; next/image would proxy it */}
            <img
              src={pathOf(viewing.url)}
              alt={viewing.fileName}
              className="mx-auto max-h-[65vh] w-auto max-w-full rounded-md border border-slate-200 object-contain"
            />
            <div className="flex justify-end">
              <FileLinks attachment={viewing} openLabel="Open full size" />
            </div>
          </div>
        )}
      </Dialog>
    </Card>
  );
}

function Thumbnail({ attachment: a, onOpen }: { attachment: ClaimAttachment; onOpen: () => void }) {
  const [broken, setBroken] = useState(false);
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={`View ${a.fileName}`}
      className="flex aspect-[4/3] w-full items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50 hover:border-brand-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      {broken ? (
        <span className="flex flex-col items-center gap-1 px-2 text-center text-xs text-slate-600">
          <ImageOff className="h-6 w-6" aria-hidden />
          Preview unavailable
        </span>
      ) : (
        // eslint-disable-next-line @next/next/no-img-element -- a private file behind the session; next/image would proxy it
        <img src={pathOf(a.url)} alt="" loading="lazy" className="h-full w-full object-cover" onError={() => setBroken(true)} />
      )}
    </button>
  );
}

function FileLinks({ attachment: a, openLabel = "Open" }: { attachment: ClaimAttachment; openLabel?: string }) {
  const link = "inline-flex h-8 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100";
  return (
    <div className="flex flex-wrap items-center gap-1 sm:justify-end">
      <a
        href={pathOf(a.url)}
        target="_blank"
        rel="noopener noreferrer"
        className={link}
        aria-label={`${openLabel}: ${a.fileName} (new tab)`}
      >
        <ExternalLink className="h-4 w-4" aria-hidden /> {openLabel}
      </a>
      <a href={`${pathOf(a.url)}?download=1`} className={link} aria-label={`Download ${a.fileName}`}>
        <Download className="h-4 w-4" aria-hidden /> Download
      </a>
    </div>
  );
}
