// The policy form's schema is the API's CreatePolicyInput itself, run over the
// input the fields make (toCreatePolicyInput): same limits, enums, messages and
// refinements, issues at the same paths — plus the one check the API makes
// once it knows the business's currency: the price has at most its decimals.
// Loaded with zod when the form first validates (lazyResolver); the form keeps
// its own values (`raw`), the page sends toCreatePolicyInput /
// toUpdatePolicyInput of them. The currency comes in the form's context.
import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import { M, z } from "@/lib/messages";
import { minorDigits } from "@/lib/money";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { toCreatePolicyInput, type PolicyFormValues } from "./policy-form.values";

export const formSchemaFor = (currency: string) =>
  z
    .custom<PolicyFormValues>()
    .transform(toCreatePolicyInput)
    .pipe(CreatePolicyInput)
    .superRefine((input, ctx) => {
      if (input.price.minorIn(currency) === null) {
        ctx.addIssue({ code: "custom", path: ["price"], message: M.currencyDecimals(currency, minorDigits(currency)) });
      }
    });

export interface PolicyFormContext {
  currency: string;
}

type FormResolver = Resolver<PolicyFormValues, PolicyFormContext>;
const byCurrency = new Map<string, FormResolver>();

export const resolver: FormResolver = (values, context, options) => {
  const currency = context?.currency ?? "NGN";
  let forCurrency = byCurrency.get(currency);
  if (!forCurrency) {
    forCurrency = zodResolver(formSchemaFor(currency), undefined, { raw: true }) as unknown as FormResolver;
    byCurrency.set(currency, forCurrency);
  }
  return forCurrency(values, context, options);
};
