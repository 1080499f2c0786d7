import { Fragment, type ReactNode } from "react";

/** Text whose `backticks` mark code (OpenAPI descriptions): rendered as inline code, nothing else parsed. */
export function Inline({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 && i < parts.length - 1 ? <C key={i}>{part}</C> : <Fragment key={i}>{part}</Fragment>,
      )}
    </>
  );
}

/** Inline code. */
export function C({ children }: { children: ReactNode }) {
  return <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] break-words text-slate-800">{children}</code>;
}

/**
 * A code block: scrolls inside its own box (focusable, so a keyboard reaches
 * what is off to the side), never the page.
 */
export function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre
      tabIndex={0}
      role="region"
      aria-label={label}
      className="my-3 max-w-full overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-[13px] leading-relaxed text-slate-100"
    >
      <code>{children}</code>
    </pre>
  );
}

const METHOD_STYLE: Record<string, string> = {
  GET: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  POST: "bg-brand-50 text-brand-700 ring-brand-100",
  PUT: "bg-amber-50 text-amber-900 ring-amber-200",
  PATCH: "bg-amber-50 text-amber-900 ring-amber-200",
  DELETE: "bg-red-50 text-red-800 ring-red-200",
};

export function Method({ method }: { method: string }) {
  return (
    <span
      className={`inline-block w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold ring-1 ring-inset ${METHOD_STYLE[method] ?? "bg-slate-100 text-slate-800 ring-slate-200"}`}
    >
      {method}
    </span>
  );
}
