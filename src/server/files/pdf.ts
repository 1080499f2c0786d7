// Pages of an uploaded PDF, for the documents list. A PDF pdf-lib cannot read
// (encrypted, damaged) is still accepted — its page count is just unknown.
import { PDFDocument } from "pdf-lib";

export async function pdfPageCount(bytes: Uint8Array): Promise<number | null> {
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    return doc.getPageCount();
  } catch {
    return null;
  }
}
