"use client";

// The filter row above a list: a search box, selects and a date range. Every
// control has a visible or screen-reader label; the row wraps on phones.
import { Search, X } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Input } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/select";
import { cn } from "@/lib/cn";
import { M } from "@/lib/field-messages";
import { useDebounced } from "@/lib/use-query-state";

export function FilterBar({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div role="search" className={cn("mb-4 grid grid-cols-2 gap-3 lg:flex lg:flex-wrap lg:items-end", className)}>
      {children}
    </div>
  );
}

function Labelled({ id, label, children, className }: { id: string; label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("min-w-0 space-y-1", className)}>
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A search box that reports its text once typing pauses. */
export function SearchBox({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  const settled = useDebounced(text, 300);
  useEffect(() => {
    if (settled.trim() !== value) onChange(settled.trim());
    // Only the typed text drives a new search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  return (
    <Labelled id={id} label={label} className="col-span-2 lg:w-72">
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden />
        <Input
          id={id}
          type="search"
          value={text}
          placeholder={placeholder}
          onChange={(e) => setText(e.target.value)}
          className="pl-9 pr-9 [&::-webkit-search-cancel-button]:appearance-none"
        />
        {text && (
          <button
            type="button"
            onClick={() => {
              setText("");
              onChange("");
            }}
            aria-label="Clear the search"
            className="absolute right-2 top-1/2 -translate-y-1/2 rounded p-1 text-slate-500 hover:bg-slate-100"
          >
            <X className="h-4 w-4" aria-hidden />
          </button>
        )}
      </div>
    </Labelled>
  );
}

export function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
  allLabel,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  /** The first option, meaning "no filter". */
  allLabel: string;
}) {
  return (
    <Labelled id={id} label={label} className="lg:w-48">
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{allLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </Labelled>
  );
}

/** Created from/to (UTC days). A "to" before "from" is said at once and not applied. */
export function DateRangeFilter({
  idPrefix,
  from,
  to,
  onChange,
}: {
  idPrefix: string;
  from: string;
  to: string;
  onChange: (range: { from: string; to: string }) => void;
}) {
  const [draft, setDraft] = useState({ from, to });
  // The URL changed under us (back button, a cleared filter): show its range.
  const [shown, setShown] = useState({ from, to });
  if (shown.from !== from || shown.to !== to) {
    setShown({ from, to });
    setDraft({ from, to });
  }
  const invalid = draft.from && draft.to && draft.from > draft.to;
  const edit = (next: { from: string; to: string }) => {
    setDraft(next);
    if (!(next.from && next.to && next.from > next.to)) onChange(next);
  };
  return (
    <div className="col-span-2 grid grid-cols-2 gap-3 lg:flex lg:items-end">
      <Labelled id={`${idPrefix}-from`} label="From" className="lg:w-40">
        <Input
          id={`${idPrefix}-from`}
          type="date"
          value={draft.from}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${idPrefix}-range-error` : undefined}
          onChange={(e) => edit({ ...draft, from: e.target.value })}
        />
      </Labelled>
      <Labelled id={`${idPrefix}-to`} label="To" className="lg:w-40">
        <Input
          id={`${idPrefix}-to`}
          type="date"
          value={draft.to}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${idPrefix}-range-error` : undefined}
          onChange={(e) => edit({ ...draft, to: e.target.value })}
        />
      </Labelled>
      {invalid && (
        <p id={`${idPrefix}-range-error`} role="alert" className="col-span-2 text-xs text-red-700">
          {M.dateOrder}
        </p>
      )}
    </div>
  );
}
