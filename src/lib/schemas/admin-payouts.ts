import { z } from "@/lib/messages";
import { pageOf } from "@/lib/schemas/pagination";
import { WITHDRAWAL_STATUSES } from "@/lib/schemas/withdrawals";

// Not strict: tRPC's infinite queries add `direction` beside the cursor.
export const PayoutsInput = z
  .object({
    status: z.enum(WITHDRAWAL_STATUSES).optional().describe("Only withdrawals in this status; all by default"),
    limit: z.number().int().min(1).max(100).default(20).describe("Page size, 1–100"),
    // Checked by the service (400 `invalid_query` for a cursor it did not issue).
    cursor: z.string().max(200).nullish().describe("`nextCursor` from the previous page"),
  })
  .meta({ id: "PayoutsInput" });
export type PayoutsInput = z.output<typeof PayoutsInput>;

export const PayoutItem = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    organizationName: z.string(),
    amount: z.string().describe('Decimal string, e.g. "2500.00"'),
    currency: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES),
    failureReason: z.string().nullable(),
    bankName: z.string(),
    accountNumberLast4: z.string(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "PayoutItem" });
export type PayoutItem = z.output<typeof PayoutItem>;

export const PayoutsPage = pageOf(PayoutItem, "PayoutsPage");

export const PayoutRef = z.strictObject({ id: z.string().min(1).max(100) }).meta({ id: "PayoutRef" });
export type PayoutRef = z.output<typeof PayoutRef>;
