// Money for people and forms, without zod (client pages import this; the
// schemas in ./money.ts add zod on top). Integer minor units (bigint) inside,
// decimal strings at the edges. A currency's minor unit is its ISO 4217
// exponent: 2 decimals for NGN or USD, none for JPY or XOF, 3 for KWD.

/**
 * ISO 4217 exponents that are not 2. Pinned here rather than read from the
 * runtime's Intl data: stored amounts mean minor units of these exponents, and
 * must not change meaning when Node's or a browser's ICU is updated (ICU also
 * shows some currencies, such as HUF or IDR, without the decimals ISO gives
 * them).
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0,
  VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
}; // prettier-ignore

/** How many decimals the currency's minor unit has (2 for NGN, 0 for JPY, 3 for KWD). */
export const minorDigits = (currency: string): number => EXPONENTS[currency.toUpperCase()] ?? 2;

/** The largest amount taken, in major units (10 trillion): far above any premium. */
export const MAX_MAJOR = 10n ** 13n;

/** A given amount's scale: any currency's decimals fit in it. */
const GIVEN_DIGITS = 4;

/**
 * An amount as a request gave it, before its currency is known: exact, in
 * ten-thousandths of a major unit. `minorIn(currency)` turns it into the
 * currency's minor units, or null when it has more decimals than the currency.
 */
export class GivenAmount {
  constructor(readonly tenThousandths: bigint) {}

  /** The same amount as `minor` minor units of `currency`. */
  static ofMinor(minor: bigint, currency: string): GivenAmount {
    return new GivenAmount(minor * 10n ** BigInt(GIVEN_DIGITS - minorDigits(currency)));
  }

  minorIn(currency: string): bigint | null {
    const unit = 10n ** BigInt(GIVEN_DIGITS - minorDigits(currency));
    return this.tenThousandths % unit === 0n ? this.tenThousandths / unit : null;
  }

  /** At least this many whole major units. */
  atLeast(major: bigint): boolean {
    return this.tenThousandths >= major * 10n ** BigInt(GIVEN_DIGITS);
  }

  toString(): string {
    return formatScaled(this.tenThousandths, GIVEN_DIGITS).replace(/\.?0+$/, "") || "0";
  }
}

function parseScaled(text: string, digits: number): bigint | null {
  const m = /^(\d{1,15})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!m) return null;
  const fraction = m[2] ?? "";
  // Trailing zeros past the scale change nothing ("1000.00" yen is 1000 yen).
  if (fraction.slice(digits).replace(/0/g, "") !== "") return null;
  return BigInt(m[1]!) * 10n ** BigInt(digits) + BigInt(fraction.slice(0, digits).padEnd(digits, "0") || "0");
}

function formatScaled(value: bigint, digits: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const unit = 10n ** BigInt(digits);
  const whole = (abs / unit).toString();
  const text = digits === 0 ? whole : `${whole}.${(abs % unit).toString().padStart(digits, "0")}`;
  return negative ? `-${text}` : text;
}

/** "150", "150.5", "150.50" → a given amount. Null when not a non-negative decimal with ≤ 4 decimals. */
export function parseGiven(text: string): GivenAmount | null {
  const scaled = parseScaled(text, GIVEN_DIGITS);
  return scaled === null ? null : new GivenAmount(scaled);
}

/** "150.50" NGN → 15050n; "1000" JPY → 1000n. Null when not a non-negative decimal with at most the currency's decimals. */
export function parseDecimal(text: string, currency: string): bigint | null {
  return parseScaled(text, minorDigits(currency));
}

/** 15050n NGN → "150.50"; 1000n JPY → "1000"; 1500n KWD → "1.500". */
export function formatMinor(minor: bigint, currency: string): string {
  return formatScaled(minor, minorDigits(currency));
}

/** One major unit in the currency's minor units (100 kobo; 1 yen). */
export const oneMajor = (currency: string): bigint => 10n ** BigInt(minorDigits(currency));

/** Formats a decimal amount for people: "₦150.00", "¥1,000", "KWD 1.500". */
export function displayMoney(amount: string, currency: string): string {
  const digits = minorDigits(currency);
  try {
    return new Intl.NumberFormat("en-NG", {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(Number(amount));
  } catch {
    return `${currency} ${amount}`;
  }
}
