// Earnings and money out for the dashboard: the same services as the REST API.
import {
  EarningsOverview,
  EarningsSeries,
  LedgerTransactionList,
  ListTransactionsQuery,
  SeriesQuery,
  WithdrawState,
} from "@/lib/schemas/earnings";
import { getEarningsOverview, getEarningsSeries, getWithdrawState, listTransactions } from "@/server/earnings/service";
import { ListWithdrawalsQuery, WithdrawInput, Withdrawal, WithdrawalList } from "@/lib/schemas/withdrawals";
import { listWithdrawals, requestWithdrawal } from "@/server/withdrawals/service";
import { orgProcedure, router } from "../init";

export const earningsRouter = router({
  overview: orgProcedure.output(EarningsOverview).query(({ ctx }) => getEarningsOverview(ctx.actor)),
  transactions: orgProcedure
    .input(ListTransactionsQuery)
    .output(LedgerTransactionList)
    .query(({ ctx, input }) => listTransactions(ctx.actor, input)),
  withdrawals: orgProcedure
    .input(ListWithdrawalsQuery)
    .output(WithdrawalList)
    .query(({ ctx, input }) => listWithdrawals(ctx.actor, input)),
  withdraw: orgProcedure
    .input(WithdrawInput)
    .output(Withdrawal)
    .mutation(({ ctx, input }) => requestWithdrawal(ctx.actor, input)),
  withdrawState: orgProcedure.output(WithdrawState).query(({ ctx }) => getWithdrawState(ctx.actor)),
  series: orgProcedure
    .input(SeriesQuery)
    .output(EarningsSeries)
    .query(({ ctx, input }) => getEarningsSeries(ctx.actor, input)),
});
