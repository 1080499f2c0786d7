import crypto from "node:crypto";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfPageCount } from "./pdf";

describe("pdfPageCount", () => {
  it("counts the pages of a real PDF", async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 3; i++) doc.addPage();
    expect(await pdfPageCount(await doc.save())).toBe(3);
  });

  it("gives up on junk behind a PDF header without blocking the event loop", async () => {
    const junk = Buffer.concat([Buffer.from("%PDF-1.4\n"), crypto.randomBytes(4 * 1024 * 1024)]);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = Date.now();
    const pages = await pdfPageCount(junk, 500);
    clearInterval(ticker);
    expect(pages).toBeNull();
    expect(Date.now() - started).toBeLessThan(3_000);
    // The event loop kept running while the worker parsed (it was not blocked for the whole time).
    expect(ticks).toBeGreaterThanOrEqual(5);
  });
});
