// Money for people and forms, without zod (client pages import this; the
// schemas in ./money.ts add zod on top). Integer minor units (bigint) inside,
// decimal strings at the edges; every currency we serve has 2 decimals.

export const MAX_MINOR = 10n ** 15n; // 10 trillion major units: far above any premium

/** "150", "150.5", "150.50" → 15050n. Null when not a non-negative decimal with ≤ 2 decimals. */
export function parseDecimal(text: string): bigint | null {
  const m = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? "").padEnd(2, "0"));
}

/** 15050n → "150.50" */
export function formatMinor(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, "0")}`;
  return negative ? `-${text}` : text;
}

/** Formats minor units for people: "₦150.00". */
export function displayMoney(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat("en-NG", { style: "currency", currency, minimumFractionDigits: 2 }).format(Number(amount));
  } catch {
    return `${currency} ${amount}`;
  }
}
