import {
  Certificate,
  CertificateList,
  ListDocumentsQuery,
  publicView,
  ReceiptSample,
  ReceiptSampleList,
  UpdateCertificateInput,
  UploadCertificateInput,
  UploadReceiptSampleInput,
} from "@/lib/schemas/documents";
import {
  deleteCertificate,
  deleteReceiptSample,
  listCertificates,
  listReceiptSamples,
  setCertificateActive,
  uploadCertificate,
  uploadReceiptSample,
} from "@/server/documents/service";
import { endpoint, IdParam } from "../endpoint";

const tag = "Documents";
const uploadNote =
  "multipart/form-data. The file must be a PDF, PNG or JPEG by its content (else 415) and at most MAX_UPLOAD_BYTES, 10 MiB by default (else 413). Download it from `url` with the same API key.";

export const documentEndpoints = [
  // POST /api/v1/business/documents/certificates — upload a certificate (multipart: file, name, type)
  endpoint({
    method: "POST",
    path: "/business/documents/certificates",
    operationId: "uploadCertificate",
    summary: "Upload a certificate",
    description: `A licence or certificate the business holds; new certificates are active. ${uploadNote}`,
    tag,
    permission: "write",
    multipart: { files: ["file"] },
    body: UploadCertificateInput,
    response: Certificate,
    status: 201,
    handler: async ({ actor, body }) => publicView(await uploadCertificate(actor, body)),
  }),
  // GET /api/v1/business/documents/certificates
  endpoint({
    method: "GET",
    path: "/business/documents/certificates",
    operationId: "listCertificates",
    summary: "List certificates",
    tag,
    permission: "read",
    query: ListDocumentsQuery,
    response: CertificateList,
    handler: async ({ actor, query }) => {
      const page = await listCertificates(actor, query);
      return { ...page, data: page.data.map(publicView) };
    },
  }),
  // PATCH /api/v1/business/documents/certificates/{id} — activate or deactivate
  endpoint({
    method: "PATCH",
    path: "/business/documents/certificates/{id}",
    operationId: "updateCertificate",
    summary: "Activate or deactivate a certificate",
    tag,
    permission: "write",
    params: IdParam,
    body: UpdateCertificateInput,
    response: Certificate,
    handler: async ({ actor, params, body }) => publicView(await setCertificateActive(actor, params.id, body)),
  }),
  // DELETE /api/v1/business/documents/certificates/{id} — the certificate and its file
  endpoint({
    method: "DELETE",
    path: "/business/documents/certificates/{id}",
    operationId: "deleteCertificate",
    summary: "Delete a certificate",
    description: "Deletes the certificate and its file for good.",
    tag,
    permission: "write",
    params: IdParam,
    status: 204,
    handler: ({ actor, params }) => deleteCertificate(actor, params.id),
  }),
  // POST /api/v1/business/documents/receipt-samples — upload a receipt template (multipart: file, name)
  endpoint({
    method: "POST",
    path: "/business/documents/receipt-samples",
    operationId: "uploadReceiptSample",
    summary: "Upload a receipt sample",
    description: `The newest receipt sample is attached to the receipt each paying customer is emailed. ${uploadNote}`,
    tag,
    permission: "write",
    multipart: { files: ["file"] },
    body: UploadReceiptSampleInput,
    response: ReceiptSample,
    status: 201,
    handler: async ({ actor, body }) => publicView(await uploadReceiptSample(actor, body)),
  }),
  // GET /api/v1/business/documents/receipt-samples
  endpoint({
    method: "GET",
    path: "/business/documents/receipt-samples",
    operationId: "listReceiptSamples",
    summary: "List receipt samples",
    tag,
    permission: "read",
    query: ListDocumentsQuery,
    response: ReceiptSampleList,
    handler: async ({ actor, query }) => {
      const page = await listReceiptSamples(actor, query);
      return { ...page, data: page.data.map(publicView) };
    },
  }),
  // DELETE /api/v1/business/documents/receipt-samples/{id}
  endpoint({
    method: "DELETE",
    path: "/business/documents/receipt-samples/{id}",
    operationId: "deleteReceiptSample",
    summary: "Delete a receipt sample",
    tag,
    permission: "write",
    params: IdParam,
    status: 204,
    handler: ({ actor, params }) => deleteReceiptSample(actor, params.id),
  }),
];
