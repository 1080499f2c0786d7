import { z } from "zod";
import { getPolicyAnalytics } from "@/server/policies/analytics";
import { CreatePolicyInput, ListPoliciesQuery, UpdatePolicyInput } from "@/server/policies/schemas";
import { createPolicy, deletePolicy, getPolicy, listPolicies, setPolicyStatus, updatePolicy } from "@/server/policies/service";
import { IdParam } from "@/server/ids";
import { orgProcedure, router } from "../init";

export const policiesRouter = router({
  list: orgProcedure.input(ListPoliciesQuery).query(({ ctx, input }) => listPolicies(ctx.actor, input)),
  get: orgProcedure.input(IdParam).query(({ ctx, input }) => getPolicy(ctx.actor, input.id)),
  analytics: orgProcedure.input(IdParam).query(({ ctx, input }) => getPolicyAnalytics(ctx.actor, input.id)),
  create: orgProcedure.input(CreatePolicyInput).mutation(({ ctx, input }) => createPolicy(ctx.actor, input)),
  update: orgProcedure
    .input(IdParam.extend({ data: UpdatePolicyInput }))
    .mutation(({ ctx, input }) => updatePolicy(ctx.actor, input.id, input.data)),
  setStatus: orgProcedure
    .input(IdParam.extend({ isActive: z.boolean() }))
    .mutation(({ ctx, input }) => setPolicyStatus(ctx.actor, input.id, input.isActive)),
  delete: orgProcedure.input(IdParam).mutation(({ ctx, input }) => deletePolicy(ctx.actor, input.id)),
});
