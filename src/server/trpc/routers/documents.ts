// Documents for the dashboard. Uploads go through POST /api/upload/… (multipart
// with progress); these procedures list, toggle and delete.
import { z } from "@/lib/messages";
import {
  CertificateView,
  CertificateViewList,
  ListDocumentsQuery,
  ReceiptSampleViewList,
  UpdateCertificateInput,
} from "@/lib/schemas/documents";
import {
  deleteCertificate,
  deleteReceiptSample,
  listCertificates,
  listReceiptSamples,
  setCertificateActive,
} from "@/server/documents/service";
import { IdParam } from "@/lib/schemas/ids";
import { orgProcedure, router } from "../init";

export const documentsRouter = router({
  certificates: orgProcedure
    .input(ListDocumentsQuery)
    .output(CertificateViewList)
    .query(({ ctx, input }) => listCertificates(ctx.actor, input)),
  setCertificateActive: orgProcedure
    .input(IdParam.extend(UpdateCertificateInput.shape))
    .output(CertificateView)
    .mutation(({ ctx, input }) => setCertificateActive(ctx.actor, input.id, { isActive: input.isActive })),
  deleteCertificate: orgProcedure
    .input(IdParam)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteCertificate(ctx.actor, input.id)),
  receiptSamples: orgProcedure
    .input(ListDocumentsQuery)
    .output(ReceiptSampleViewList)
    .query(({ ctx, input }) => listReceiptSamples(ctx.actor, input)),
  deleteReceiptSample: orgProcedure
    .input(IdParam)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteReceiptSample(ctx.actor, input.id)),
});
