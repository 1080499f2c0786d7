// Number formats of the analytics pages: money with the organization's
// currency, shares, latencies, and dates of UTC buckets.
const count = new Intl.NumberFormat("en-NG");
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const hour = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});
const longDateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

export const formatCount = (n: number) => count.format(n);
/** "1 error", "3 errors". */
export const plural = (n: number, word: string) => `${count.format(n)} ${word}${n === 1 ? "" : "s"}`;

/** "12.5%" from a share (0.125); "—" when there is nothing to divide by. */
export const formatPercent = (share: number | null) => (share === null ? "—" : `${(share * 100).toFixed(1)}%`);

/** "+12.5%" / "−3.0%" for a change; null when there is no previous figure to compare with. */
export const formatChange = (change: number | null) =>
  change === null ? null : `${change >= 0 ? "+" : "−"}${Math.abs(change * 100).toFixed(1)}%`;

/** (current − previous) / previous; null when previous is 0 (as the server computes revenue's). */
export const changeOf = (current: number, previous: number) => (previous === 0 ? null : (current - previous) / previous);

export const formatMs = (ms: number | null) => (ms === null ? "—" : `${count.format(Math.round(ms))} ms`);

/** Axis labels: "₦1.2K". */
export function compactMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-NG", { style: "currency", currency, notation: "compact", maximumFractionDigits: 1 }).format(
      value,
    );
  } catch {
    return `${currency} ${value}`;
  }
}

export const compactCount = (n: number) =>
  new Intl.NumberFormat("en-NG", { notation: "compact", maximumFractionDigits: 1 }).format(n);

/** "3 Mar" for a day bucket (an ISO date or datetime), "3 Mar, 14:00" for an hour. */
export const bucketLabel = (iso: string, granularity: "hour" | "day" = "day") =>
  (granularity === "hour" ? hour : day).format(new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso));

export const formatDateTimeUtc = (iso: string) => `${longDateTime.format(new Date(iso))} UTC`;

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "5 minutes ago", "yesterday", "just now". */
export function timeAgo(iso: string, now: number): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  if (Math.abs(seconds) < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "minute") return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}
