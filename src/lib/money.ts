// Money is integer minor units (bigint) inside; decimal strings at the edges.
// Every currency we serve has 2 decimals.
import { M, z } from "@/lib/messages";
import { displayMoney, formatMinor, MAX_MINOR, parseDecimal } from "./money-format";

export { displayMoney, formatMinor, parseDecimal };

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
