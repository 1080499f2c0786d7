// Earnings and money out: the REST API and the dashboard call the same services.
import {
  EarningsOverview,
  EarningsSeries,
  LedgerTransactionList,
  ListTransactionsQuery,
  SeriesQuery,
  WithdrawState,
} from "@/lib/schemas/earnings";
import { ListWithdrawalsQuery, WithdrawInput, Withdrawal, WithdrawalList } from "@/lib/schemas/withdrawals";
import { getEarningsOverview, getEarningsSeries, getWithdrawState, listTransactions } from "@/server/earnings/service";
import { listWithdrawals, requestWithdrawal } from "@/server/withdrawals/service";
import { operation } from "./operation";

const tag = "Earnings";

export const earningsOperations = [
  // GET /api/v1/business/earnings/overview
  operation({
    name: "earnings.overview",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    output: EarningsOverview,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/earnings/overview",
      operationId: "getEarningsOverview",
      summary: "Earnings overview",
      description:
        "`availableBalance` is every ledger entry summed: payments less platform fees, less withdrawals, refunds and claim payouts, plus those that failed (reversed). `totalRefunded` and `totalClaimsPaid` count the refunds and claim payouts that did not fail.",
      tag,
    },
    handler: ({ actor }) => getEarningsOverview(actor),
  }),
  // GET /api/v1/business/earnings/transactions — the ledger, newest first
  operation({
    name: "earnings.transactions",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListTransactionsQuery,
    output: LedgerTransactionList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/earnings/transactions",
      operationId: "listLedgerTransactions",
      summary: "List ledger transactions",
      description: "`from` and `to` are UTC days (`to` inclusive); `from` after `to` → 400 `invalid_query`.",
      tag,
      query: ListTransactionsQuery,
    },
    handler: ({ actor, input }) => listTransactions(actor, input),
  }),
  // POST /api/v1/business/earnings/withdraw — money out to a verified bank account
  operation({
    name: "earnings.withdraw",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: WithdrawInput,
    output: Withdrawal,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/earnings/withdraw",
      operationId: "requestWithdrawal",
      summary: "Withdraw",
      description:
        "Owner or admin only. Checked in this order: KYB approved (409 `kyb_not_approved`), the bank account of this organization (404) and verified (409 `bank_account_not_verified`), `amount` ≤ the available balance (409 `insufficient_funds`). Minimum one unit of the currency, 1.00 for NGN (422). The amount leaves the balance at once; a failed payout returns it. Send an `Idempotency-Key` to retry safely.",
      tag,
      body: WithdrawInput,
      status: 201,
      errors: ["kyb_not_approved", "bank_account_not_verified", "insufficient_funds"],
    },
    handler: ({ actor, input }) => requestWithdrawal(actor, input),
  }),
  // GET /api/v1/business/earnings/withdrawals — newest first
  operation({
    name: "earnings.withdrawals",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListWithdrawalsQuery,
    output: WithdrawalList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/earnings/withdrawals",
      operationId: "listWithdrawals",
      summary: "List withdrawals",
      tag,
      query: ListWithdrawalsQuery,
    },
    handler: ({ actor, input }) => listWithdrawals(actor, input),
  }),
  operation({
    name: "earnings.withdrawState",
    auth: ["session"],
    permission: "read",
    kind: "query",
    output: WithdrawState,
    dashboard: true,
    handler: ({ actor }) => getWithdrawState(actor),
  }),
  operation({
    name: "earnings.series",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: SeriesQuery,
    output: EarningsSeries,
    dashboard: true,
    handler: ({ actor, input }) => getEarningsSeries(actor, input),
  }),
] as const;
