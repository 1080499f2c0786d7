// The ledger's amounts are signed decimal strings ("-1.50"); src/lib/money.ts
// parses unsigned ones only.
import { parseDecimal } from "@/lib/money-format";

export function signedMinor(text: string): bigint | null {
  const trimmed = text.trim();
  const negative = trimmed.startsWith("-");
  const minor = parseDecimal(negative ? trimmed.slice(1) : trimmed);
  if (minor === null) return null;
  return negative ? -minor : minor;
}

/** "+12.5%" / "-3.0%" from the previous period to this one; null when there is nothing to compare with. */
export function percentChange(current: string, previous: string): string | null {
  const now = signedMinor(current);
  const before = signedMinor(previous);
  if (now === null || before === null || before === 0n) return null;
  const change = (Number(now - before) / Math.abs(Number(before))) * 100;
  return `${change >= 0 ? "+" : ""}${change.toFixed(1)}%`;
}
