// Money is integer minor units (bigint) inside; decimal strings at the edges.
// A request's amount is parsed exactly (up to 4 decimals) into a GivenAmount;
// the service turns it into minor units of the currency it is in
// (`server/money.ts`), refusing more decimals than that currency has.
import { M, z } from "@/lib/messages";
import { displayMoney, formatMinor, GivenAmount, MAX_MAJOR, minorDigits, oneMajor, parseDecimal, parseGiven } from "./money-format";

export { displayMoney, formatMinor, GivenAmount, minorDigits, oneMajor, parseDecimal, parseGiven };

function given(text: string, ctx: z.RefinementCtx, badMessage: string): GivenAmount {
  const amount = parseGiven(text);
  if (amount === null) {
    ctx.addIssue({ code: "custom", message: badMessage });
    return z.NEVER;
  }
  if (amount.tenThousandths === 0n) {
    ctx.addIssue({ code: "custom", message: M.amountPositive });
    return z.NEVER;
  }
  if (amount.atLeast(MAX_MAJOR)) {
    ctx.addIssue({ code: "custom", message: M.amountTooLarge });
    return z.NEVER;
  }
  return amount;
}

/** A positive amount given as a decimal string ("150.00"), exact; in minor units once its currency is known. */
// A missing value gets the field-named message ("Enter a price"); any other non-string this one.
export const DecimalString = z
  .string({ error: (iss) => (iss.input === undefined ? undefined : M.decimalString) })
  .transform((value, ctx) => given(value, ctx, M.amount));

/** A positive amount given as a JSON number (150 or 150.5), exact; in minor units once its currency is known. */
export const AmountNumber = z.number().transform((value, ctx) => {
  if (value <= 0) {
    ctx.addIssue({ code: "custom", message: M.amountPositive });
    return z.NEVER;
  }
  // The shortest decimal form of the number tells how many decimals were sent (1e21 and 1e-7 are refused).
  return given(Number.isFinite(value) ? String(value) : "", ctx, M.amountDecimals);
});
