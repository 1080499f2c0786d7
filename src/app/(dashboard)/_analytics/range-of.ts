// The period the analytics pages show, from the URL's `?from=&to=` (so a
// reload or a shared link shows the same numbers): read alike by the server
// (the home page loads its figures with the HTML) and the browser (useRange
// in ./range.ts). Days are UTC, `to` inclusive, as the server counts them.
import {
  DEFAULT_RANGE_DAYS,
  daysIn,
  fromNotAfterTo,
  MAX_HOURLY_DAYS,
  MAX_SERIES_DAYS,
  RANGE_MESSAGES,
  withinMax,
} from "@/lib/date-range";

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

/** The range of `?from=&to=`, or the last 30 days when they are missing (or name one the server would refuse). */
export function rangeOf(fromParam: string | null, toParam: string | null, today = todayUtc()): Range {
  const valid = fromParam !== null && toParam !== null && rangeError(fromParam, toParam) === null;
  const { from, to } = valid ? { from: fromParam, to: toParam } : presetRange(DEFAULT_PRESET, today);
  const days = daysIn(from, to);
  const preset = to === today ? (PRESETS.find((p) => p === days) ?? null) : null;
  return { from, to, days, preset };
}
