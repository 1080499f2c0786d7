import {
  Claim,
  ClaimDetail,
  ClaimList,
  ClaimRowList,
  ClaimWithHistory,
  CreateClaimInput,
  ListClaimsQuery,
  SearchClaimsQuery,
  UpdateClaimStatusInput,
} from "@/lib/schemas/claims";
import {
  getClaimDetail,
  getClaimWithHistory,
  listClaims,
  searchClaims,
  submitClaim,
  updateClaimStatus,
} from "@/server/claims/service";
import { CustomerDetail, CustomerList, ListCustomersQuery } from "@/lib/schemas/customers";
import { getCustomer, listCustomers } from "@/server/customers/service";
import { CustomerReminderList, SimulateEndInput } from "@/lib/schemas/coverage-reminders";
import { listCustomerReminders, simulateCoverageEnd } from "@/server/coverages/reminders";
import { Coverage, CoverageList, ListCoveragesQuery } from "@/lib/schemas/coverages";
import { listCoverages } from "@/server/coverages/service";
import { IdParam } from "@/lib/schemas/ids";
import {
  InitializePaymentInput,
  ListPaymentsQuery,
  Payment,
  PaymentDetail,
  PaymentFilters,
  PaymentList,
  PaymentRowList,
  PaymentTotals,
  ReferenceParam,
  SearchPaymentsQuery,
  VerifiedPayment,
} from "@/lib/schemas/payments";
import { getPaymentDetail, paymentTotals, searchPayments } from "@/server/payments/search";
import { initializePayment, listPayments, verifyPayment } from "@/server/payments/service";
import { orgProcedure, router } from "../init";

export const paymentsRouter = router({
  list: orgProcedure
    .input(ListPaymentsQuery)
    .output(PaymentList)
    .query(({ ctx, input }) => listPayments(ctx.actor, input)),
  initialize: orgProcedure
    .input(InitializePaymentInput)
    .output(Payment)
    .mutation(({ ctx, input }) => initializePayment(ctx.actor, input)),
  verify: orgProcedure
    .input(ReferenceParam)
    .output(VerifiedPayment)
    .query(({ ctx, input }) => verifyPayment(ctx.actor, input.reference)),
  /** The Payments page: filters, search, policy names, fee and net. */
  search: orgProcedure
    .input(SearchPaymentsQuery)
    .output(PaymentRowList)
    .query(({ ctx, input }) => searchPayments(ctx.actor, input)),
  totals: orgProcedure
    .input(PaymentFilters)
    .output(PaymentTotals)
    .query(({ ctx, input }) => paymentTotals(ctx.actor, input)),
  detail: orgProcedure
    .input(ReferenceParam)
    .output(PaymentDetail)
    .query(({ ctx, input }) => getPaymentDetail(ctx.actor, input.reference)),
});

export const customersRouter = router({
  list: orgProcedure
    .input(ListCustomersQuery)
    .output(CustomerList)
    .query(({ ctx, input }) => listCustomers(ctx.actor, input)),
  get: orgProcedure
    .input(IdParam)
    .output(CustomerDetail)
    .query(({ ctx, input }) => getCustomer(ctx.actor, input.id)),
  /** The renewal reminders of the customer's coverages, with their mail's state. */
  reminders: orgProcedure
    .input(IdParam)
    .output(CustomerReminderList)
    .query(({ ctx, input }) => listCustomerReminders(ctx.actor, input.id)),
});

export const coveragesRouter = router({
  list: orgProcedure
    .input(ListCoveragesQuery)
    .output(CoverageList)
    .query(({ ctx, input }) => listCoverages(ctx.actor, input)),
  /** Test mode only (409 test_mode_only live): the coverage ends in N days; the worker, woken by the mutation, does the rest. */
  simulateEnd: orgProcedure
    .input(SimulateEndInput)
    .output(Coverage)
    .mutation(({ ctx, input }) => simulateCoverageEnd(ctx.actor, input)),
});

export const claimsRouter = router({
  list: orgProcedure
    .input(ListClaimsQuery)
    .output(ClaimList)
    .query(({ ctx, input }) => listClaims(ctx.actor, input)),
  get: orgProcedure
    .input(IdParam)
    .output(ClaimWithHistory)
    .query(({ ctx, input }) => getClaimWithHistory(ctx.actor, input.id)),
  /** The Claims page: filters, search, policy names and customers. */
  search: orgProcedure
    .input(SearchClaimsQuery)
    .output(ClaimRowList)
    .query(({ ctx, input }) => searchClaims(ctx.actor, input)),
  detail: orgProcedure
    .input(IdParam)
    .output(ClaimDetail)
    .query(({ ctx, input }) => getClaimDetail(ctx.actor, input.id)),
  submit: orgProcedure
    .input(CreateClaimInput)
    .output(Claim)
    .mutation(({ ctx, input }) => submitClaim(ctx.actor, input)),
  updateStatus: orgProcedure
    .input(IdParam.extend({ data: UpdateClaimStatusInput }))
    .output(Claim)
    .mutation(({ ctx, input }) => updateClaimStatus(ctx.actor, input.id, input.data)),
});
