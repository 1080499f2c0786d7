import { Download } from "lucide-react";
import { FilePreview } from "@/components/file-preview";
import { inKindOrder, KYB_DOCUMENT_LABEL } from "@/components/kyb-status-badge";
import { Card } from "@/components/ui/card";
import { formatBytes } from "@/components/upload/xhr-upload";
import { formatDateTime } from "@/lib/format";
import type { KybDocument } from "@/lib/schemas/kyb";

/** The documents of the current submission, each viewable and downloadable. */
export function KybDocuments({ documents, title }: { documents: KybDocument[]; title: string }) {
  return (
    <Card>
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900 sm:px-6">{title}</h2>
      <ul role="list" aria-label={title} className="divide-y divide-slate-200">
        {inKindOrder(documents).map((d) => (
          <li key={d.id} data-testid="kyb-document" className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:px-6">
            <div className="flex min-w-0 flex-1 items-start gap-4">
              <FilePreview url={d.url} contentType={d.contentType} name={KYB_DOCUMENT_LABEL[d.kind]} />
              <div className="min-w-0 space-y-1">
                <p className="font-medium text-slate-900">{KYB_DOCUMENT_LABEL[d.kind]}</p>
                <p className="text-xs text-slate-600 [overflow-wrap:anywhere]">
                  {d.fileName}
                </p>
                <p className="text-xs text-slate-600">
                  {formatBytes(d.size)} · Uploaded {formatDateTime(d.createdAt)}
                </p>
              </div>
            </div>
            <a
              href={`${d.url}?download=1`}
              className="inline-flex h-8 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 sm:self-auto"
              aria-label={`Download ${KYB_DOCUMENT_LABEL[d.kind]}`}
            >
              <Download className="h-4 w-4" aria-hidden /> Download
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}
