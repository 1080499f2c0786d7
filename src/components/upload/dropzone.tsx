"use client";

// One file, dropped or picked, for a form that uploads it through our own
// /api/upload route (see xhr-upload.ts): the checks here only answer sooner —
// the server judges every file by its bytes and size.
import { useDropzone } from "@uploadthing/react";
import { FileText, UploadCloud, X } from "lucide-react";
import { useCallback, useRef, useState, type ChangeEvent, type DragEvent } from "react";
import { cn } from "@/lib/cn";
import { ACCEPTED_TYPES, formatBytes, MAX_UPLOAD_BYTES } from "./xhr-upload";

/** Why the hook dropped what it was given (it reports only the accepted files). */
function rejection(files: File[]): string {
  if (files.length > 1) return "Choose one file at a time.";
  const file = files[0];
  if (!file) return "Choose a PDF, PNG or JPEG file.";
  if (file.size > MAX_UPLOAD_BYTES)
    return `“${file.name}” is ${formatBytes(file.size)}; files can be ${formatBytes(MAX_UPLOAD_BYTES)} at most.`;
  return `“${file.name}” is not a PDF, PNG or JPEG file.`;
}

export function Dropzone({
  id,
  label,
  file,
  onFileChange,
  error,
  disabled,
}: {
  id: string;
  label: string;
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** The server's message for this field, if it refused the file. */
  error?: string;
  disabled?: boolean;
}) {
  const [localError, setLocalError] = useState<string | null>(null);
  // The files last offered, before the hook filters them: to explain a refusal.
  const offered = useRef<File[]>([]);

  const onDrop = useCallback(
    (accepted: File[]) => {
      const picked = accepted[0];
      if (!picked) {
        // An empty pick (dialog closed) is not an error.
        if (offered.current.length) setLocalError(rejection(offered.current));
        return;
      }
      setLocalError(null);
      onFileChange(picked);
    },
    [onFileChange],
  );

  const { getRootProps, getInputProps, isDragActive, isDragReject } = useDropzone({
    accept: ACCEPTED_TYPES,
    maxSize: MAX_UPLOAD_BYTES,
    multiple: false,
    maxFiles: 1,
    disabled,
    onDrop,
  });

  const root = getRootProps();
  const input = getInputProps();
  const message = localError ?? error;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;

  return (
    <div className="space-y-1.5">
      <p id={`${id}-label`} className="text-sm font-medium text-slate-700">
        {label}
      </p>
      <div
        {...root}
        role="button"
        // Its name is the field's label followed by every line it shows (WCAG 2.5.3, label in name).
        aria-labelledby={`${id}-label ${id}-action ${hintId}`}
        aria-describedby={message ? errorId : undefined}
        aria-disabled={disabled || undefined}
        data-testid={`${id}-dropzone`}
        onDrop={(e: DragEvent<HTMLDivElement>) => {
          offered.current = Array.from(e.dataTransfer?.files ?? []);
          root.onDrop?.(e);
        }}
        className={cn(
          "flex min-h-28 cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-5 text-center transition-colors",
          isDragActive && !isDragReject && "border-brand-500 bg-brand-50",
          isDragReject && "border-red-400 bg-red-50",
          !isDragActive &&
            (message ? "border-red-300 bg-white" : "border-slate-300 bg-white hover:border-brand-500 hover:bg-slate-50"),
          disabled && "cursor-not-allowed opacity-60",
        )}
      >
        <input
          {...input}
          id={id}
          aria-label={label}
          onChange={(e: ChangeEvent<HTMLInputElement>) => {
            offered.current = Array.from(e.target.files ?? []);
            input.onChange?.(e);
          }}
        />
        <UploadCloud className="h-7 w-7 text-slate-400" aria-hidden />
        <p id={`${id}-action`} className="text-sm text-slate-700">
          {isDragActive ? (
            "Drop the file here"
          ) : (
            <>
              {file ? "Drag another file here or " : "Drag a file here or "}
              <span className="font-medium text-brand-600">{file ? "browse to replace it" : "browse"}</span>
            </>
          )}
        </p>
        {/* A space between the two lines, so the text read as one ("…browse PDF…") matches the name. */}{" "}
        <p id={hintId} className="text-xs text-slate-600">
          PDF, PNG or JPEG, up to {formatBytes(MAX_UPLOAD_BYTES)}
        </p>
      </div>
      {/* Outside the drop area: its Remove button must not sit inside another button. */}
      {file && <SelectedFile file={file} onRemove={disabled ? undefined : () => onFileChange(null)} />}
      {message && (
        <p id={errorId} role="alert" className="text-xs text-red-600">
          {message}
        </p>
      )}
    </div>
  );
}

function SelectedFile({ file, onRemove }: { file: File; onRemove?: () => void }) {
  const image = file.type.startsWith("image/");
  // The object URL lives as long as the <img> shows this file (a ref callback's cleanup revokes it).
  const showLocal = useCallback(
    (img: HTMLImageElement | null) => {
      if (!img) return;
      const url = URL.createObjectURL(file);
      img.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );

  return (
    <div className="flex w-full items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-2 text-left">
      {image ? (
        // eslint-disable-next-line @next/next/no-img-element -- a local object URL, nothing to optimize
        <img ref={showLocal} alt="" className="h-10 w-10 shrink-0 rounded object-cover" />
      ) : (
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded bg-white text-slate-600">
          <FileText className="h-5 w-5" aria-hidden />
        </span>
      )}
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-medium text-slate-900 [overflow-wrap:anywhere]">{file.name}</span>
        <span className="block text-xs text-slate-600">{formatBytes(file.size)}</span>
      </span>
      {onRemove && (
        <button
          type="button"
          aria-label={`Remove ${file.name}`}
          onClick={(e) => {
            e.stopPropagation();
            onRemove();
          }}
          className="rounded p-1 text-slate-600 hover:bg-slate-200 hover:text-slate-900"
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      )}
    </div>
  );
}
