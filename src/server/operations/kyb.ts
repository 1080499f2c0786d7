// KYB. The dashboard submits and resubmits through POST /api/upload/… (multipart with progress).
import { Kyb, KybDocumentList, ListKybDocumentsQuery, SubmitKybInput } from "@/lib/schemas/kyb";
import { getKyb, listKybDocuments, resubmitKyb, submitKyb } from "@/server/kyb/service";
import { operation } from "./operation";

const tag = "Compliance";
const files = ["certificateOfIncorporation", "taxCertificate"] as const;
const fileRule =
  "multipart/form-data with both files, each a PDF, PNG or JPEG by its content (else 415) and at most MAX_UPLOAD_BYTES, 10 MiB by default (else 413).";

export const kybOperations = [
  // POST /api/v1/business/compliance/kyb/submit — first submission (not_submitted → pending)
  operation({
    name: "kyb.submit",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    output: Kyb,
    rest: {
      method: "POST",
      path: "/business/compliance/kyb/submit",
      operationId: "submitKyb",
      summary: "Submit KYB documents",
      description: `${fileRule} Moves KYB from \`not_submitted\` to \`pending\`; a platform admin then approves or rejects it. Already pending or approved → 409; rejected → use resubmit (409 here).`,
      tag,
      multipart: { files },
      body: SubmitKybInput,
      status: 201,
      errors: ["invalid_state"],
      upload: true,
    },
    handler: ({ actor, input }) => submitKyb(actor, input),
  }),
  // GET /api/v1/business/compliance/kyb/status
  operation({
    name: "kyb.status",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    output: Kyb,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/compliance/kyb/status",
      operationId: "getKybStatus",
      summary: "KYB status",
      description: "`not_submitted`, `pending`, `approved` or `rejected` (with `rejectionReason`), and the current documents.",
      tag,
    },
    handler: ({ actor }) => getKyb(actor),
  }),
  // POST /api/v1/business/compliance/kyb/resubmit — after a rejection (rejected → pending)
  operation({
    name: "kyb.resubmit",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    output: Kyb,
    rest: {
      method: "POST",
      path: "/business/compliance/kyb/resubmit",
      operationId: "resubmitKyb",
      summary: "Resubmit KYB documents",
      description: `${fileRule} Only after a rejection (else 409); the new documents replace the rejected ones and KYB is \`pending\` again.`,
      tag,
      multipart: { files },
      body: SubmitKybInput,
      status: 201,
      errors: ["invalid_state"],
      upload: true,
    },
    handler: ({ actor, input }) => resubmitKyb(actor, input),
  }),
  // GET /api/v1/business/compliance/kyb/documents — the current submission's documents
  operation({
    name: "kyb.documents",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: KybDocumentList,
    rest: {
      method: "GET",
      path: "/business/compliance/kyb/documents",
      operationId: "listKybDocuments",
      summary: "List KYB documents",
      description: "The documents of the current submission (older submissions' documents are kept but not listed).",
      tag,
      query: ListKybDocumentsQuery,
    },
    handler: ({ actor, input }) => listKybDocuments(actor, input),
  }),
] as const;
