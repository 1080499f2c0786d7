// Money is integer minor units (bigint) inside; decimal strings at the edges.
// Every currency we serve has 2 decimals.
import { M, z } from "@/lib/messages";

const MAX_MINOR = 10n ** 15n; // 10 trillion major units: far above any premium

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

/** A positive amount given as a decimal string ("150.00"), as minor units. */
// A missing value gets the field-named message ("Enter a price"); any other non-string this one.
export const DecimalString = z.string({ error: (iss) => (iss.input === undefined ? undefined : M.decimalString) }).transform((value, ctx) => {
  const minor = parseDecimal(value);
  if (minor === null) {
    ctx.addIssue({ code: "custom", message: M.amount });
    return z.NEVER;
  }
  if (minor <= 0n) {
    ctx.addIssue({ code: "custom", message: M.amountPositive });
    return z.NEVER;
  }
  if (minor >= MAX_MINOR) {
    ctx.addIssue({ code: "custom", message: M.amountTooLarge });
    return z.NEVER;
  }
  return minor;
});

/** A positive amount given as a JSON number (150 or 150.5), as minor units. */
export const AmountNumber = z.number().transform((value, ctx) => {
  // The shortest decimal form of the number tells how many decimals were sent.
  const minor = Number.isFinite(value) ? parseDecimal(String(Math.abs(value))) : null;
  if (minor === null) {
    ctx.addIssue({ code: "custom", message: M.amountDecimals });
    return z.NEVER;
  }
  if (value <= 0 || minor === 0n) {
    ctx.addIssue({ code: "custom", message: M.amountPositive });
    return z.NEVER;
  }
  if (minor >= MAX_MINOR) {
    ctx.addIssue({ code: "custom", message: M.amountTooLarge });
    return z.NEVER;
  }
  return minor;
});

/** Formats minor units for people: "₦150.00". */
export function displayMoney(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat("en-NG", { style: "currency", currency, minimumFractionDigits: 2 }).format(Number(amount));
  } catch {
    return `${currency} ${amount}`;
  }
}
