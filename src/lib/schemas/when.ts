import { z } from "@/lib/messages";

/** A day (from its start, UTC) or an instant: what `from` and `to` take. */
export const When = z.union(
  [z.iso.datetime({ offset: true }), z.iso.date()],
  "Give a date (2026-11-27) or a date-time (2026-11-27T13:24:00Z)",
);

/** The start of a day, or the instant given. */
export const startOf = (when: string) => new Date(when.length === 10 ? `${when}T00:00:00.000Z` : when);
/** The end of a day (exclusive), or the instant given. */
export const endOf = (when: string) => (when.length === 10 ? new Date(startOf(when).getTime() + 86_400_000) : new Date(when));

/**
 * A day parameter of a day range (analytics, earnings, payments): a date, or a
 * date-time (any offset) taken at its UTC day — what a client usually sends.
 */
export const DayParam = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], "Give a date (2026-01-31) or a date-time (2026-01-31T10:00:00Z)")
  .transform((v) => (v.length === 10 ? v : new Date(v).toISOString().slice(0, 10)));
