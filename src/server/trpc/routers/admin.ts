// Platform administration for the /admin pages: the KYB review queue and the
// decisions. Every procedure answers 404 to anyone but a platform admin.
import { KybQueueInput, KybQueuePage, KybReview, OrganizationRef } from "@/server/admin/schemas";
import { approveKyb, kybQueue, kybReview, rejectKyb } from "@/server/admin/service";
import { Kyb, RejectKybInput } from "@/server/kyb/schemas";
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
});
