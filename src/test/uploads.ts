// Uploaded files for service tests, built as the multipart reader would: small
// byte buffers whose first bytes make them a PDF, PNG or JPEG.
import fs from "node:fs/promises";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { db } from "@/server/db/client";
import { filesDir } from "@/server/files/disk";
import { UploadedFile } from "@/server/files/multipart";
import { sniffContentType } from "@/server/files/sniff";

export const PDF_BYTES = () =>
  Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n", "latin1");
export const PNG_BYTES = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("IHDR test image")]);
export const JPEG_BYTES = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("JFIF test image")]);

/** A real PDF of `pages` blank pages. */
export async function pdfWithPages(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return Buffer.from(await doc.save());
}

export function upload(field: string, bytes: Buffer, fileName?: string): UploadedFile {
  const type = sniffContentType(bytes);
  if (!type) throw new Error("test bytes are not a PDF, PNG or JPEG");
  const ext = { "application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg" }[type];
  return new UploadedFile(field, fileName ?? `${field}.${ext}`, type, bytes);
}

/** Both KYB documents: a PDF certificate of incorporation and a PNG tax certificate. */
export const kybUploads = () => ({
  certificateOfIncorporation: upload("certificateOfIncorporation", PDF_BYTES()),
  taxCertificate: upload("taxCertificate", PNG_BYTES()),
});

/** The stored files of an organization on the local disk (the test storage), by name. */
export async function filesOnDisk(organizationId: string): Promise<string[]> {
  try {
    return (await fs.readdir(path.join(filesDir(), organizationId))).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/** The organization's stored_file rows, by id. */
export const storedFileIds = async (organizationId: string) =>
  (await db.storedFile.findMany({ where: { organizationId }, select: { id: true }, orderBy: { id: "asc" } }))
    .map((f) => f.id)
    .sort();
