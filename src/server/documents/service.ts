// Certificates (licences a business shows its customers) and receipt samples
// (the receipt template attached to customers' receipts). Uploading, changing
// and deleting need an admin; any member or key may read.
import type { Certificate as CertificateRow, ReceiptSample as ReceiptSampleRow, StoredFile } from "@/generated/prisma/client";
import { assertCan, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import { fileUrl, removeFileBytes, withStoredFiles } from "@/server/files/service";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import type {
  CertificateView,
  ReceiptSampleView,
  UpdateCertificateInput,
  UploadCertificateInput,
  UploadReceiptSampleInput,
} from "@/lib/schemas/documents";

/** What the audit log keeps of a stored file (never its bytes or storage key). */
const fileDetails = (file: StoredFile) => ({ fileName: file.fileName, contentType: file.contentType, size: file.size });

const fileFields = (file: StoredFile) => ({
  fileName: file.fileName,
  contentType: file.contentType as CertificateView["contentType"],
  size: file.size,
  pageCount: file.pageCount,
  url: fileUrl(file.id),
});

export const toCertificate = (row: CertificateRow & { file: StoredFile }): CertificateView => ({
  id: row.id,
  name: row.name,
  type: row.type,
  isActive: row.isActive,
  ...fileFields(row.file),
  createdAt: row.createdAt.toISOString(),
});

export const toReceiptSample = (row: ReceiptSampleRow & { file: StoredFile }): ReceiptSampleView => ({
  id: row.id,
  name: row.name,
  ...fileFields(row.file),
  createdAt: row.createdAt.toISOString(),
});

export async function uploadCertificate(actor: Actor, input: UploadCertificateInput): Promise<CertificateView> {
  assertCan(actor, "admin");
  return withStoredFiles(actor.organizationId, [input.file], async (tx, [file]) => {
    const row = await tx.certificate.create({
      data: { organizationId: actor.organizationId, fileId: file!.id, name: input.name, type: input.type },
      include: { file: true },
    });
    await audit(tx, actor.organizationId, {
      action: "certificate.uploaded",
      resourceType: "certificate",
      resourceId: row.id,
      details: { name: row.name, type: row.type, ...fileDetails(row.file) },
    });
    return toCertificate(row);
  });
}

export async function listCertificates(actor: Actor, page: PageQuery): Promise<Page<CertificateView>> {
  assertCan(actor, "read");
  const args = pageArgs(page);
  const rows = await db.certificate.findMany({
    ...args,
    where: { organizationId: actor.organizationId, ...args.where },
    include: { file: true },
  });
  return toPage(rows, page, toCertificate);
}

export async function setCertificateActive(actor: Actor, id: string, input: UpdateCertificateInput): Promise<CertificateView> {
  assertCan(actor, "admin");
  return db.$transaction(async (tx) => {
    // Only a certificate not already so is changed (and recorded): of two concurrent
    // requests for the same state, one changes it and the other finds nothing to do.
    const { count } = await tx.certificate.updateMany({
      where: { id, organizationId: actor.organizationId, isActive: !input.isActive },
      data: { isActive: input.isActive },
    });
    // Deleted meanwhile (a concurrent DELETE): 404, like an id that never existed.
    const row = await tx.certificate.findFirst({
      where: { id, organizationId: actor.organizationId },
      include: { file: true },
    });
    if (!row) throw notFound("Certificate");
    if (count > 0)
      await audit(tx, actor.organizationId, {
        action: input.isActive ? "certificate.activated" : "certificate.deactivated",
        resourceType: "certificate",
        resourceId: row.id,
        details: { name: row.name, type: row.type },
      });
    return toCertificate(row);
  });
}

export async function deleteCertificate(actor: Actor, id: string): Promise<void> {
  assertCan(actor, "admin");
  const file = await db.$transaction(async (tx) => {
    const row = await tx.certificate.findFirst({ where: { id, organizationId: actor.organizationId }, include: { file: true } });
    if (!row) throw notFound("Certificate");
    // The certificate row goes with it (cascade). Of concurrent deletes one removes
    // it; the others find nothing left to delete and answer 404, never P2025.
    const { count } = await tx.storedFile.deleteMany({ where: { id: row.fileId, organizationId: actor.organizationId } });
    if (count === 0) throw notFound("Certificate");
    await audit(tx, actor.organizationId, {
      action: "certificate.deleted",
      resourceType: "certificate",
      resourceId: row.id,
      details: { name: row.name, type: row.type, ...fileDetails(row.file) },
    });
    return row.file;
  });
  await removeFileBytes([file]);
}

export async function uploadReceiptSample(actor: Actor, input: UploadReceiptSampleInput): Promise<ReceiptSampleView> {
  assertCan(actor, "admin");
  return withStoredFiles(actor.organizationId, [input.file], async (tx, [file]) => {
    const row = await tx.receiptSample.create({
      data: { organizationId: actor.organizationId, fileId: file!.id, name: input.name },
      include: { file: true },
    });
    await audit(tx, actor.organizationId, {
      action: "receipt_sample.uploaded",
      resourceType: "receipt_sample",
      resourceId: row.id,
      details: { name: row.name, ...fileDetails(row.file) },
    });
    return toReceiptSample(row);
  });
}

export async function listReceiptSamples(actor: Actor, page: PageQuery): Promise<Page<ReceiptSampleView>> {
  assertCan(actor, "read");
  const args = pageArgs(page);
  const rows = await db.receiptSample.findMany({
    ...args,
    where: { organizationId: actor.organizationId, ...args.where },
    include: { file: true },
  });
  return toPage(rows, page, toReceiptSample);
}

export async function deleteReceiptSample(actor: Actor, id: string): Promise<void> {
  assertCan(actor, "admin");
  const file = await db.$transaction(async (tx) => {
    const row = await tx.receiptSample.findFirst({
      where: { id, organizationId: actor.organizationId },
      include: { file: true },
    });
    if (!row) throw notFound("Receipt sample");
    const { count } = await tx.storedFile.deleteMany({ where: { id: row.fileId, organizationId: actor.organizationId } });
    if (count === 0) throw notFound("Receipt sample"); // deleted by a concurrent request
    await audit(tx, actor.organizationId, {
      action: "receipt_sample.deleted",
      resourceType: "receipt_sample",
      resourceId: row.id,
      details: { name: row.name, ...fileDetails(row.file) },
    });
    return row.file;
  });
  await removeFileBytes([file]);
}

/** The receipt sample sent with customers' receipts: the newest one (SPEC gives receipt samples no active flag). */
export async function currentReceiptSample(organizationId: string) {
  return db.receiptSample.findFirst({
    where: { organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { file: true },
  });
}
