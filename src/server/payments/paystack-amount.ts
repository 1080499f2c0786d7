// Paystack counts every amount in hundredths of its currency, its "subunit":
// kobo, pesewas, cents — and, for the currencies it serves that have no minor
// unit (XOF, RWF), still major × 100. Our amounts are ISO 4217 minor units of
// the currency (src/lib/money-format.ts). Converted here, at the boundary, for
// every call and every webhook of Paystack (charges, transfers, refunds).
import { minorDigits } from "@/lib/money-format";
import { AppError } from "@/server/errors";

/** Our minor units → Paystack's amount. */
export function toPaystackAmount(minor: bigint, currency: string): number {
  const digits = minorDigits(currency);
  if (digits <= 2) return Number(minor * 10n ** BigInt(2 - digits));
  const unit = 10n ** BigInt(digits - 2);
  if (minor % unit !== 0n) {
    throw new AppError("provider_error", `Paystack takes ${currency} amounts with at most 2 decimals`);
  }
  return Number(minor / unit);
}

/** Paystack's amount → our minor units; null when it is not a whole number of them (or not a number). */
export function fromPaystackAmount(amount: unknown, currency: string): bigint | null {
  const text = typeof amount === "number" || typeof amount === "bigint" ? String(amount) : typeof amount === "string" ? amount : "";
  if (!/^\d{1,18}$/.test(text)) return null;
  const value = BigInt(text);
  const digits = minorDigits(currency);
  if (digits >= 2) return value * 10n ** BigInt(digits - 2);
  const unit = 10n ** BigInt(2 - digits);
  return value % unit === 0n ? value / unit : null;
}
