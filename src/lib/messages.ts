// The one source of field-error wording. The schemas beside the services use
// these messages, so the REST API's `errors[]`, tRPC's field errors and the
// dashboard's forms (which validate with the same schemas) say the same human
// sentence: an instruction in sentence case, without a final period.
// Anything a schema leaves unsaid gets a message from `humanIssue` below,
// installed as zod's global error map, so no library wording reaches a person.
import { z } from "zod";
import { list, M, plural } from "./field-messages";

export { M };

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
