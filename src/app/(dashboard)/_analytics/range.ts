"use client";

// The period the analytics pages show, kept in the URL (`?from=&to=`) so a
// reload or a shared link shows the same numbers. Days are UTC, `to`
// inclusive, as the server counts them.
import { useSearchParams } from "next/navigation";
import {
  DEFAULT_RANGE_DAYS,
  daysIn,
  fromNotAfterTo,
  MAX_HOURLY_DAYS,
  MAX_SERIES_DAYS,
  RANGE_MESSAGES,
  withinMax,
} from "@/lib/date-range";
import { replaceQuery } from "@/lib/use-query-state";
import { useCallback, useMemo } from "react";

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export const PRESETS = [7, 30, 90] as const;
export type Preset = (typeof PRESETS)[number];
const DEFAULT_PRESET: Preset = DEFAULT_RANGE_DAYS;
// The API's own limits and rules (src/lib/date-range.ts: the analytics schemas
// refine with the same functions and sentences), without zod in the page.
export { daysIn, MAX_HOURLY_DAYS, MAX_SERIES_DAYS };

export const todayUtc = () => new Date().toISOString().slice(0, 10);
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** A real calendar day "YYYY-MM-DD" (what the API's `z.iso.date()` takes; 2026-02-30 is not one). */
const isDay = (v: string | null): v is string => {
  if (!v || !ISO_DAY.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
};

export const presetRange = (days: Preset, today = todayUtc()) => ({ from: addDays(today, -(days - 1)), to: today });

/**
 * Why a from/to pair cannot be asked for, or null. Both dates are needed here
 * (the API would fill in a missing one); the rest are the API's own rules and sentences.
 */
export function rangeError(from: string, to: string): string | null {
  if (!isDay(from) || !isDay(to)) return "Choose both dates";
  if (!fromNotAfterTo({ from, to })) return RANGE_MESSAGES.order;
  if (!withinMax({ from, to })) return RANGE_MESSAGES.max;
  return null;
}

export interface Range {
  from: string;
  to: string;
  days: number;
  /** The preset the range is, when it ends today. */
  preset: Preset | null;
}

export { replaceQuery };

/** The range in the URL, or the last 30 days when it holds none (or one the server would refuse). */
export function useRange(): Range & { setRange: (from: string, to: string) => void } {
  const params = useSearchParams();
  const fromParam = params.get("from");
  const toParam = params.get("to");
  const range = useMemo<Range>(() => {
    const today = todayUtc();
    const valid = fromParam !== null && toParam !== null && rangeError(fromParam, toParam) === null;
    const { from, to } = valid ? { from: fromParam, to: toParam } : presetRange(DEFAULT_PRESET, today);
    const days = daysIn(from, to);
    const preset = to === today ? (PRESETS.find((p) => p === days) ?? null) : null;
    return { from, to, days, preset };
  }, [fromParam, toParam]);
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
