import { Claim, ClaimList, CreateClaimInput, ListClaimsQuery, UpdateClaimStatusInput } from "@/server/claims/schemas";
import { getClaim, listClaims, submitClaim, updateClaimStatus } from "@/server/claims/service";
import { endpoint, IdParam } from "../endpoint";

const tag = "Claims";

export const claimEndpoints = [
  // GET /api/v1/claims
  endpoint({
    method: "GET",
    path: "/claims",
    operationId: "listClaims",
    summary: "List claims",
    tag,
    permission: "read",
    query: ListClaimsQuery,
    response: ClaimList,
    handler: ({ actor, query }) => listClaims(actor, query),
  }),
  // POST /api/v1/claims — submit a claim
  endpoint({
    method: "POST",
    path: "/claims",
    operationId: "submitClaim",
    summary: "Submit a claim",
    description: "Give the customer's `email` to link the claim to their coverage of the policy. Emits `claim.submitted`.",
    tag,
    permission: "write",
    body: CreateClaimInput,
    response: Claim,
    status: 201,
    handler: ({ actor, body }) => submitClaim(actor, body),
  }),
  // GET /api/v1/claims/{id}
  endpoint({
    method: "GET",
    path: "/claims/{id}",
    operationId: "getClaim",
    summary: "Get a claim",
    tag,
    permission: "read",
    params: IdParam,
    response: Claim,
    handler: ({ actor, params }) => getClaim(actor, params.id),
  }),
  // PATCH /api/v1/claims/{id}/status — move the review along
  endpoint({
    method: "PATCH",
    path: "/claims/{id}/status",
    operationId: "updateClaimStatus",
    summary: "Change a claim's status",
    description: "submitted → under_review → approved or rejected; approved → paid. Any other move answers 409 `invalid_state`.",
    tag,
    permission: "write",
    params: IdParam,
    body: UpdateClaimStatusInput,
    response: Claim,
    errors: ["invalid_state"],
    handler: ({ actor, params, body }) => updateClaimStatus(actor, params.id, body),
  }),
];
