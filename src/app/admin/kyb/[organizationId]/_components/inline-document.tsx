import { Download, ExternalLink } from "lucide-react";
import { KYB_DOCUMENT_LABEL } from "@/components/kyb-status-badge";
import { Card } from "@/components/ui/card";
import { formatBytes } from "@/components/upload/xhr-upload";
import { formatDateTime } from "@/lib/format";
import type { KybDocument } from "@/lib/schemas/kyb";

// Shown in the page, so the reviewer reads it beside the decision: /api/files
// may be framed by our own pages (X-Frame-Options SAMEORIGIN) and serves KYB
// documents to platform admins.
export function InlineDocument({ document: d }: { document: KybDocument }) {
  const label = KYB_DOCUMENT_LABEL[d.kind];
  const image = d.contentType.startsWith("image/");
  return (
    <Card className="overflow-hidden" data-testid="kyb-inline-document">
      <div className="flex flex-col gap-2 border-b border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div className="min-w-0">
          <h2 className="text-base font-semibold text-slate-900">{label}</h2>
          <p className="text-xs text-slate-600 [overflow-wrap:anywhere]">
            {d.fileName} · {formatBytes(d.size)} · {formatDateTime(d.createdAt)}
          </p>
        </div>
        <div className="flex shrink-0 gap-1">
          <a
            href={d.url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex h-8 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
          >
            <ExternalLink className="h-4 w-4" aria-hidden /> Open
          </a>
          <a
            href={`${d.url}?download=1`}
            className="inline-flex h-8 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
          >
            <Download className="h-4 w-4" aria-hidden /> Download
          </a>
        </div>
      </div>
      {image ? (
        <div className="bg-slate-100 p-2">
          {/* eslint-disable-next-line @next/next/no-img-element -- a private file behind the session */}
          <img src={d.url} alt={`${label}: ${d.fileName}`} className="mx-auto max-h-[70vh] w-auto max-w-full object-contain" />
        </div>
      ) : (
        <iframe src={d.url} title={`${label}: ${d.fileName}`} className="block h-[70vh] min-h-96 w-full bg-slate-100" />
      )}
    </Card>
  );
}
