import { M, z } from "@/lib/messages";
import { AmountNumber } from "@/lib/money";
import { ClaimantAccount } from "@/lib/schemas/claim-payouts";
import { Coverage } from "@/lib/schemas/coverages";
import { ContentType, FileField, type UploadedFileShape } from "@/lib/schemas/files";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

// The value lists and the review moves live in src/lib/enums.ts (the dashboard imports them from there).
import { CLAIM_MOVES, CLAIM_STATUSES, CLAIM_TYPES, type ClaimStatus } from "@/lib/enums";
export { CLAIM_MOVES, CLAIM_STATUSES, CLAIM_TYPES, type ClaimStatus };

export const CreateClaimInput = z
  .strictObject({
    policyId: z.string().min(1).max(100),
    type: z.enum(CLAIM_TYPES),
    description: z.string().trim().min(1).max(2000),
    amount: AmountNumber.describe("Amount claimed, e.g. 5000 or 5000.5"),
    email: z
      .email(M.email)
      .max(254)
      .transform((e) => e.toLowerCase())
      .optional()
      .describe("The customer's email; links the claim to their coverage of this policy"),
  })
  .meta({ id: "CreateClaimInput" });
export type CreateClaimInput = z.output<typeof CreateClaimInput>;

/** The file parts of a claim filed as multipart/form-data (REST, the dashboard and the portal): up to five. */
export const CLAIM_FILE_FIELDS = ["file1", "file2", "file3", "file4", "file5"] as const;
/** The optional file fields `file1`…`file5`, to spread into a form's schema. */
export const claimFileShape = Object.fromEntries(CLAIM_FILE_FIELDS.map((f) => [f, FileField.optional()])) as Record<
  (typeof CLAIM_FILE_FIELDS)[number],
  z.ZodOptional<typeof FileField>
>;

/**
 * `POST /claims` as multipart/form-data: the claim's fields as text and its
 * evidence as `file1`…`file5`, filed together — all of it or nothing.
 */
export const CreateClaimForm = z
  .strictObject({
    ...CreateClaimInput.shape,
    amount: z.coerce.number().pipe(AmountNumber).describe("Amount claimed, e.g. 5000 or 5000.5"),
    ...claimFileShape,
  })
  .meta({ id: "CreateClaimForm" });
export type CreateClaimForm = z.output<typeof CreateClaimForm>;

/** The files of a claim form, in field order (a JSON body has none). */
export const claimFormFiles = (body: object): UploadedFileShape[] =>
  CLAIM_FILE_FIELDS.flatMap((f) => {
    const v = (body as Partial<Record<string, UploadedFileShape>>)[f];
    return v ? [v] : [];
  });

export const UpdateClaimStatusInput = z
  .strictObject({
    status: z.enum(["under_review", "approved", "rejected", "paid"]),
    note: z.string().trim().max(2000).optional(),
    approvedAmount: AmountNumber.optional().describe(
      "With status approved only: what the business will pay, at most the amount claimed; default the amount claimed",
    ),
    settledOutside: z
      .boolean()
      .optional()
      .describe(
        "With status paid only, and required there with a note: the claim was paid outside Coverdesk (pay it through Coverdesk with POST /claims/{id}/payout)",
      ),
  })
  .refine((v) => v.approvedAmount === undefined || v.status === "approved", {
    message: "Give an approved amount only when approving",
    path: ["approvedAmount"],
  })
  .refine((v) => v.status !== "paid" || v.settledOutside === true, {
    message: "Pay the claim with a payout, or mark it paid with settledOutside: true and a note saying how it was paid",
    path: ["settledOutside"],
  })
  .refine((v) => v.status !== "paid" || !!v.note, {
    message: "Say how the claim was paid outside Coverdesk",
    path: ["note"],
  })
  .refine((v) => v.settledOutside === undefined || v.status === "paid", {
    message: "Give settledOutside only when marking the claim paid",
    path: ["settledOutside"],
  })
  .meta({ id: "UpdateClaimStatusInput" });
export type UpdateClaimStatusInput = z.output<typeof UpdateClaimStatusInput>;

export const ListClaimsQuery = PageQuery.extend({
  status: z.enum(CLAIM_STATUSES).optional(),
  policyId: z.string().max(100).optional(),
});
export type ListClaimsQuery = z.output<typeof ListClaimsQuery>;

export const Claim = z
  .object({
    id: z.string(),
    policyId: z.string(),
    coverageId: z.string().nullable(),
    type: z.enum(CLAIM_TYPES),
    description: z.string(),
    amount: z.string(),
    approvedAmount: z.string().nullable().describe("What the business agreed to pay; set when approved"),
    currency: z.string(),
    status: z.enum(CLAIM_STATUSES),
    payoutAccount: ClaimantAccount.nullable().describe(
      "The account the policyholder asked to be paid to (given in the portal once the claim is approved); POST /claims/{id}/payout without an account pays it",
    ),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Claim" });
export type Claim = z.infer<typeof Claim>;

export const ClaimList = pageOf(Claim, "ClaimList");

// ---------- evidence: files attached to a claim ----------

/** Multipart fields of an attachment upload. */
export const UploadClaimAttachmentInput = z.strictObject({ file: FileField }).meta({ id: "UploadClaimAttachmentInput" });
export type UploadClaimAttachmentInput = z.output<typeof UploadClaimAttachmentInput>;

export const ClaimAttachment = z
  .object({
    id: z.string(),
    claimId: z.string(),
    fileName: z.string(),
    contentType: ContentType,
    size: z.number().int().describe("Bytes"),
    url: z.url().describe("Where the file is served: a member's session or an API key of this organization"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "ClaimAttachment" });
export type ClaimAttachment = z.infer<typeof ClaimAttachment>;
/** A claim's attachments, oldest first, all on one page (at most 5). */
export const ClaimAttachmentList = pageOf(ClaimAttachment, "ClaimAttachmentList");

/** The data of a `claim.submitted` event: the Claim and the evidence filed with it (none: `[]`). */
export const SubmittedClaim = Claim.extend({
  attachments: z.array(ClaimAttachment).describe("The files filed with the claim, in the order sent"),
});
export type SubmittedClaim = z.infer<typeof SubmittedClaim>;

const ClaimHistoryEntry = z.object({
  id: z.string(),
  fromStatus: z.enum(CLAIM_STATUSES).nullable(),
  toStatus: z.enum(CLAIM_STATUSES),
  note: z.string().nullable(),
  by: z.string().describe("Who moved it: a member's name, or API"),
  createdAt: z.iso.datetime(),
});

/** The claim with every step of its review (dashboard). */
export const ClaimWithHistory = Claim.extend({ history: z.array(ClaimHistoryEntry) });
export type ClaimWithHistory = z.infer<typeof ClaimWithHistory>;

// ---------- the dashboard's claims ----------

export const SearchClaimsQuery = PageQuery.extend({
  status: z.enum(CLAIM_STATUSES).optional(),
  type: z.enum(CLAIM_TYPES).optional(),
  policyId: z.string().max(100).optional(),
  q: z.string().trim().max(254).optional().describe("Customer email or description contains (case-insensitive)"),
});
export type SearchClaimsQuery = z.output<typeof SearchClaimsQuery>;

/** A claim as the dashboard lists it: with its policy's name and the customer's email. */
export const ClaimRow = Claim.extend({ policyName: z.string(), customerEmail: z.string().nullable() });
export type ClaimRow = z.infer<typeof ClaimRow>;
export const ClaimRowList = pageOf(ClaimRow, "ClaimRowList");

/** A claim's page: its review, its policy, its customer and the coverage it is filed against. */
export const ClaimDetail = ClaimWithHistory.extend({
  policyName: z.string(),
  customer: z.object({ id: z.string().nullable(), email: z.string(), name: z.string().nullable() }).nullable(),
  coverage: Coverage.nullable(),
  attachments: z.array(ClaimAttachment).describe("Evidence, oldest first"),
});
export type ClaimDetail = z.infer<typeof ClaimDetail>;
