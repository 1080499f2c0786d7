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
    // The event loop keeps running while the worker parses: no gap between timer ticks
    // (or between the start, the ticks and the end) is anywhere near the parse time.
    const stamps = [Date.now()];
    const ticker = setInterval(() => stamps.push(Date.now()), 50);
    const pages = await pdfPageCount(junk, 500);
    clearInterval(ticker);
    stamps.push(Date.now());
    expect(pages).toBeNull();
    expect(stamps.at(-1)! - stamps[0]!).toBeLessThan(3_000);
    const gaps = stamps.slice(1).map((t, i) => t - stamps[i]!);
    expect(Math.max(...gaps)).toBeLessThan(400);
  });
});
