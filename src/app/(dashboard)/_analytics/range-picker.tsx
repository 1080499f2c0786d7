"use client";

import { CalendarDays } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { cn } from "@/lib/cn";
import { presetRange, PRESETS, rangeError, todayUtc, type Range } from "./range";

/**
 * Presets (the last 7, 30 or 90 days) and a custom from/to. A custom range
 * applies as soon as both dates make one the server accepts; until then the
 * page keeps showing the previous range and the fields say what is wrong.
 */
export function RangePicker({
  range,
  onChange,
  children,
}: {
  range: Range;
  onChange: (from: string, to: string) => void;
  /** More controls on the same row (e.g. the granularity). */
  children?: ReactNode;
}) {
  // A half-edited custom range (not one the server accepts) lives here until it
  // becomes valid; otherwise the fields show the range in the URL.
  const [pending, setPending] = useState<{ from: string; to: string } | null>(null);
  const draft = pending ?? { from: range.from, to: range.to };
  const error = rangeError(draft.from, draft.to);
  const today = todayUtc();

  const edit = (next: { from: string; to: string }) => {
    if (rangeError(next.from, next.to) === null) {
      setPending(null);
      onChange(next.from, next.to);
    } else {
      setPending(next);
    }
  };

  return (
    <div className="flex flex-col gap-3 md:flex-row md:flex-wrap md:items-end" data-testid="range-picker">
      <div
        role="group"
        aria-label="Period"
        className="inline-flex w-full rounded-md border border-slate-300 bg-white p-0.5 sm:w-auto"
      >
        {PRESETS.map((days) => (
          <Button
            key={days}
            type="button"
            variant="ghost"
            size="sm"
            aria-pressed={range.preset === days}
            onClick={() => {
              const next = presetRange(days);
              setPending(null);
              onChange(next.from, next.to);
            }}
            className={cn(
              "flex-1 whitespace-nowrap sm:flex-none",
              range.preset === days && "bg-brand-50 text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50",
            )}
          >
            Last {days} days
          </Button>
        ))}
      </div>
      <fieldset className="grid grid-cols-2 gap-2 sm:flex sm:items-end">
        <legend className="sr-only">Custom period (UTC days)</legend>
        <label className="block min-w-0 text-xs font-medium text-slate-600">
          <span className="mb-1 flex items-center gap-1">
            <CalendarDays className="h-3.5 w-3.5" aria-hidden /> From
          </span>
          <Input
            type="date"
            value={draft.from}
            max={draft.to || today}
            aria-invalid={!!error}
            aria-describedby={error ? "range-error" : undefined}
            onChange={(e) => edit({ ...draft, from: e.target.value })}
            className="h-9 min-w-0"
          />
        </label>
        <label className="block min-w-0 text-xs font-medium text-slate-600">
          <span className="mb-1 block">To</span>
          <Input
            type="date"
            value={draft.to}
            min={draft.from || undefined}
            max={today}
            aria-invalid={!!error}
            aria-describedby={error ? "range-error" : undefined}
            onChange={(e) => edit({ ...draft, to: e.target.value })}
            className="h-9 min-w-0"
          />
        </label>
      </fieldset>
      {children}
      {error && (
        <p id="range-error" role="alert" className="text-xs text-red-600 md:basis-full">
          {error}
        </p>
      )}
    </div>
  );
}
