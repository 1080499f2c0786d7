"use client";

// The period the analytics pages show, kept in the URL (`?from=&to=`); the
// rules that read it are in ./range-of.ts, shared with the server.
import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { replaceQuery } from "@/lib/use-query-state";
import { rangeOf, type Range } from "./range-of";

export {
  addDays,
  daysIn,
  MAX_HOURLY_DAYS,
  MAX_SERIES_DAYS,
  presetRange,
  PRESETS,
  rangeError,
  rangeOf,
  todayUtc,
  type Preset,
  type Range,
} from "./range-of";

export { replaceQuery };

/** The range in the URL, or the last 30 days when it holds none (or one the server would refuse). */
export function useRange(): Range & { setRange: (from: string, to: string) => void } {
  const params = useSearchParams();
  const fromParam = params.get("from");
  const toParam = params.get("to");
  const range = useMemo<Range>(() => rangeOf(fromParam, toParam), [fromParam, toParam]);
  const setRange = useCallback((from: string, to: string) => replaceQuery({ from, to }), []);
  return { ...range, setRange };
}

const longDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** "the last 30 days" or "3 Mar 2026 – 9 Mar 2026". */
export function describeRange(range: Range): string {
  if (range.preset) return `the last ${range.preset} days`;
  const from = longDay.format(new Date(`${range.from}T00:00:00Z`));
  const to = longDay.format(new Date(`${range.to}T00:00:00Z`));
  return range.from === range.to ? from : `${from} – ${to}`;
}
