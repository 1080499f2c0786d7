// Recurring premiums: the Renewals view and its figures.
import { z } from "@/lib/messages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";
import { COVERAGE_STATUSES, SavedCard } from "@/lib/schemas/coverages";

export const RENEWAL_VIEWS = ["due", "past_due", "recovered"] as const;

export const ListRenewalsQuery = PageQuery.extend({
  view: z
    .enum(RENEWAL_VIEWS, 'Choose "due", "past_due" or "recovered"')
    .default("due")
    .describe(
      "due: auto-renewing covers whose period ends in the next 7 days (soonest first); past_due: renewals declined, in their grace period (soonest lapse first); recovered: renewals paid after a decline (latest first)",
    ),
});
export type ListRenewalsQuery = z.output<typeof ListRenewalsQuery>;

export const Renewal = z
  .object({
    coverageId: z.string(),
    customerEmail: z.string(),
    customerName: z.string().nullable(),
    policyId: z.string(),
    policyName: z.string(),
    status: z.enum(COVERAGE_STATUSES),
    autoRenew: z.boolean(),
    card: SavedCard.nullable(),
    amount: z.string().describe("What the renewal charges (due, past_due) or charged (recovered)"),
    currency: z.string(),
    endsAt: z.iso.datetime().describe("The end of the current period (past_due: the period whose renewal is unpaid)"),
    graceEndsAt: z.iso.datetime().nullable(),
    attempts: z.number().int().describe("Renewal charges of the unpaid period so far (recovered: the attempt that paid)"),
    nextAttemptAt: z.iso.datetime().nullable().describe("The next charge, or null when none is planned"),
    lastFailureReason: z.string().nullable(),
    paymentReference: z.string().nullable().describe("The latest renewal charge of the period"),
    renewedAt: z.iso.datetime().nullable().describe("recovered: when the renewal was paid"),
  })
  .meta({ id: "Renewal" });
export type Renewal = z.output<typeof Renewal>;
export const RenewalList = pageOf(Renewal, "RenewalList");

export const RenewalSummary = z
  .object({
    currency: z.string(),
    recurringPremiumPerMonth: z
      .string()
      .describe("The premium auto-renewing valid covers bring per month: monthly premiums, quarterly ones / 3, yearly ones / 12"),
    autoRenewing: z.number().int().describe("Valid covers on auto-renew"),
    dueNext7Days: z.number().int(),
    pastDue: z.number().int(),
    recoveredLast30Days: z.number().int(),
    collected: z
      .array(z.object({ month: z.string().describe("YYYY-MM (UTC)"), amount: z.string(), charges: z.number().int() }))
      .describe("Renewal charges paid per month, the last 6 months (oldest first)"),
  })
  .meta({ id: "RenewalSummary" });
export type RenewalSummary = z.output<typeof RenewalSummary>;
