// The rules of a from/to range of UTC days (`to` inclusive), without zod: the
// analytics and earnings schemas (src/lib/schemas) refine with them, and the
// dashboard's range picker checks a range with the very same functions and
// sentences before asking for it, without loading zod with the page. Nothing is
// imported: the home page carries this module in its first load.

const DAY_MS = 86_400_000;

/** The longest range a series answers (a year, leap day included). */
export const MAX_SERIES_DAYS = 366;
/** Hourly series are limited to this many days (744 points). */
export const MAX_HOURLY_DAYS = 31;
/** The default range: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

export interface DayRange {
  from?: string;
  to?: string;
}

/** Days from `from` to `to` ("YYYY-MM-DD"), both included. */
export const daysIn = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The days a query covers: its own from/to, or the default range when either is left out. */
export const rangeDays = (q: DayRange) => (q.from && q.to ? daysIn(q.from, q.to) : DEFAULT_RANGE_DAYS);

export const fromNotAfterTo = (q: DayRange) => !q.from || !q.to || q.from <= q.to;
export const withinMax = (q: DayRange) => rangeDays(q) <= MAX_SERIES_DAYS;

/** What each rule says when it is broken (the API's `errors[]` and the picker alike). */
export const RANGE_MESSAGES = {
  /** path `from`; M.dateOrder's sentence (field-messages.ts, whose every sentence the page would carry with it; range.test.ts holds them equal) */
  order: "Choose a start date on or before the end date",
  /** path `to` */
  max: `Choose a period of at most ${MAX_SERIES_DAYS} days`,
} as const;
