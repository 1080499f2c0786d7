// The field-error sentences (see ./messages.ts), without zod: client code that
// only shows or checks a sentence imports them from here and stays free of zod.

export const list = (values: readonly unknown[]) => values.map(String).join(", ");
export const plural = (n: number | bigint, one: string, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;

export const M = {
  required: "This field is required",
  requiredWhat: (what: string) => `Enter ${what}`,
  text: "Enter text",
  notEmpty: (what = "a value") => `Enter ${what}`,
  maxChars: (max: number) => `Use at most ${plural(max, "character")}`,
  minChars: (min: number) => `Use at least ${plural(min, "character")}`,
  email: "Enter a valid email address, like name@example.com",
  url: "Enter a web address starting with http:// or https://",
  oneOf: (values: readonly unknown[]) => `Choose one of: ${list(values)}`,
  number: "Enter a number",
  wholeNumber: "Enter a whole number",
  between: (min: number, max: number) => `Enter a whole number from ${min} to ${max}`,
  atLeast: (min: number | string) => `Enter at least ${min}`,
  atMost: (max: number | string) => `Enter at most ${max}`,
  boolean: "Choose yes or no (true or false)",
  amount: "Enter an amount greater than 0, like 150 or 150.50",
  amountDecimals: "Use at most 4 decimals, like 150.50",
  /** More decimals than the currency has: "NGN amounts have at most 2 decimals, like 150.50". */
  currencyDecimals: (currency: string, digits: number) =>
    digits === 0
      ? `${currency} amounts are whole numbers, like 1500`
      : `${currency} amounts have at most ${digits} decimals, like 150.${"5".padEnd(digits, "0")}`,
  amountPositive: "Enter an amount greater than 0",
  amountTooLarge: "This amount is too large",
  decimalString: 'Enter an amount as a decimal string, like "150.00"',
  date: "Enter a date like 2026-01-31",
  dateOrder: "Choose a start date on or before the end date",
  phone: "Enter an international phone number, like +2348012345678",
  currency: "Choose a currency (an ISO 4217 code, like NGN or USD)",
  listMax: (max: number) => `Give at most ${plural(max, "item")}`,
  listOf: "Give a list of text values",
  noRepeats: (what: string) => `List each ${what} once`,
  unknownField: (keys: readonly string[]) => `Remove ${keys.length === 1 ? "the unknown field" : "the unknown fields"}: ${list(keys)}`,
  cursor: "Use the nextCursor of a previous page",
  atLeastOneField: "Change at least one field",
  unsafeText: "Remove the invisible control characters (NUL or unpaired surrogates)",
  bytes: (max: number) => `Use at most ${plural(max, "byte")}`,
  hexColor: "Enter a colour as # and 6 hex digits, like #1d4ed8",
  reminderDay: "Enter whole numbers of days from 1 to 90",
} as const;
