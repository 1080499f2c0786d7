import { z } from "@/lib/messages";
import { ContentType, FileField } from "@/lib/schemas/files";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

const Name = z.string().trim().min(1).max(120);

/** Multipart fields of a certificate upload. */
export const UploadCertificateInput = z
  .strictObject({
    file: FileField,
    name: Name.describe('What the business calls it, e.g. "NAICOM operating licence 2026"'),
    type: z.string().trim().min(1).max(60).describe('A licence-type label, e.g. "insurance licence"'),
  })
  .meta({ id: "UploadCertificateInput" });
export type UploadCertificateInput = z.output<typeof UploadCertificateInput>;

export const UpdateCertificateInput = z.strictObject({ isActive: z.boolean() }).meta({ id: "UpdateCertificateInput" });
export type UpdateCertificateInput = z.output<typeof UpdateCertificateInput>;

/** Multipart fields of a receipt-sample upload. */
export const UploadReceiptSampleInput = z
  .strictObject({ file: FileField, name: Name.describe('e.g. "Standard receipt"') })
  .meta({ id: "UploadReceiptSampleInput" });
export type UploadReceiptSampleInput = z.output<typeof UploadReceiptSampleInput>;

const fileFields = {
  fileName: z.string(),
  contentType: ContentType,
  size: z.number().int().describe("Bytes"),
  url: z.url().describe("Where the file is served: a member's session or an API key of this organization"),
  createdAt: z.iso.datetime(),
};

export const Certificate = z
  .object({ id: z.string(), name: z.string(), type: z.string(), isActive: z.boolean(), ...fileFields })
  .meta({ id: "Certificate" });
export type Certificate = z.output<typeof Certificate>;

export const ReceiptSample = z.object({ id: z.string(), name: z.string(), ...fileFields }).meta({ id: "ReceiptSample" });
export type ReceiptSample = z.output<typeof ReceiptSample>;

export const ListDocumentsQuery = PageQuery;
export const CertificateList = pageOf(Certificate, "CertificateList");
export const ReceiptSampleList = pageOf(ReceiptSample, "ReceiptSampleList");

// The dashboard also shows a PDF's page count (not part of the REST resources).
const pageCount = { pageCount: z.number().int().nullable().describe("Pages of a PDF; null for an image or an unreadable PDF") };
export const CertificateView = Certificate.extend(pageCount).meta({ id: "CertificateView" });
export type CertificateView = z.output<typeof CertificateView>;
export const ReceiptSampleView = ReceiptSample.extend(pageCount).meta({ id: "ReceiptSampleView" });
export type ReceiptSampleView = z.output<typeof ReceiptSampleView>;
export const CertificateViewList = pageOf(CertificateView, "CertificateViewList");
export const ReceiptSampleViewList = pageOf(ReceiptSampleView, "ReceiptSampleViewList");

/** A view without what the REST resource does not publish. */
export const publicView = <T extends { pageCount: number | null }>({ pageCount: _p, ...rest }: T): Omit<T, "pageCount"> => rest;
