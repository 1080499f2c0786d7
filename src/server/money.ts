// A request's amount in the minor units of the currency it is in: the one
// place a GivenAmount becomes money. More decimals than the currency has →
// 422 on that field, before anything is written.
import { M } from "@/lib/messages";
import { minorDigits, type GivenAmount } from "@/lib/money";
import { validationError } from "@/server/errors";

export function minorOf(amount: GivenAmount, currency: string, path: string): bigint {
  const minor = amount.minorIn(currency);
  if (minor === null) throw validationError([{ path, message: M.currencyDecimals(currency, minorDigits(currency)) }]);
  return minor;
}

/** The same for an optional amount. */
export const optionalMinorOf = (amount: GivenAmount | undefined, currency: string, path: string): bigint | undefined =>
  amount === undefined ? undefined : minorOf(amount, currency, path);
