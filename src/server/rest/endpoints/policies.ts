import { PolicyAnalyticsQuery } from "@/lib/schemas/analytics";
import { getPolicyAnalytics } from "@/server/policies/analytics";
import {
  CreatePolicyInput,
  ListPoliciesQuery,
  Policy,
  PolicyAnalytics,
  PolicyList,
  PolicyStatusInput,
  UpdatePolicyInput,
} from "@/lib/schemas/policies";
import { createPolicy, deletePolicy, getPolicy, listPolicies, setPolicyStatus, updatePolicy } from "@/server/policies/service";
import { endpoint, IdParam } from "../endpoint";

const tag = "Policies";

export const policyEndpoints = [
  // GET /api/v1/business/policies — the catalogue, newest first
  endpoint({
    method: "GET",
    path: "/business/policies",
    operationId: "listPolicies",
    summary: "List policies",
    description:
      "Filter with `isActive`, `type` and `q` (name contains, case-insensitive). Soft-deleted policies are listed as inactive.",
    tag,
    permission: "read",
    query: ListPoliciesQuery,
    response: PolicyList,
    handler: ({ actor, query }) => listPolicies(actor, query),
  }),
  // POST /api/v1/business/policies — publish a policy
  endpoint({
    method: "POST",
    path: "/business/policies",
    operationId: "createPolicy",
    summary: "Create a policy",
    tag,
    permission: "write",
    body: CreatePolicyInput,
    response: Policy,
    status: 201,
    handler: ({ actor, body }) => createPolicy(actor, body),
  }),
  // GET /api/v1/business/policies/{id}
  endpoint({
    method: "GET",
    path: "/business/policies/{id}",
    operationId: "getPolicy",
    summary: "Get a policy",
    tag,
    permission: "read",
    params: IdParam,
    response: Policy,
    handler: ({ actor, params }) => getPolicy(actor, params.id),
  }),
  // PUT /api/v1/business/policies/{id} — change any subset of fields
  endpoint({
    method: "PUT",
    path: "/business/policies/{id}",
    operationId: "updatePolicy",
    summary: "Update a policy",
    description: "Changes the fields given; the others keep their values. Use the status endpoint for `isActive`.",
    tag,
    permission: "write",
    params: IdParam,
    body: UpdatePolicyInput,
    response: Policy,
    handler: ({ actor, params, body }) => updatePolicy(actor, params.id, body),
  }),
  // DELETE /api/v1/business/policies/{id} — soft delete: inactive, still readable
  endpoint({
    method: "DELETE",
    path: "/business/policies/{id}",
    operationId: "deletePolicy",
    summary: "Delete a policy (soft)",
    description:
      "Sets `isActive` to false. The policy stays readable and listed, since payments, coverages and claims refer to it.",
    tag,
    permission: "write",
    params: IdParam,
    response: Policy,
    handler: ({ actor, params }) => deletePolicy(actor, params.id),
  }),
  // PATCH /api/v1/business/policies/{id}/status — activate or deactivate
  endpoint({
    method: "PATCH",
    path: "/business/policies/{id}/status",
    operationId: "setPolicyStatus",
    summary: "Activate or deactivate a policy",
    tag,
    permission: "write",
    params: IdParam,
    body: PolicyStatusInput,
    response: Policy,
    handler: ({ actor, params, body }) => setPolicyStatus(actor, params.id, body.isActive),
  }),
  // GET /api/v1/business/policies/{id}/analytics — sales and performance
  endpoint({
    method: "GET",
    path: "/business/policies/{id}/analytics",
    operationId: "getPolicyAnalytics",
    summary: "Policy analytics",
    description:
      "Purchases, renewals, revenue, claims, loss ratio and conversion over the range (`from`/`to`, UTC days, default the last 30 days), active coverages now, and a series by day, ISO week (from Monday) or month (`granularity`, default `day`).",
    tag,
    permission: "read",
    params: IdParam,
    query: PolicyAnalyticsQuery,
    response: PolicyAnalytics,
    handler: ({ actor, params, query }) => getPolicyAnalytics(actor, params.id, query),
  }),
];
