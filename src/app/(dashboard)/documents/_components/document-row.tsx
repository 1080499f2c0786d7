import { Download } from "lucide-react";
import type { ReactNode } from "react";
import { FilePreview, pagesLabel } from "@/components/file-preview";
import { formatBytes } from "@/components/upload/xhr-upload";
import { formatDateTime } from "@/lib/format";
import type { CertificateView, ReceiptSampleView } from "@/lib/schemas/documents";

/** One stored document: its preview, what it is, and the actions the user may take. */
export function DocumentRow({
  doc,
  badges,
  actions,
  testId,
}: {
  doc: CertificateView | ReceiptSampleView;
  badges?: ReactNode;
  actions?: ReactNode;
  testId: string;
}) {
  const pdf = doc.contentType === "application/pdf";
  return (
    <li data-testid={testId} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:px-6">
      <div className="flex min-w-0 flex-1 items-start gap-4">
        <FilePreview url={doc.url} contentType={doc.contentType} pageCount={doc.pageCount} name={doc.name} />
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="break-words font-medium text-slate-900">{doc.name}</span>
            {badges}
          </div>
          <p className="text-xs text-slate-600 [overflow-wrap:anywhere]">
            {doc.fileName}
          </p>
          <p className="text-xs text-slate-600">
            {pdf ? `PDF · ${pagesLabel(doc.pageCount)}` : doc.contentType === "image/png" ? "PNG image" : "JPEG image"} ·{" "}
            {formatBytes(doc.size)} · Uploaded {formatDateTime(doc.createdAt)}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:justify-end">
        <a
          href={`${doc.url}?download=1`}
          className="inline-flex h-8 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
          aria-label={`Download ${doc.name}`}
        >
          <Download className="h-4 w-4" aria-hidden /> Download
        </a>
        {actions}
      </div>
    </li>
  );
}
