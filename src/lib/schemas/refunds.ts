import { z } from "@/lib/messages";
import { AmountNumber } from "@/lib/money";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

export const REFUND_STATUSES = ["pending", "processed", "failed"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const RefundPaymentInput = z
  .strictObject({
    amount: AmountNumber
      .optional()
      .describe("At most what is left to refund of the payment (the default), e.g. 50 or 49.99"),
    reason: z.string().trim().max(500, "Keep the reason under 500 characters").optional().describe("Why, for your records"),
  })
  .meta({ id: "RefundPaymentInput" });
export type RefundPaymentInput = z.output<typeof RefundPaymentInput>;

export const Refund = z
  .object({
    id: z.string(),
    paymentReference: z.string(),
    amount: z.string().describe('Decimal string, e.g. "50.00"'),
    currency: z.string(),
    reason: z.string().nullable(),
    status: z.enum(REFUND_STATUSES),
    failureReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
    processedAt: z.iso.datetime().nullable().describe("When it was processed or failed"),
  })
  .meta({ id: "Refund" });
export type Refund = z.output<typeof Refund>;

export const RefundList = pageOf(Refund, "RefundList");

export const ListRefundsQuery = PageQuery.extend({
  status: z.enum(REFUND_STATUSES).optional(),
  paymentReference: z.string().min(1).max(1000).optional(),
});
export type ListRefundsQuery = z.output<typeof ListRefundsQuery>;
