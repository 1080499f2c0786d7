/** How far an upload got: the bytes sent, then the server's turn (checking and storing). */
export function UploadProgressBar({ percent, label = "Upload progress" }: { percent: number; label?: string }) {
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width] duration-200" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-600" aria-live="polite">
        {percent < 100 ? `Uploading… ${percent}%` : "Checking the file…"}
      </p>
    </div>
  );
}
