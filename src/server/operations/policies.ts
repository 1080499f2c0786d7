// Policies: the REST API and the dashboard call the same services.
import { z } from "@/lib/messages";
import { PolicyAnalyticsQuery } from "@/lib/schemas/analytics";
import { IdParam } from "@/lib/schemas/ids";
import {
  CreatePolicyInput,
  ListPoliciesQuery,
  Policy,
  PolicyAnalytics,
  PolicyAnalyticsInput,
  PolicyList,
  PolicyStatusInput,
  UpdatePolicyInput,
} from "@/lib/schemas/policies";
import { getPolicyAnalytics } from "@/server/policies/analytics";
import { createPolicy, deletePolicy, getPolicy, listPolicies, setPolicyStatus, updatePolicy } from "@/server/policies/service";
import { operation } from "./operation";

const tag = "Policies";

export const policyOperations = [
  // GET /api/v1/business/policies — the catalogue, newest first
  operation({
    name: "policies.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListPoliciesQuery,
    output: PolicyList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/policies",
      operationId: "listPolicies",
      summary: "List policies",
      description:
        "Filter with `isActive`, `type` and `q` (name contains, case-insensitive). Soft-deleted policies are listed as inactive.",
      tag,
      query: ListPoliciesQuery,
    },
    handler: ({ actor, input }) => listPolicies(actor, input),
  }),
  // POST /api/v1/business/policies — publish a policy
  operation({
    name: "policies.create",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: CreatePolicyInput,
    output: Policy,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/policies",
      operationId: "createPolicy",
      summary: "Create a policy",
      tag,
      body: CreatePolicyInput,
      status: 201,
    },
    handler: ({ actor, input }) => createPolicy(actor, input),
  }),
  // GET /api/v1/business/policies/{id}
  operation({
    name: "policies.get",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: Policy,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/policies/{id}",
      operationId: "getPolicy",
      summary: "Get a policy",
      tag,
      params: IdParam,
    },
    handler: ({ actor, input }) => getPolicy(actor, input.id),
  }),
  // PUT /api/v1/business/policies/{id} — change any subset of fields
  operation({
    name: "policies.update",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam.extend({ data: UpdatePolicyInput }),
    output: Policy,
    dashboard: true,
    rest: {
      method: "PUT",
      path: "/business/policies/{id}",
      operationId: "updatePolicy",
      summary: "Update a policy",
      description: "Changes the fields given; the others keep their values. Use the status endpoint for `isActive`.",
      tag,
      params: IdParam,
      body: UpdatePolicyInput,
      input: ({ params, body }) => ({ id: params.id, data: body }),
    },
    handler: ({ actor, input }) => updatePolicy(actor, input.id, input.data),
  }),
  // DELETE /api/v1/business/policies/{id} — soft delete: inactive, still readable
  operation({
    name: "policies.delete",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: Policy,
    dashboard: true,
    rest: {
      method: "DELETE",
      path: "/business/policies/{id}",
      operationId: "deletePolicy",
      summary: "Delete a policy (soft)",
      description:
        "Sets `isActive` to false. The policy stays readable and listed, since payments, coverages and claims refer to it.",
      tag,
      params: IdParam,
    },
    handler: ({ actor, input }) => deletePolicy(actor, input.id),
  }),
  // PATCH /api/v1/business/policies/{id}/status — activate or deactivate
  operation({
    name: "policies.setStatus",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam.extend({ isActive: z.boolean() }),
    output: Policy,
    dashboard: true,
    rest: {
      method: "PATCH",
      path: "/business/policies/{id}/status",
      operationId: "setPolicyStatus",
      summary: "Activate or deactivate a policy",
      tag,
      params: IdParam,
      body: PolicyStatusInput,
    },
    handler: ({ actor, input }) => setPolicyStatus(actor, input.id, input.isActive),
  }),
  // GET /api/v1/business/policies/{id}/analytics — sales and performance
  operation({
    name: "policies.analytics",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: PolicyAnalyticsInput,
    output: PolicyAnalytics,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/policies/{id}/analytics",
      operationId: "getPolicyAnalytics",
      summary: "Policy analytics",
      description:
        "Purchases, renewals, revenue, claims, loss ratio and conversion over the range (`from`/`to`, UTC days, default the last 30 days), active coverages now, and a series by day, ISO week (from Monday) or month (`granularity`, default `day`).",
      tag,
      params: IdParam,
      query: PolicyAnalyticsQuery,
    },
    handler: ({ actor, input: { id, ...query } }) => getPolicyAnalytics(actor, id, query),
  }),
] as const;
