import { addClaimAttachments, getClaimAttachments, MAX_CLAIM_ATTACHMENTS } from "@/server/claims/attachments";
import {
  Claim,
  ClaimAttachment,
  ClaimAttachmentList,
  ClaimList,
  CreateClaimInput,
  ListClaimsQuery,
  UpdateClaimStatusInput,
  UploadClaimAttachmentInput,
} from "@/lib/schemas/claims";
import { getClaim, listClaims, submitClaim, updateClaimStatus } from "@/server/claims/service";
import { endpoint, IdParam } from "../endpoint";

const tag = "Claims";
const uploadNote =
  "multipart/form-data with one `file` part. The file must be a PDF, PNG or JPEG by its content (else 415) and at most MAX_UPLOAD_BYTES, 10 MiB by default (else 413). Download it from `url` with an API key of this organization.";

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
    description: "The claim as every claim answer gives it; its evidence is at `GET /claims/{id}/attachments`.",
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
  // POST /api/v1/claims/{id}/attachments — add evidence (multipart: file)
  endpoint({
    method: "POST",
    path: "/claims/{id}/attachments",
    operationId: "addClaimAttachment",
    summary: "Attach a file to a claim",
    description: `Evidence for the claim: a photo, an invoice, a police report. A claim holds at most ${MAX_CLAIM_ATTACHMENTS} attachments, whoever added them (API, dashboard or the customer portal); one more answers 409 \`attachment_limit\` and nothing is stored. ${uploadNote}`,
    tag,
    permission: "write",
    params: IdParam,
    multipart: { files: ["file"] },
    body: UploadClaimAttachmentInput,
    response: ClaimAttachment,
    status: 201,
    errors: ["attachment_limit"],
    handler: async ({ actor, params, body }) => {
      const [attachment] = await addClaimAttachments(actor, params.id, [body.file], actor.apiKey ? "api" : "dashboard");
      return attachment!;
    },
  }),
  // GET /api/v1/claims/{id}/attachments
  endpoint({
    method: "GET",
    path: "/claims/{id}/attachments",
    operationId: "listClaimAttachments",
    summary: "List a claim's attachments",
    description: `Every attachment of the claim, oldest first, on one page (at most ${MAX_CLAIM_ATTACHMENTS}; \`nextCursor\` is always null). Download each from its \`url\` with an API key of this organization.`,
    tag,
    permission: "read",
    params: IdParam,
    response: ClaimAttachmentList,
    handler: async ({ actor, params }) => ({ data: await getClaimAttachments(actor, params.id), nextCursor: null }),
  }),
];
