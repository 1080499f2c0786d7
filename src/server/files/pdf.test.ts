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

  it("keeps its worker for the next file: starting one (and loading pdf-lib) is paid once, not per upload", async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const bytes = await doc.save();
    await new Promise((r) => setTimeout(r, 0));
    const times: number[] = [];
    for (let i = 0; i < 12; i++) {
      const t = performance.now();
      expect(await pdfPageCount(bytes)).toBe(1);
      times.push(performance.now() - t);
    }
    // The first count may start a worker (or find the previous test's): the later ones never do.
    const later = times.slice(1).sort((a, b) => a - b);
    expect(later[Math.floor(later.length / 2)], `counts took ${times.map((t) => t.toFixed(0)).join(", ")} ms`).toBeLessThan(60);
  });

  it("after a count ran out of time, or a file pdf-lib refused, the next file is counted", async () => {
    const junk = Buffer.concat([Buffer.from("%PDF-1.4\n"), crypto.randomBytes(4 * 1024 * 1024)]);
    const doc = await PDFDocument.create();
    for (let i = 0; i < 2; i++) doc.addPage();
    const good = await doc.save();
    expect(await pdfPageCount(junk, 200)).toBeNull();
    expect(await pdfPageCount(good)).toBe(2);
    expect(await pdfPageCount(Buffer.from("%PDF-1.4\nnot a pdf"))).toBeNull();
    expect(await pdfPageCount(good)).toBe(2);
    // Side by side (two workers at most), each answer goes to its own caller.
    const docs = await Promise.all([1, 2, 3, 4, 5].map(async (n) => {
      const d = await PDFDocument.create();
      for (let i = 0; i < n; i++) d.addPage();
      return d.save();
    }));
    expect(await Promise.all(docs.map((d) => pdfPageCount(d)))).toEqual([1, 2, 3, 4, 5]);
  });
});
