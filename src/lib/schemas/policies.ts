import { M, z } from "@/lib/messages";
import { DecimalString } from "@/lib/money";
import { PolicyAnalyticsQuery, REVENUE_GRANULARITIES } from "@/lib/schemas/analytics";
import { IdParam } from "@/lib/schemas/ids";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

// The value lists live in src/lib/enums.ts, which the dashboard imports without this module's weight.
import { POLICY_DURATIONS, POLICY_TYPES } from "@/lib/enums";
export { POLICY_DURATIONS, POLICY_TYPES };

export const PolicyType = z.enum(POLICY_TYPES);
export const PolicyDuration = z.enum(POLICY_DURATIONS);

const Name = z.string().trim().min(1).max(120);
const LongText = z.string().trim().max(5000);
const Items = z
  .array(
    z.string().trim().min(1).max(500),
    // Only for a value that is not a list: a list too long says so ("Give at most 50 items").
    { error: (iss) => (iss.code === "invalid_type" ? M.listOf : undefined) },
  )
  .max(50);

const fields = {
  name: Name.describe("Name customers see"),
  type: PolicyType,
  duration: PolicyDuration.describe("How long one purchase covers"),
  price: DecimalString.describe(
    'Price per duration, a decimal string with at most the currency\'s decimals (2 for NGN, 0 for JPY, 3 for KWD), e.g. "150.00"',
  ),
  description: LongText.optional(),
  coverage: LongText.optional().describe("What is covered, in words"),
  benefits: Items.optional(),
  exclusions: Items.optional(),
};

export const CreatePolicyInput = z.strictObject(fields).meta({ id: "CreatePolicyInput" });
export type CreatePolicyInput = z.output<typeof CreatePolicyInput>;

export const UpdatePolicyInput = z
  .strictObject({
    name: fields.name.optional(),
    type: fields.type.optional(),
    duration: fields.duration.optional(),
    price: fields.price.optional(),
    description: LongText.nullable().optional(),
    coverage: LongText.nullable().optional(),
    benefits: Items.optional(),
    exclusions: Items.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, M.atLeastOneField)
  .meta({ id: "UpdatePolicyInput" });
export type UpdatePolicyInput = z.output<typeof UpdatePolicyInput>;

export const PolicyStatusInput = z
  .strictObject({ isActive: z.boolean().describe("false stops new purchases") })
  .meta({ id: "PolicyStatusInput" });

export const ListPoliciesQuery = PageQuery.extend({
  isActive: z
    .enum(["true", "false"], M.boolean)
    .transform((v) => v === "true")
    .optional(),
  type: PolicyType.optional(),
  q: z.string().trim().max(100).optional().describe("Case-insensitive search in the name"),
});
export type ListPoliciesQuery = z.output<typeof ListPoliciesQuery>;

export const Policy = z
  .object({
    id: z.string(),
    name: z.string(),
    type: PolicyType,
    description: z.string().nullable(),
    duration: PolicyDuration,
    price: z.string().describe('Decimal string, e.g. "150.00"'),
    currency: z.string(),
    coverage: z.string().nullable(),
    benefits: z.array(z.string()),
    exclusions: z.array(z.string()),
    isActive: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Policy" });
export type Policy = z.infer<typeof Policy>;

export const PolicyList = pageOf(Policy, "PolicyList");

const Money = z.string().describe('Decimal string, e.g. "150.00"');

/** The dashboard's input: the policy and the range (refinements kept, so not `.extend`). */
export const PolicyAnalyticsInput = IdParam.and(PolicyAnalyticsQuery);

export const PolicyAnalytics = z
  .object({
    currency: z.string(),
    from: z.iso.date().describe("First day of the range (UTC)"),
    to: z.iso.date().describe("Last day of the range (UTC), inclusive"),
    granularity: z.enum(REVENUE_GRANULARITIES),
    purchases: z.number().int().describe("Customers who bought the policy in the range"),
    renewals: z.number().int().describe("Renewals in the range"),
    activeCoverages: z.number().int().describe("Coverages whose end is in the future, now"),
    revenue: z.object({ gross: Money, fees: Money, net: Money }).describe("Successful payments in the range"),
    claims: z.object({ count: z.number().int(), amount: Money }).describe("Claims filed in the range"),
    lossRatio: z
      .number()
      .nullable()
      .describe(
        "Approved and paid claims filed in the range (the approved amount where set) ÷ (premium − refunds) of the range; null without premium",
      ),
    conversionRate: z.number().nullable().describe("Successful ÷ initialized payments in the range; null without payments"),
    series: z
      .array(z.object({ date: z.iso.date(), purchases: z.number().int(), renewals: z.number().int(), gross: Money }))
      .describe(
        "One point per bucket, empty ones included; `date` is the bucket's first day (a Monday for weeks, the 1st for months), which may be before `from`",
      ),
  })
  .meta({ id: "PolicyAnalytics" });
export type PolicyAnalytics = z.infer<typeof PolicyAnalytics>;
