import { z } from "@/lib/messages";
import { getPolicyAnalytics } from "@/server/policies/analytics";
import {
  CreatePolicyInput,
  ListPoliciesQuery,
  Policy,
  PolicyAnalytics,
  PolicyAnalyticsInput,
  PolicyList,
  UpdatePolicyInput,
} from "@/lib/schemas/policies";
import { createPolicy, deletePolicy, getPolicy, listPolicies, setPolicyStatus, updatePolicy } from "@/server/policies/service";
import { IdParam } from "@/lib/schemas/ids";
import { orgProcedure, router } from "../init";

export const policiesRouter = router({
  list: orgProcedure
    .input(ListPoliciesQuery)
    .output(PolicyList)
    .query(({ ctx, input }) => listPolicies(ctx.actor, input)),
  get: orgProcedure
    .input(IdParam)
    .output(Policy)
    .query(({ ctx, input }) => getPolicy(ctx.actor, input.id)),
  analytics: orgProcedure
    .input(PolicyAnalyticsInput)
    .output(PolicyAnalytics)
    .query(({ ctx, input: { id, ...query } }) => getPolicyAnalytics(ctx.actor, id, query)),
  create: orgProcedure
    .input(CreatePolicyInput)
    .output(Policy)
    .mutation(({ ctx, input }) => createPolicy(ctx.actor, input)),
  update: orgProcedure
    .input(IdParam.extend({ data: UpdatePolicyInput }))
    .output(Policy)
    .mutation(({ ctx, input }) => updatePolicy(ctx.actor, input.id, input.data)),
  setStatus: orgProcedure
    .input(IdParam.extend({ isActive: z.boolean() }))
    .output(Policy)
    .mutation(({ ctx, input }) => setPolicyStatus(ctx.actor, input.id, input.isActive)),
  delete: orgProcedure
    .input(IdParam)
    .output(Policy)
    .mutation(({ ctx, input }) => deletePolicy(ctx.actor, input.id)),
});
