// The ledger's amounts are signed decimal strings ("-1.50"); src/lib/money.ts
// parses unsigned ones only. Compared with each other only, so exact in any
// currency's decimals (ten-thousandths of a unit).
import { parseGiven } from "@/lib/money-format";

export function signedMinor(text: string): bigint | null {
  const trimmed = text.trim();
  const negative = trimmed.startsWith("-");
  const scaled = parseGiven(negative ? trimmed.slice(1) : trimmed)?.tenThousandths ?? null;
  if (scaled === null) return null;
  return negative ? -scaled : scaled;
}

/** "+12.5%" / "-3.0%" from the previous period to this one; null when there is nothing to compare with. */
export function percentChange(current: string, previous: string): string | null {
  const now = signedMinor(current);
  const before = signedMinor(previous);
  if (now === null || before === null || before === 0n) return null;
  const change = (Number(now - before) / Math.abs(Number(before))) * 100;
  return `${change >= 0 ? "+" : ""}${change.toFixed(1)}%`;
}
