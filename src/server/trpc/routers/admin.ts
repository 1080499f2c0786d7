// Platform administration for the /admin pages: the KYB review queue and the
// decisions, and every organization's payouts. Every procedure answers 404 to anyone but a platform admin.
import { PayoutItem, PayoutRef, PayoutsInput, PayoutsPage } from "@/lib/schemas/admin-payouts";
import { listPayouts, retryPayout } from "@/server/admin/payouts";
import { KybQueueInput, KybQueuePage, KybReview, OrganizationRef } from "@/lib/schemas/admin";
import { approveKyb, kybQueue, kybReview, rejectKyb } from "@/server/admin/service";
import { Kyb, RejectKybInput } from "@/lib/schemas/kyb";
import { platformAdminProcedure, router } from "../init";

export const adminRouter = router({
  kybQueue: platformAdminProcedure
    .input(KybQueueInput)
    .output(KybQueuePage)
    .query(({ ctx, input }) => kybQueue(ctx.admin, input)),
  kybReview: platformAdminProcedure
    .input(OrganizationRef)
    .output(KybReview)
    .query(({ ctx, input }) => kybReview(ctx.admin, input.organizationId)),
  approveKyb: platformAdminProcedure
    .input(OrganizationRef)
    .output(Kyb)
    .mutation(({ ctx, input }) => approveKyb(ctx.admin, input.organizationId)),
  rejectKyb: platformAdminProcedure
    .input(RejectKybInput)
    .output(Kyb)
    .mutation(({ ctx, input }) => rejectKyb(ctx.admin, input)),
  payouts: platformAdminProcedure
    .input(PayoutsInput)
    .output(PayoutsPage)
    .query(({ ctx, input }) => listPayouts(ctx.admin, input)),
  retryPayout: platformAdminProcedure
    .input(PayoutRef)
    .output(PayoutItem)
    .mutation(({ ctx, input }) => retryPayout(ctx.admin, input.id)),
});
