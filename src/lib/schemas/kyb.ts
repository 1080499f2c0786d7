import { z } from "@/lib/messages";
import { ContentType, FileField } from "@/lib/schemas/files";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

export const KYB_STATUSES = ["not_submitted", "pending", "approved", "rejected"] as const;
export type KybStatus = (typeof KYB_STATUSES)[number];
export const KYB_DOCUMENT_KINDS = ["certificateOfIncorporation", "taxCertificate"] as const;

/** Multipart fields of a submission or resubmission: both documents, each a PDF, PNG or JPEG. */
export const SubmitKybInput = z
  .strictObject({
    certificateOfIncorporation: FileField.describe("The certificate of incorporation"),
    taxCertificate: FileField.describe("The tax (TIN) certificate"),
  })
  .meta({ id: "SubmitKybInput" });
export type SubmitKybInput = z.output<typeof SubmitKybInput>;

export const KybDocument = z
  .object({
    id: z.string(),
    kind: z.enum(KYB_DOCUMENT_KINDS),
    fileName: z.string(),
    contentType: ContentType,
    size: z.number().int().describe("Bytes"),
    url: z.url().describe("Where the file is served: a member's session or an API key of this organization"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "KybDocument" });
export type KybDocument = z.output<typeof KybDocument>;

export const Kyb = z
  .object({
    status: z.enum(KYB_STATUSES),
    submittedAt: z.iso.datetime().nullable(),
    reviewedAt: z.iso.datetime().nullable(),
    rejectionReason: z.string().nullable(),
    documents: z.array(KybDocument).describe("The documents of the current submission"),
  })
  .meta({ id: "Kyb" });
export type Kyb = z.output<typeof Kyb>;

export const ListKybDocumentsQuery = PageQuery;
export const KybDocumentList = pageOf(KybDocument, "KybDocumentList");

export const RejectKybInput = z
  .strictObject({
    organizationId: z.string().min(1).max(100),
    reason: z.string().trim().min(5, "Say why in at least 5 characters").max(1000),
  })
  .meta({ id: "RejectKybInput" });
export type RejectKybInput = z.output<typeof RejectKybInput>;
