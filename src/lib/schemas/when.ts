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
