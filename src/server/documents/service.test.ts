// Certificates and receipt samples: upload, list, toggle, delete (rows and
// bytes), who may change them, and that another organization's ids are not found.
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { addMember, codeOf, ownerWithOrganization } from "@/test/fixtures";
import { filesOnDisk, JPEG_BYTES, PDF_BYTES, PNG_BYTES, pdfWithPages, storedFileIds, upload } from "@/test/uploads";
import { UpdateCertificateInput, UploadCertificateInput, UploadReceiptSampleInput } from "@/lib/schemas/documents";
import {
  deleteCertificate,
  deleteReceiptSample,
  listCertificates,
  listReceiptSamples,
  setCertificateActive,
  uploadCertificate,
  uploadReceiptSample,
} from "./service";

const certificateInput = (bytes: Buffer = PDF_BYTES(), name = "NAICOM operating licence 2026") =>
  UploadCertificateInput.parse({ file: upload("file", bytes), name, type: "insurance licence" });
const receiptInput = (bytes: Buffer = PNG_BYTES(), name = "Standard receipt") =>
  UploadReceiptSampleInput.parse({ file: upload("file", bytes), name });
const toggle = (isActive: boolean) => UpdateCertificateInput.parse({ isActive });

beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

describe("certificates", () => {
  it("uploads, lists, toggles and deletes; the bytes go with the row", async () => {
    const { actor, org } = await ownerWithOrganization();
    const cert = await uploadCertificate(actor, certificateInput());
    expect(cert).toEqual({
      id: expect.any(String),
      name: "NAICOM operating licence 2026",
      type: "insurance licence",
      isActive: true,
      fileName: "file.pdf",
      contentType: "application/pdf",
      size: PDF_BYTES().byteLength,
      pageCount: expect.toSatisfy((n: unknown) => n === null || typeof n === "number"),
      url: expect.stringMatching(/\/api\/files\/[\w-]+$/),
      createdAt: expect.any(String),
    });
    const jpeg = await uploadCertificate(actor, certificateInput(JPEG_BYTES(), "Fire safety certificate"));
    expect(jpeg).toMatchObject({ contentType: "image/jpeg", fileName: "file.jpg", pageCount: null });

    expect((await listCertificates(actor, { limit: 20 })).data.map((c) => c.id)).toEqual([jpeg.id, cert.id]);
    expect(await filesOnDisk(org.id)).toHaveLength(2);

    expect(await setCertificateActive(actor, cert.id, toggle(false))).toMatchObject({ id: cert.id, isActive: false });
    expect((await listCertificates(actor, { limit: 20 })).data.find((c) => c.id === cert.id)?.isActive).toBe(false);
    expect(await setCertificateActive(actor, cert.id, toggle(true))).toMatchObject({ isActive: true });

    const fileId = (await db.certificate.findUniqueOrThrow({ where: { id: cert.id } })).fileId;
    expect(await filesOnDisk(org.id)).toContain(fileId);
    await deleteCertificate(actor, cert.id);
    expect((await listCertificates(actor, { limit: 20 })).data.map((c) => c.id)).toEqual([jpeg.id]);
    expect(await db.storedFile.findUnique({ where: { id: fileId } })).toBeNull();
    expect(await filesOnDisk(org.id)).not.toContain(fileId);
    expect(await filesOnDisk(org.id)).toEqual(await storedFileIds(org.id));
    expect(await codeOf(deleteCertificate(actor, cert.id))).toBe("not_found");
  });

  it("counts the pages of a PDF", async () => {
    const { actor } = await ownerWithOrganization();
    const cert = await uploadCertificate(actor, certificateInput(await pdfWithPages(2)));
    expect(cert.pageCount).toBe(2);
    expect((await listCertificates(actor, { limit: 20 })).data[0]?.pageCount).toBe(2);
    const one = await uploadReceiptSample(actor, receiptInput(await pdfWithPages(1)));
    expect(one.pageCount).toBe(1);
  });

  it("another organization's certificate is not found, and stays as it was", async () => {
    const mine = await ownerWithOrganization();
    const theirs = await ownerWithOrganization();
    const cert = await uploadCertificate(theirs.actor, certificateInput());
    const before = await db.certificate.findUniqueOrThrow({ where: { id: cert.id }, include: { file: true } });

    expect(await codeOf(setCertificateActive(mine.actor, cert.id, toggle(false)))).toBe("not_found");
    expect(await codeOf(deleteCertificate(mine.actor, cert.id))).toBe("not_found");
    expect(await db.certificate.findUniqueOrThrow({ where: { id: cert.id }, include: { file: true } })).toEqual(before);
    expect(await filesOnDisk(theirs.org.id)).toEqual([before.fileId]);
    expect((await listCertificates(mine.actor, { limit: 20 })).data).toEqual([]);
  });

  it("a MEMBER can list but not upload, toggle or delete", async () => {
    const { actor: owner, org } = await ownerWithOrganization();
    const { actor } = await addMember(org.id, "MEMBER");
    const cert = await uploadCertificate(owner, certificateInput());

    expect(await codeOf(uploadCertificate(actor, certificateInput()))).toBe("forbidden");
    expect(await codeOf(setCertificateActive(actor, cert.id, toggle(false)))).toBe("forbidden");
    expect(await codeOf(deleteCertificate(actor, cert.id))).toBe("forbidden");
    expect((await listCertificates(actor, { limit: 20 })).data).toEqual([
      expect.objectContaining({ id: cert.id, isActive: true }),
    ]);
    expect(await storedFileIds(org.id)).toHaveLength(1);
    expect(await filesOnDisk(org.id)).toHaveLength(1);
  });

  it("a list read while certificates are deleted answers the rows that exist, never an error", async () => {
    const { actor } = await ownerWithOrganization();
    const certs = await Promise.all(Array.from({ length: 12 }, (_, i) => uploadCertificate(actor, certificateInput(PDF_BYTES(), `Licence ${i}`))));
    // Each delete removes the file and, by cascade, its certificate: a list reading the certificate rows and
    // their files in two statements saw a row whose file was gone ("Inconsistent query result", a 500).
    const reads: Promise<unknown>[] = [];
    for (const cert of certs) {
      reads.push(listCertificates(actor, { limit: 20 }), deleteCertificate(actor, cert.id), listCertificates(actor, { limit: 20 }));
    }
    const settled = await Promise.allSettled(reads);
    expect(settled.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect((await listCertificates(actor, { limit: 20 })).data).toEqual([]);
  });

  it("a read-only key cannot upload", async () => {
    const { actor: owner, org } = await ownerWithOrganization();
    const key = { ...owner, apiKey: { id: "key_test", permissions: ["read" as const] } };
    expect(await codeOf(uploadCertificate(key, certificateInput()))).toBe("insufficient_permissions");
    expect(await filesOnDisk(org.id)).toEqual([]);
  });
});

describe("receipt samples", () => {
  it("uploads, lists and deletes; the bytes go with the row", async () => {
    const { actor, org } = await ownerWithOrganization();
    const png = await uploadReceiptSample(actor, receiptInput());
    expect(png).toEqual({
      id: expect.any(String),
      name: "Standard receipt",
      fileName: "file.png",
      contentType: "image/png",
      size: PNG_BYTES().byteLength,
      pageCount: null,
      url: expect.stringMatching(/\/api\/files\/[\w-]+$/),
      createdAt: expect.any(String),
    });
    const jpeg = await uploadReceiptSample(actor, receiptInput(JPEG_BYTES(), "Branded receipt"));
    expect((await listReceiptSamples(actor, { limit: 20 })).data.map((r) => r.id)).toEqual([jpeg.id, png.id]);

    const fileId = (await db.receiptSample.findUniqueOrThrow({ where: { id: png.id } })).fileId;
    await deleteReceiptSample(actor, png.id);
    expect((await listReceiptSamples(actor, { limit: 20 })).data.map((r) => r.id)).toEqual([jpeg.id]);
    expect(await db.storedFile.findUnique({ where: { id: fileId } })).toBeNull();
    expect(await filesOnDisk(org.id)).toEqual(await storedFileIds(org.id));
    expect(await filesOnDisk(org.id)).toHaveLength(1);
  });

  it("another organization's sample is not found, and stays", async () => {
    const mine = await ownerWithOrganization();
    const theirs = await ownerWithOrganization();
    const sample = await uploadReceiptSample(theirs.actor, receiptInput());
    expect(await codeOf(deleteReceiptSample(mine.actor, sample.id))).toBe("not_found");
    expect(await db.receiptSample.findUnique({ where: { id: sample.id } })).not.toBeNull();
    expect(await filesOnDisk(theirs.org.id)).toHaveLength(1);
  });

  it("a MEMBER can list but not upload or delete", async () => {
    const { actor: owner, org } = await ownerWithOrganization();
    const { actor } = await addMember(org.id, "MEMBER");
    const sample = await uploadReceiptSample(owner, receiptInput());
    expect(await codeOf(uploadReceiptSample(actor, receiptInput()))).toBe("forbidden");
    expect(await codeOf(deleteReceiptSample(actor, sample.id))).toBe("forbidden");
    expect((await listReceiptSamples(actor, { limit: 20 })).data.map((r) => r.id)).toEqual([sample.id]);
    expect(await filesOnDisk(org.id)).toHaveLength(1);
  });
});

describe("concurrent changes (issue 23)", () => {
  /** What each of several simultaneous calls ended with: "ok" or its AppError code (anything else fails the test). */
  const outcomes = async (calls: Promise<unknown>[]) =>
    (await Promise.allSettled(calls)).map((r) => {
      if (r.status === "fulfilled") return "ok";
      expect(r.reason, String(r.reason)).toBeInstanceOf(AppError);
      return (r.reason as AppError).code;
    });

  it("10 deletes of one certificate at once: one succeeds, the others are 404 (never a database error)", async () => {
    const { actor, org } = await ownerWithOrganization();
    for (let round = 0; round < 3; round++) {
      const cert = await uploadCertificate(actor, certificateInput());
      const results = await outcomes([
        ...Array.from({ length: 10 }, () => deleteCertificate(actor, cert.id)),
        setCertificateActive(actor, cert.id, toggle(false)),
      ]);
      expect(results.slice(0, 10).filter((r) => r === "ok")).toHaveLength(1);
      expect(results.filter((r) => r !== "ok").every((r) => r === "not_found")).toBe(true);
    }
    expect(await storedFileIds(org.id)).toEqual([]);
    expect(await filesOnDisk(org.id)).toEqual([]);
  });

  it("10 deletes of one receipt sample at once: one succeeds, the others are 404", async () => {
    const { actor, org } = await ownerWithOrganization();
    for (let round = 0; round < 3; round++) {
      const sample = await uploadReceiptSample(actor, receiptInput());
      const results = await outcomes(Array.from({ length: 10 }, () => deleteReceiptSample(actor, sample.id)));
      expect(results.filter((r) => r === "ok")).toHaveLength(1);
      expect(results.filter((r) => r !== "ok")).toEqual(Array(9).fill("not_found"));
    }
    expect(await storedFileIds(org.id)).toEqual([]);
    expect(await filesOnDisk(org.id)).toEqual([]);
  });
});
