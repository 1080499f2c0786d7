// Pages of an uploaded PDF, for the documents list. pdf-lib parses on the CPU
// for as long as a file makes it (junk after a `%PDF-` header took ~4 s a
// MiB), so it never runs on the request thread: each count runs in a worker
// thread with a time and memory limit, at most two at a time, and a file that
// cannot be counted in time is still accepted — its page count is unknown.
import { Worker } from "node:worker_threads";
import { limiter } from "@/server/concurrency";
import { logger } from "@/server/logger";

const TIME_LIMIT_MS = 3_000;
const MAX_PARALLEL = 2;

// Plain CommonJS, evaluated in the worker: it resolves pdf-lib from node_modules at run time.
const COUNTER = `
const { parentPort, workerData } = require("node:worker_threads");
const { PDFDocument } = require("pdf-lib");
PDFDocument.load(workerData, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false })
  .then((doc) => parentPort.postMessage(doc.getPageCount()))
  .catch(() => parentPort.postMessage(null));
`;

const slot = limiter(MAX_PARALLEL);

function countInWorker(bytes: Uint8Array, timeLimitMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const worker = new Worker(COUNTER, {
      eval: true,
      workerData: bytes,
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 64 },
    });
    const done = (pages: number | null) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(pages);
    };
    const timer = setTimeout(() => {
      logger.warn({ bytes: bytes.byteLength, timeLimitMs }, "a PDF's pages could not be counted in time");
      done(null);
    }, timeLimitMs);
    worker.once("message", (pages: unknown) => done(typeof pages === "number" && Number.isInteger(pages) ? pages : null));
    worker.once("error", (err) => {
      logger.warn({ err }, "counting a PDF's pages failed");
      done(null);
    });
  });
}

export function pdfPageCount(bytes: Uint8Array, timeLimitMs = TIME_LIMIT_MS): Promise<number | null> {
  return slot(() => countInWorker(bytes, timeLimitMs));
}
