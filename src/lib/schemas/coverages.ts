import { z } from "@/lib/messages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";
import { Refund } from "@/lib/schemas/refunds";

export const COVERAGE_STATUSES = ["active", "past_due", "expired", "cancelled"] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

export const SavedCard = z
  .object({
    brand: z.string().describe('The card\'s scheme as the provider names it, e.g. "visa"'),
    last4: z.string(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
  })
  .meta({ id: "SavedCard" });
export type SavedCard = z.infer<typeof SavedCard>;

export const Coverage = z
  .object({
    id: z.string(),
    policyId: z.string(),
    customerEmail: z.string(),
    status: z
      .enum(COVERAGE_STATUSES)
      .describe(
        "cancelled once cancelled; otherwise active while endsAt is in the future; past_due from endsAt while an auto-renewing cover's renewal is unpaid and its grace period (graceEndsAt) runs — still valid cover; expired after that",
      ),
    startsAt: z.iso.datetime().describe("The first purchase"),
    periodStartsAt: z.iso.datetime().describe("When the current period (what the latest payment bought) began"),
    endsAt: z.iso.datetime(),
    renewalCount: z.number().int(),
    certificateNumber: z
      .string()
      .describe("Printed on its certificate of insurance; anyone can check it at `/verify/{certificateNumber}`"),
    cancelledAt: z.iso.datetime().nullable(),
    cancellationReason: z.string().nullable(),
    autoRenew: z
      .boolean()
      .describe("The policyholder agreed to renew automatically: the saved card is charged at the end of each period"),
    card: SavedCard.nullable().describe("The saved card renewals are charged to, or null"),
    graceEndsAt: z.iso
      .datetime()
      .nullable()
      .describe(
        "An auto-renewing cover whose renewal is unpaid stays valid (past_due) until then, while the charge is retried; null when not auto-renewing",
      ),
  })
  .meta({ id: "Coverage" });
export type Coverage = z.infer<typeof Coverage>;

export const CoverageList = pageOf(Coverage, "CoverageList");

export const ListCoveragesQuery = PageQuery.extend({
  policyId: z.string().max(100).optional(),
  status: z.enum(COVERAGE_STATUSES).optional(),
});
export type ListCoveragesQuery = z.output<typeof ListCoveragesQuery>;

/** PATCH /business/coverages/{id}: auto-renew on (needs a saved card) or off. */
export const UpdateCoverageBody = z
  .strictObject({
    autoRenew: z
      .boolean("Choose true or false for autoRenew")
      .describe("false stops the renewal charges (the cover then ends at endsAt); true needs the policyholder's saved card"),
  })
  .meta({ id: "UpdateCoverageInput" });
export const UpdateCoverageInput = UpdateCoverageBody.extend({ id: z.string().min(1).max(100) });
export type UpdateCoverageInput = z.output<typeof UpdateCoverageInput>;

export const CANCELLATION_RULES = ["cooling_off", "pro_rata", "claim_on_cover"] as const;
export type CancellationRule = (typeof CANCELLATION_RULES)[number];

/** Cooling-off days: 0–30, 14 by default. */
export const COOLING_OFF_DAYS_MAX = 30;
export const DEFAULT_COOLING_OFF_DAYS = 14;

export const CancellationQuote = z
  .object({
    refundAmount: z.string().describe('What a cancellation now would refund (decimal string, e.g. "7500.00"); "0.00" for none'),
    currency: z.string(),
    rule: z
      .enum(CANCELLATION_RULES)
      .describe(
        "cooling_off: within the cooling-off days of the period's start, the whole premium of the period; pro_rata: the unused whole days of the period; claim_on_cover: a claim on this coverage was approved or paid in the period, nothing",
      ),
    periodStart: z.iso.datetime(),
    periodEnd: z.iso.datetime(),
    premium: z.string().describe("What the period's payment left to refund (its amount less earlier refunds of it)"),
    usedDays: z.number().int().describe("Days of the period begun by now (24-hour blocks from its start)"),
    periodDays: z.number().int(),
    coolingOffDays: z.number().int(),
    paymentReference: z.string().nullable().describe("The payment a refund would go back to"),
  })
  .meta({ id: "CancellationQuote" });
export type CancellationQuote = z.output<typeof CancellationQuote>;

export const CancelCoverageInput = z
  .strictObject({
    reason: z
      .string("Say why the coverage is cancelled")
      .trim()
      .min(1, "Say why the coverage is cancelled")
      .max(500, "Keep the reason under 500 characters"),
    refund: z
      .enum(["auto", "none"], 'Choose "auto" (refund by the rule) or "none"')
      .default("auto")
      .describe("auto (default): refund what the cancellation quote says; none: cancel without a refund"),
  })
  .meta({ id: "CancelCoverageInput" });
export type CancelCoverageInput = z.output<typeof CancelCoverageInput>;

export const CancelledCoverage = Coverage.extend({
  refund: Refund.nullable().describe("The refund the cancellation made, or null"),
}).meta({ id: "CancelledCoverage" });
export type CancelledCoverage = z.output<typeof CancelledCoverage>;

/** The policyholder cancels in the portal: a reason; the refund is always by the rule. */
export const PortalCancelInput = CancelCoverageInput.pick({ reason: true }).meta({ id: "PortalCancelInput" });
export type PortalCancelInput = z.output<typeof PortalCancelInput>;
