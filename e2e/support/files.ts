// File parts for multipart requests, and a PDF of any size built by hand
// (valid structure: the server reads a PDF to count its pages).

/** One file of a multipart body, as Playwright's `multipart` option takes it. */
export interface FilePart {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const isFilePart = (v: unknown): v is FilePart =>
  typeof v === "object" && v !== null && Buffer.isBuffer((v as FilePart).buffer) && typeof (v as FilePart).mimeType === "string";

/** A valid one-page PDF of exactly `total` bytes (an unused stream pads it). */
export function pdfOfSize(total: number): Buffer {
  const build = (padding: number) => {
    const objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
      `<< /Length ${padding} >>\nstream\n${" ".repeat(padding)}\nendstream`,
    ];
    let out = "%PDF-1.4\n";
    const offsets: number[] = [];
    objects.forEach((o, i) => {
      offsets.push(out.length);
      out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    });
    const xref = out.length;
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
    out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(out, "latin1");
  };
  if (total < build(0).length) throw new Error(`a PDF takes at least ${build(0).length} bytes, not ${total}`);
  let padding = total - build(0).length;
  for (let i = 0; i < 5 && build(padding).length !== total; i++) padding += total - build(padding).length;
  const pdf = build(padding);
  if (pdf.length !== total) throw new Error(`could not build a PDF of ${total} bytes`);
  return pdf;
}

/** A small valid PDF for sample bodies. */
export const SAMPLE_PDF = pdfOfSize(600);
export const samplePdfPart = (name = "sample.pdf"): FilePart => ({ name, mimeType: "application/pdf", buffer: SAMPLE_PDF });
