import { EarningsOverview, LedgerTransactionList, ListTransactionsQuery } from "@/lib/schemas/earnings";
import { getEarningsOverview, listTransactions } from "@/server/earnings/service";
import { ListWithdrawalsQuery, WithdrawInput, Withdrawal, WithdrawalList } from "@/lib/schemas/withdrawals";
import { listWithdrawals, requestWithdrawal } from "@/server/withdrawals/service";
import { endpoint } from "../endpoint";

const tag = "Earnings";

export const earningsEndpoints = [
  // GET /api/v1/business/earnings/overview
  endpoint({
    method: "GET",
    path: "/business/earnings/overview",
    operationId: "getEarningsOverview",
    summary: "Earnings overview",
    description:
      "`availableBalance` is every ledger entry summed: payments less platform fees, less withdrawals, plus reversed (failed) withdrawals.",
    tag,
    permission: "read",
    response: EarningsOverview,
    handler: ({ actor }) => getEarningsOverview(actor),
  }),
  // GET /api/v1/business/earnings/transactions — the ledger, newest first
  endpoint({
    method: "GET",
    path: "/business/earnings/transactions",
    operationId: "listLedgerTransactions",
    summary: "List ledger transactions",
    description: "`from` and `to` are UTC days (`to` inclusive); `from` after `to` → 400 `invalid_query`.",
    tag,
    permission: "read",
    query: ListTransactionsQuery,
    response: LedgerTransactionList,
    handler: ({ actor, query }) => listTransactions(actor, query),
  }),
  // POST /api/v1/business/earnings/withdraw — money out to a verified bank account
  endpoint({
    method: "POST",
    path: "/business/earnings/withdraw",
    operationId: "requestWithdrawal",
    summary: "Withdraw",
    description:
      "Owner or admin only. Checked in this order: KYB approved (409 `kyb_not_approved`), the bank account of this organization (404) and verified (409 `bank_account_not_verified`), `amount` ≤ the available balance (409 `insufficient_funds`). Minimum 1.00 (422). The amount leaves the balance at once; a failed payout returns it. Send an `Idempotency-Key` to retry safely.",
    tag,
    permission: "write",
    body: WithdrawInput,
    response: Withdrawal,
    status: 201,
    errors: ["kyb_not_approved", "bank_account_not_verified", "insufficient_funds"],
    handler: ({ actor, body }) => requestWithdrawal(actor, body),
  }),
  // GET /api/v1/business/earnings/withdrawals — newest first
  endpoint({
    method: "GET",
    path: "/business/earnings/withdrawals",
    operationId: "listWithdrawals",
    summary: "List withdrawals",
    tag,
    permission: "read",
    query: ListWithdrawalsQuery,
    response: WithdrawalList,
    handler: ({ actor, query }) => listWithdrawals(actor, query),
  }),
];
