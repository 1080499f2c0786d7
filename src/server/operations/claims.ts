// Claims: the REST API and the dashboard call the same services.
import {
  Claim,
  CLAIM_FILE_FIELDS,
  claimFormFiles,
  ClaimAttachment,
  ClaimAttachmentList,
  ClaimDetail,
  ClaimList,
  ClaimRowList,
  ClaimWithHistory,
  CreateClaimForm,
  CreateClaimInput,
  ListClaimsQuery,
  SearchClaimsQuery,
  UpdateClaimStatusInput,
  UploadClaimAttachmentInput,
} from "@/lib/schemas/claims";
import { IdParam } from "@/lib/schemas/ids";
import { addClaimAttachments, getClaimAttachments, MAX_CLAIM_ATTACHMENTS } from "@/server/claims/attachments";
import {
  getClaim,
  getClaimDetail,
  getClaimWithHistory,
  listClaims,
  searchClaims,
  submitClaim,
  updateClaimStatus,
} from "@/server/claims/service";
import { operation } from "./operation";

const tag = "Claims";
const uploadNote =
  "multipart/form-data with one `file` part. The file must be a PDF, PNG or JPEG by its content (else 415) and at most MAX_UPLOAD_BYTES, 10 MiB by default (else 413). Download it from `url` with an API key of this organization.";

export const claimOperations = [
  // GET /api/v1/claims
  operation({
    name: "claims.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListClaimsQuery,
    output: ClaimList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/claims",
      operationId: "listClaims",
      summary: "List claims",
      tag,
      query: ListClaimsQuery,
    },
    handler: ({ actor, input }) => listClaims(actor, input),
  }),
  // POST /api/v1/claims — submit a claim: JSON, or multipart/form-data with its evidence (file1…file5)
  operation({
    name: "claims.submit",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: CreateClaimInput,
    output: Claim,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/claims",
      operationId: "submitClaim",
      summary: "Submit a claim",
      description: `Give the customer's \`email\` to link the claim to their coverage of the policy. Send JSON, or multipart/form-data with the same fields as text and up to ${MAX_CLAIM_ATTACHMENTS} files of evidence as \`file1\`…\`file${MAX_CLAIM_ATTACHMENTS}\` (each a PDF, PNG or JPEG by its content, else 415, and at most MAX_UPLOAD_BYTES, else 413): the claim and its files are stored together, and a refused file stores nothing. Answers the Claim; its files are at \`GET /claims/{id}/attachments\`. Emits \`claim.submitted\`, whose data lists the files as \`attachments\`.`,
      tag,
      body: CreateClaimInput,
      multipart: { files: CLAIM_FILE_FIELDS, form: CreateClaimForm },
      status: 201,
      // The dashboard's "File a claim" form posts the claim and its files here in one request (POST /api/upload/claims).
      upload: true,
    },
    // A JSON body (and the dashboard's input) has no files; a form's are file1…file5 in that order.
    handler: ({ actor, input }) => submitClaim(actor, input, claimFormFiles(input)),
  }),
  // GET /api/v1/claims/{id}
  operation({
    name: "claims.getClaim",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: Claim,
    rest: {
      method: "GET",
      path: "/claims/{id}",
      operationId: "getClaim",
      summary: "Get a claim",
      description: "The claim as every claim answer gives it; its evidence is at `GET /claims/{id}/attachments`.",
      tag,
      params: IdParam,
    },
    handler: ({ actor, input }) => getClaim(actor, input.id),
  }),
  // PATCH /api/v1/claims/{id}/status — move the review along
  operation({
    name: "claims.updateStatus",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam.extend({ data: UpdateClaimStatusInput }),
    output: Claim,
    dashboard: true,
    rest: {
      method: "PATCH",
      path: "/claims/{id}/status",
      operationId: "updateClaimStatus",
      summary: "Change a claim's status",
      description:
        "submitted → under_review → approved or rejected; approved → paid. Any other move answers 409 `invalid_state`.",
      tag,
      params: IdParam,
      body: UpdateClaimStatusInput,
      errors: ["invalid_state"],
      input: ({ params, body }) => ({ id: params.id, data: body }),
    },
    handler: ({ actor, input }) => updateClaimStatus(actor, input.id, input.data),
  }),
  // POST /api/v1/claims/{id}/attachments — add evidence (multipart: file); the dashboard's at POST /api/upload/claims/{id}/attachments
  operation({
    name: "claims.addAttachment",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    output: ClaimAttachment,
    rest: {
      method: "POST",
      path: "/claims/{id}/attachments",
      operationId: "addClaimAttachment",
      summary: "Attach a file to a claim",
      description: `Evidence for the claim: a photo, an invoice, a police report. A claim holds at most ${MAX_CLAIM_ATTACHMENTS} attachments, whoever added them (API, dashboard or the customer portal); one more answers 409 \`attachment_limit\` and nothing is stored. ${uploadNote}`,
      tag,
      params: IdParam,
      multipart: { files: ["file"] },
      body: UploadClaimAttachmentInput,
      status: 201,
      errors: ["attachment_limit"],
      upload: true,
    },
    handler: async ({ actor, input }) => {
      const [attachment] = await addClaimAttachments(actor, input.id, [input.file], actor.apiKey ? "api" : "dashboard");
      return attachment!;
    },
  }),
  // GET /api/v1/claims/{id}/attachments
  operation({
    name: "claims.attachments",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: ClaimAttachmentList,
    rest: {
      method: "GET",
      path: "/claims/{id}/attachments",
      operationId: "listClaimAttachments",
      summary: "List a claim's attachments",
      description: `Every attachment of the claim, oldest first, on one page (at most ${MAX_CLAIM_ATTACHMENTS}; \`nextCursor\` is always null). Download each from its \`url\` with an API key of this organization.`,
      tag,
      params: IdParam,
    },
    handler: async ({ actor, input }) => ({ data: await getClaimAttachments(actor, input.id), nextCursor: null }),
  }),

  // The dashboard
  operation({
    name: "claims.get",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: ClaimWithHistory,
    dashboard: true,
    handler: ({ actor, input }) => getClaimWithHistory(actor, input.id),
  }),
  /** The Claims page: filters, search, policy names and customers. */
  operation({
    name: "claims.search",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: SearchClaimsQuery,
    output: ClaimRowList,
    dashboard: true,
    handler: ({ actor, input }) => searchClaims(actor, input),
  }),
  operation({
    name: "claims.detail",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: ClaimDetail,
    dashboard: true,
    handler: ({ actor, input }) => getClaimDetail(actor, input.id),
  }),
] as const;
