// Phone numbers in E.164 (+2348031234567), parsed and checked by
// libphonenumber-js (Google's libphonenumber metadata). A local number
// (08031234567) is read in the business's country, known from its currency.
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";
import { validationError } from "@/server/errors";

/** The country a currency's local numbers belong to (the currencies businesses here sell in). */
const COUNTRY_OF_CURRENCY: Readonly<Record<string, CountryCode>> = {
  NGN: "NG",
  GHS: "GH",
  KES: "KE",
  ZAR: "ZA",
  UGX: "UG",
  TZS: "TZ",
  RWF: "RW",
  EGP: "EG",
  XOF: "CI",
  GBP: "GB",
  USD: "US",
};

/** The number in E.164, or null when it is not a valid number (international, or local to the currency's country). */
export function e164(text: string, currency?: string): string | null {
  const parsed = parsePhoneNumberFromString(text.trim(), currency ? COUNTRY_OF_CURRENCY[currency.toUpperCase()] : undefined);
  return parsed?.isValid() ? parsed.number : null;
}

/** The same, or 422 on `path` with a message saying what is expected. */
export function phoneOf(text: string, currency: string, path: string): string {
  const number = e164(text, currency);
  if (!number) {
    throw validationError([{ path, message: "Enter a valid phone number, like +2348031234567 (or 08031234567 in Nigeria)" }]);
  }
  return number;
}
