// The shapes the money-out pages show, as the tRPC procedures return them.
import type { inferRouterOutputs } from "@trpc/server";
import type { LedgerType } from "@/lib/schemas/earnings";
import type { WithdrawalStatus as ApiWithdrawalStatus } from "@/lib/schemas/withdrawals";
import type { AppRouter } from "@/server/trpc/root";

type Out = inferRouterOutputs<AppRouter>;

export type EarningsOverview = Out["earnings"]["overview"];
export type WithdrawState = Out["earnings"]["withdrawState"];
export type LedgerTransaction = Out["earnings"]["transactions"]["data"][number];
export type Withdrawal = Out["earnings"]["withdrawals"]["data"][number];
export type SeriesPoint = Out["earnings"]["series"][number];
export type BankAccount = Out["bankAccounts"]["list"]["data"][number];

export const TRANSACTION_TYPES = [
  "payment",
  "fee",
  "withdrawal",
  "withdrawal_reversal",
  "refund",
  "refund_reversal",
  "claim_payout",
  "claim_payout_reversal",
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_LABEL: Record<TransactionType, string> = {
  payment: "Payment",
  fee: "Platform fee",
  withdrawal: "Withdrawal",
  withdrawal_reversal: "Withdrawal reversed",
  refund: "Refund",
  refund_reversal: "Refund failed (money back)",
  claim_payout: "Claim payout",
  claim_payout_reversal: "Claim payout failed (money back)",
};

export const WITHDRAWAL_STATUSES = ["pending", "processing", "paid", "failed"] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

// These lists are the API's (LEDGER_TYPES, WITHDRAWAL_STATUSES in src/lib/schemas), written
// out so the page does not load the schema module; the types below fail to compile if
// either side gains or loses a value.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
type _ListsMatchTheApi = [Holds<Same<TransactionType, LedgerType>>, Holds<Same<WithdrawalStatus, ApiWithdrawalStatus>>];
export const isInFlight = (status: string) => status === "pending" || status === "processing";
