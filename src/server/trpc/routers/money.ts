import { CreateClaimInput, ListClaimsQuery, UpdateClaimStatusInput } from "@/server/claims/schemas";
import { getClaimWithHistory, listClaims, submitClaim, updateClaimStatus } from "@/server/claims/service";
import { ListCoveragesQuery } from "@/server/coverages/schemas";
import { listCoverages } from "@/server/coverages/service";
import { IdParam } from "@/server/ids";
import { InitializePaymentInput, ListPaymentsQuery, ReferenceParam } from "@/server/payments/schemas";
import { initializePayment, listPayments, verifyPayment } from "@/server/payments/service";
import { orgProcedure, router } from "../init";

export const paymentsRouter = router({
  list: orgProcedure.input(ListPaymentsQuery).query(({ ctx, input }) => listPayments(ctx.actor, input)),
  initialize: orgProcedure.input(InitializePaymentInput).mutation(({ ctx, input }) => initializePayment(ctx.actor, input)),
  verify: orgProcedure.input(ReferenceParam).query(({ ctx, input }) => verifyPayment(ctx.actor, input.reference)),
});

export const coveragesRouter = router({
  list: orgProcedure.input(ListCoveragesQuery).query(({ ctx, input }) => listCoverages(ctx.actor, input)),
});

export const claimsRouter = router({
  list: orgProcedure.input(ListClaimsQuery).query(({ ctx, input }) => listClaims(ctx.actor, input)),
  get: orgProcedure.input(IdParam).query(({ ctx, input }) => getClaimWithHistory(ctx.actor, input.id)),
  submit: orgProcedure.input(CreateClaimInput).mutation(({ ctx, input }) => submitClaim(ctx.actor, input)),
  updateStatus: orgProcedure
    .input(IdParam.extend({ data: UpdateClaimStatusInput }))
    .mutation(({ ctx, input }) => updateClaimStatus(ctx.actor, input.id, input.data)),
});
