import {
  Claim,
  ClaimList,
  ClaimWithHistory,
  CreateClaimInput,
  ListClaimsQuery,
  UpdateClaimStatusInput,
} from "@/server/claims/schemas";
import { getClaimWithHistory, listClaims, submitClaim, updateClaimStatus } from "@/server/claims/service";
import { CoverageList, ListCoveragesQuery } from "@/server/coverages/schemas";
import { listCoverages } from "@/server/coverages/service";
import { IdParam } from "@/server/ids";
import {
  InitializePaymentInput,
  ListPaymentsQuery,
  Payment,
  PaymentList,
  ReferenceParam,
  VerifiedPayment,
} from "@/server/payments/schemas";
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
});

export const coveragesRouter = router({
  list: orgProcedure
    .input(ListCoveragesQuery)
    .output(CoverageList)
    .query(({ ctx, input }) => listCoverages(ctx.actor, input)),
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
  submit: orgProcedure
    .input(CreateClaimInput)
    .output(Claim)
    .mutation(({ ctx, input }) => submitClaim(ctx.actor, input)),
  updateStatus: orgProcedure
    .input(IdParam.extend({ data: UpdateClaimStatusInput }))
    .output(Claim)
    .mutation(({ ctx, input }) => updateClaimStatus(ctx.actor, input.id, input.data)),
});
