import { DayParam } from "@/lib/schemas/when";
import { fromNotAfterTo, MAX_SERIES_DAYS, RANGE_MESSAGES, withinMax } from "@/lib/date-range";
import { z } from "@/lib/messages";
import { KYB_STATUSES } from "@/lib/schemas/kyb";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

export const LEDGER_TYPES = [
  "payment",
  "fee",
  "withdrawal",
  "withdrawal_reversal",
  "refund",
  "refund_reversal",
  "claim_payout",
  "claim_payout_reversal",
] as const;
// The range rules (src/lib/date-range.ts: the longest series, from ≤ to) live where
// the dashboard's range picker imports them without zod.
export { MAX_SERIES_DAYS };
export type LedgerType = (typeof LEDGER_TYPES)[number];

const DAY_MS = 86_400_000;

/** A calendar day "2026-01-31" (UTC) that exists. */
const IsoDay = DayParam;

/** The UTC instant a "YYYY-MM-DD" day starts. */
export const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
/** The UTC instant after the last of the day: `to` is inclusive. */
export const dayEnd = (day: string) => new Date(dayStart(day).getTime() + DAY_MS);

export const ListTransactionsQuery = PageQuery.extend({
  type: z.enum(LEDGER_TYPES).optional(),
  fees: z
    .enum(["separate", "folded"])
    .default("separate")
    .describe(
      "separate (default): every ledger entry, a payment's fee as its own `fee` entry; folded: one row per payment — its fee folded into the payment's row (`fee`, `net`) and no `fee` rows, as the dashboard's statement shows",
    ),
  from: IsoDay.optional().describe("First day (UTC), inclusive"),
  to: IsoDay.optional().describe("Last day (UTC), inclusive"),
}).refine(fromNotAfterTo, { message: RANGE_MESSAGES.order, path: ["from"] });
export type ListTransactionsQuery = z.output<typeof ListTransactionsQuery>;

export const SeriesQuery = z
  .object({
    from: IsoDay.optional().describe("First day (UTC); default 29 days before `to`"),
    to: IsoDay.optional().describe("Last day (UTC), inclusive; default today"),
  })
  .refine(fromNotAfterTo, { message: RANGE_MESSAGES.order, path: ["from"] })
  .refine(withinMax, { message: RANGE_MESSAGES.max, path: ["to"] });
export type SeriesQuery = z.output<typeof SeriesQuery>;

const Money = z.string().describe('Decimal string, e.g. "150.00"');

export const EarningsOverview = z
  .object({
    currency: z.string(),
    totalEarned: Money.describe("Sum of successful payments"),
    platformFees: Money.describe("Sum of platform fees (positive)"),
    availableBalance: Money.describe("What can be withdrawn now: every ledger entry summed"),
    pendingWithdrawals: Money.describe("Withdrawals pending or processing"),
    totalWithdrawn: Money.describe("Withdrawals paid"),
    totalRefunded: Money.describe("Refunds to customers, pending or processed (failed ones came back)"),
    totalClaimsPaid: Money.describe("Claim payouts sent through Coverdesk, pending, processing or paid (failed ones came back)"),
    last30Days: z.object({
      net: Money.describe("Payments less fees, in the last 30 days"),
      previous30DaysNet: Money.describe("The same, in the 30 days before"),
    }),
  })
  .meta({ id: "EarningsOverview" });
export type EarningsOverview = z.output<typeof EarningsOverview>;

export const LedgerTransaction = z
  .object({
    id: z.string(),
    type: z.enum(LEDGER_TYPES),
    amount: z.string().describe('Signed decimal string: credits positive, debits negative, e.g. "-1.50"'),
    currency: z.string(),
    reference: z.string().describe("The payment's, withdrawal's, refund's or claim payout's reference"),
    description: z.string(),
    createdAt: z.iso.datetime(),
    balanceAfter: Money.nullable().describe(
      "The organization's balance right after this entry (the statement's running balance); null when the list is filtered by `type`, which leaves entries out",
    ),
    fee: Money.nullable().describe('With `fees=folded`, on a payment: the platform fee taken from it (positive, e.g. "2.25"); else null'),
    net: Money.nullable().describe("With `fees=folded`, on a payment: what it added to the balance, amount less fee; else null"),
  })
  .meta({ id: "LedgerTransaction" });
export type LedgerTransaction = z.output<typeof LedgerTransaction>;

export const LedgerTransactionList = pageOf(LedgerTransaction, "LedgerTransactionList");

export const WITHDRAW_DISABLED_REASONS = ["kyb_not_approved", "no_verified_account", "nothing_available"] as const;

/** What the dashboard needs to offer (or explain why not) a withdrawal. */
export const WithdrawState = z.object({
  kybStatus: z.enum(KYB_STATUSES),
  hasVerifiedAccount: z.boolean(),
  available: Money,
  currency: z.string(),
  disabledReason: z.enum(WITHDRAW_DISABLED_REASONS).nullable(),
});
export type WithdrawState = z.output<typeof WithdrawState>;

export const SeriesPoint = z.object({
  date: z.iso.date(),
  gross: Money,
  fees: Money.describe("Platform fees (positive)"),
  net: Money,
});
export const EarningsSeries = z.array(SeriesPoint);
export type EarningsSeries = z.output<typeof EarningsSeries>;
