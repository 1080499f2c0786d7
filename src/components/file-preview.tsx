// A stored file at a glance: an image's thumbnail, or a PDF's icon and page
// count. Opens the file (served inline, same-origin) in a new tab.
import { FileText } from "lucide-react";
import { cn } from "@/lib/cn";

export type PreviewContentType = "application/pdf" | "image/png" | "image/jpeg";

export const pagesLabel = (pageCount: number | null) =>
  pageCount === null ? "PDF" : `${pageCount} ${pageCount === 1 ? "page" : "pages"}`;

export function FilePreview({
  url,
  contentType,
  pageCount = null,
  name,
  className,
}: {
  url: string;
  contentType: PreviewContentType;
  pageCount?: number | null;
  name: string;
  className?: string;
}) {
  const image = contentType.startsWith("image/");
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      // A PDF's tile shows its page count: the name a screen reader hears starts with it (WCAG 2.5.3).
      aria-label={image ? `Open ${name} in a new tab` : `${pagesLabel(pageCount ?? null)}: open ${name} (PDF) in a new tab`}
      data-testid="file-preview"
      className={cn(
        "flex h-16 w-16 shrink-0 flex-col items-center justify-center gap-0.5 overflow-hidden rounded-md border border-slate-200 bg-slate-50 hover:border-brand-500",
        className,
      )}
    >
      {image ? (
        // eslint-disable-next-line @next/next/no-img-element -- a private file behind the session; next/image would proxy it
        <img src={url} alt="" loading="lazy" className="h-full w-full object-cover" />
      ) : (
        <>
          <FileText className="h-6 w-6 text-red-600" aria-hidden />
          <span className="text-[10px] font-medium leading-tight text-slate-600">{pagesLabel(pageCount ?? null)}</span>
        </>
      )}
    </a>
  );
}
