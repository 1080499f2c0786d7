// The one source of field-error wording. The schemas beside the services use
// these messages, so the REST API's `errors[]`, tRPC's field errors and the
// dashboard's forms (which validate with the same schemas) say the same human
// sentence: an instruction in sentence case, without a final period.
// Anything a schema leaves unsaid gets a message from `humanIssue` below,
// installed as zod's global error map, so no library wording reaches a person.
import { z } from "zod";

const list = (values: readonly unknown[]) => values.map(String).join(", ");
const plural = (n: number | bigint, one: string, many = `${one}s`) => `${n} ${Number(n) === 1 ? one : many}`;

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
  amountDecimals: "Use at most 2 decimals, like 150.50",
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
} as const;

/**
 * What a field asks for, by its name (the last segment of its path): "Enter a
 * name", "Choose a type". Fields not listed get the generic sentences.
 */
const LABELS: Record<string, string> = {
  name: "a name",
  email: "an email address",
  description: "a description",
  url: "a web address",
  amount: "an amount",
  approvedAmount: "the approved amount",
  price: "a price",
  policyId: "a policy",
  type: "a type",
  duration: "a duration",
  status: "a status",
  role: "a role",
  phone: "a phone number",
  address: "an address",
  currency: "a currency",
  reason: "a reason",
  note: "a note",
  coverage: "what the policy covers",
  bankName: "the bank's name",
  accountName: "the account holder's name",
  accountNumber: "the account number",
  bankAccountId: "a bank account",
  code: "the code",
  events: "at least one event",
  permissions: "at least one permission",
  cardNumber: "the card number",
  expMonth: "the expiry month",
  expYear: "the expiry year",
  cvc: "the security code (CVC)",
  password: "a password",
  secret: "a secret",
  rateLimit: "a rate limit",
  format: "a format",
  granularity: "a granularity",
};

type Issue = z.core.$ZodRawIssue;

const labelOf = (issue: Issue) => {
  const last = issue.path?.[issue.path.length - 1];
  return typeof last === "string" ? LABELS[last] : undefined;
};

/** zod's message for an issue a schema gave no message of its own. */
export function humanIssue(issue: Issue): string | undefined {
  const label = labelOf(issue);
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return label ? `Enter ${label}` : M.required;
      if (issue.expected === "string") return M.text;
      if (issue.expected === "int") return typeof issue.input === "number" ? M.wholeNumber : M.number;
      if (issue.expected === "number" || issue.expected === "bigint") return M.number;
      if (issue.expected === "boolean") return M.boolean;
      if (issue.expected === "array") return "Give a list";
      if (issue.expected === "object") return "Give an object";
      if (issue.expected === "date") return M.date;
      return `Give a ${issue.expected}`;
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? M.notEmpty(label) : M.minChars(min);
      if (issue.origin === "array" || issue.origin === "set") return `Give at least ${plural(min, "item")}`;
      return issue.inclusive === false ? `Enter more than ${min}` : M.atLeast(min);
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return M.maxChars(max);
      if (issue.origin === "array" || issue.origin === "set") return M.listMax(max);
      return issue.inclusive === false ? `Enter less than ${max}` : M.atMost(max);
    }
    case "invalid_format":
      if (issue.format === "email") return M.email;
      if (issue.format === "url") return M.url;
      if (issue.format === "datetime" || issue.format === "date") return M.date;
      return "Check the format";
    case "not_multiple_of":
      return issue.divisor === 1 ? M.wholeNumber : `Enter a multiple of ${String(issue.divisor)}`;
    case "invalid_value":
      if (issue.input === undefined && label) return `Choose ${label}: ${list(issue.values)}`;
      return M.oneOf(issue.values);
    case "unrecognized_keys":
      return M.unknownField(issue.keys);
    case "invalid_union":
      return "Check this value";
    default:
      return undefined;
  }
}

z.config({ customError: humanIssue });

export { z };
