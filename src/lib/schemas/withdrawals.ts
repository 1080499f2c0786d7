import { z } from "@/lib/messages";
import { AmountNumber, oneMajor } from "@/lib/money";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

export const WITHDRAWAL_STATUSES = ["pending", "processing", "paid", "failed"] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** The smallest withdrawal, in the currency's minor units: one major unit (₦1.00, ¥1). */
export const minWithdrawalMinor = (currency: string): bigint => oneMajor(currency);

export const WithdrawInput = z
  .strictObject({
    amount: AmountNumber.refine((amount) => amount.atLeast(1n), "Withdraw at least 1").describe(
      "At least 1, with at most the currency's decimals (2 for NGN), e.g. 2500 or 2500.5",
    ),
    bankAccountId: z.string().min(1).max(100).describe("A verified bank account"),
  })
  .meta({ id: "WithdrawInput" });
export type WithdrawInput = z.output<typeof WithdrawInput>;

export const Withdrawal = z
  .object({
    id: z.string(),
    amount: z.string().describe('Decimal string, e.g. "2500.00"'),
    currency: z.string(),
    bankAccountId: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES),
    failureReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable().describe("When it was paid or failed"),
  })
  .meta({ id: "Withdrawal" });
export type Withdrawal = z.output<typeof Withdrawal>;

export const WithdrawalList = pageOf(Withdrawal, "WithdrawalList");

export const ListWithdrawalsQuery = PageQuery.extend({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
});
export type ListWithdrawalsQuery = z.output<typeof ListWithdrawalsQuery>;
