// Documents: certificates and receipt samples. The dashboard uploads through
// POST /api/upload/… (multipart with progress) and sees each PDF's page count,
// which the REST resources do not publish (`publicView`).
import { z } from "@/lib/messages";
import {
  Certificate,
  CertificateList,
  CertificateView,
  CertificateViewList,
  ListDocumentsQuery,
  publicView,
  ReceiptSample,
  ReceiptSampleList,
  ReceiptSampleViewList,
  UpdateCertificateInput,
  UploadCertificateInput,
  UploadReceiptSampleInput,
} from "@/lib/schemas/documents";
import { IdParam } from "@/lib/schemas/ids";
import {
  deleteCertificate,
  deleteReceiptSample,
  listCertificates,
  listReceiptSamples,
  setCertificateActive,
  uploadCertificate,
  uploadReceiptSample,
} from "@/server/documents/service";
import { operation } from "./operation";

const tag = "Documents";
const uploadNote =
  "multipart/form-data. The file must be a PDF, PNG or JPEG by its content (else 415) and at most MAX_UPLOAD_BYTES, 10 MiB by default (else 413). Download it from `url` with the same API key.";

export const documentOperations = [
  // POST /api/v1/business/documents/certificates — upload a certificate (multipart: file, name, type)
  operation({
    name: "documents.uploadCertificate",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    output: Certificate,
    rest: {
      method: "POST",
      path: "/business/documents/certificates",
      operationId: "uploadCertificate",
      summary: "Upload a certificate",
      description: `A licence or certificate the business holds; new certificates are active. ${uploadNote}`,
      tag,
      multipart: { files: ["file"] },
      body: UploadCertificateInput,
      status: 201,
      upload: true,
    },
    handler: async ({ actor, input }) => publicView(await uploadCertificate(actor, input)),
  }),
  // GET /api/v1/business/documents/certificates
  operation({
    name: "documents.certificates",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListDocumentsQuery,
    output: CertificateViewList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/documents/certificates",
      operationId: "listCertificates",
      summary: "List certificates",
      tag,
      query: ListDocumentsQuery,
      response: CertificateList,
      answer: (page) => ({ ...page, data: page.data.map(publicView) }),
    },
    handler: ({ actor, input }) => listCertificates(actor, input),
  }),
  // PATCH /api/v1/business/documents/certificates/{id} — activate or deactivate
  operation({
    name: "documents.setCertificateActive",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam.extend(UpdateCertificateInput.shape),
    output: CertificateView,
    dashboard: true,
    rest: {
      method: "PATCH",
      path: "/business/documents/certificates/{id}",
      operationId: "updateCertificate",
      summary: "Activate or deactivate a certificate",
      tag,
      params: IdParam,
      body: UpdateCertificateInput,
      response: Certificate,
      answer: publicView,
    },
    handler: ({ actor, input }) => setCertificateActive(actor, input.id, { isActive: input.isActive }),
  }),
  // DELETE /api/v1/business/documents/certificates/{id} — the certificate and its file
  operation({
    name: "documents.deleteCertificate",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: z.void(),
    dashboard: true,
    rest: {
      method: "DELETE",
      path: "/business/documents/certificates/{id}",
      operationId: "deleteCertificate",
      summary: "Delete a certificate",
      description: "Deletes the certificate and its file for good.",
      tag,
      params: IdParam,
      status: 204,
    },
    handler: ({ actor, input }) => deleteCertificate(actor, input.id),
  }),
  // POST /api/v1/business/documents/receipt-samples — upload a receipt template (multipart: file, name)
  operation({
    name: "documents.uploadReceiptSample",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    output: ReceiptSample,
    rest: {
      method: "POST",
      path: "/business/documents/receipt-samples",
      operationId: "uploadReceiptSample",
      summary: "Upload a receipt sample",
      description: `The newest receipt sample is attached to the receipt each paying customer is emailed. ${uploadNote}`,
      tag,
      multipart: { files: ["file"] },
      body: UploadReceiptSampleInput,
      status: 201,
      upload: true,
    },
    handler: async ({ actor, input }) => publicView(await uploadReceiptSample(actor, input)),
  }),
  // GET /api/v1/business/documents/receipt-samples
  operation({
    name: "documents.receiptSamples",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListDocumentsQuery,
    output: ReceiptSampleViewList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/documents/receipt-samples",
      operationId: "listReceiptSamples",
      summary: "List receipt samples",
      tag,
      query: ListDocumentsQuery,
      response: ReceiptSampleList,
      answer: (page) => ({ ...page, data: page.data.map(publicView) }),
    },
    handler: ({ actor, input }) => listReceiptSamples(actor, input),
  }),
  // DELETE /api/v1/business/documents/receipt-samples/{id}
  operation({
    name: "documents.deleteReceiptSample",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: z.void(),
    dashboard: true,
    rest: {
      method: "DELETE",
      path: "/business/documents/receipt-samples/{id}",
      operationId: "deleteReceiptSample",
      summary: "Delete a receipt sample",
      tag,
      params: IdParam,
      status: 204,
    },
    handler: ({ actor, input }) => deleteReceiptSample(actor, input.id),
  }),
] as const;
