// Pages of an uploaded PDF, for the documents list. pdf-lib parses on the CPU
// for as long as a file makes it (junk after a `%PDF-` header took ~4 s a
// MiB), so it never runs on the request thread: counts run in worker threads
// with a time and memory limit, at most two at a time, and a file that cannot
// be counted in time is still accepted — its page count is unknown.
//
// A worker is kept for the next count (starting one and loading pdf-lib costs
// ~0.4 s of CPU, more than counting a usual file): it is replaced only when a
// count ran out of time (terminated mid-parse) or the worker died (its memory
// limit), and ends after a minute without work.
import { Worker } from "node:worker_threads";
import { limiter } from "@/server/concurrency";
import { logger } from "@/server/logger";

const TIME_LIMIT_MS = 3_000;
const MAX_PARALLEL = 2;
const IDLE_MS = 60_000;

// Plain CommonJS, evaluated in the worker: it resolves pdf-lib from node_modules at run time.
const COUNTER = `
const { parentPort } = require("node:worker_threads");
const { PDFDocument } = require("pdf-lib");
parentPort.on("message", ({ id, bytes }) => {
  PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false })
    .then((doc) => parentPort.postMessage({ id, pages: doc.getPageCount() }))
    .catch(() => parentPort.postMessage({ id, pages: null }));
});
`;

interface Counter {
  worker: Worker;
  /** The count under way: settles with the worker's answer, or null when the worker fails. */
  pending?: { id: number; settle: (pages: number | null, reuse: boolean) => void };
  idle?: NodeJS.Timeout;
}

const slot = limiter(MAX_PARALLEL);
/** Workers waiting for a count (at most MAX_PARALLEL exist: the limiter lets no more counts run). */
const idle: Counter[] = [];
let nextId = 0;

function startCounter(): Counter {
  const counter: Counter = {
    worker: new Worker(COUNTER, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 64 } }),
  };
  const fail = () => {
    drop(counter);
    counter.pending?.settle(null, false);
  };
  counter.worker.on("message", (msg: { id?: unknown; pages?: unknown }) => {
    const pending = counter.pending;
    if (!pending || msg.id !== pending.id) return;
    pending.settle(typeof msg.pages === "number" && Number.isInteger(msg.pages) ? msg.pages : null, true);
  });
  counter.worker.on("error", (err) => {
    logger.warn({ err }, "counting a PDF's pages failed");
    fail();
  });
  counter.worker.on("exit", fail);
  return counter;
}

function drop(counter: Counter) {
  clearTimeout(counter.idle);
  const i = idle.indexOf(counter);
  if (i >= 0) idle.splice(i, 1);
}

function release(counter: Counter) {
  counter.pending = undefined;
  counter.worker.unref(); // an idle worker never keeps the process alive
  counter.idle = setTimeout(() => {
    drop(counter);
    void counter.worker.terminate();
  }, IDLE_MS);
  counter.idle.unref();
  idle.push(counter);
}

function countInWorker(bytes: Uint8Array, timeLimitMs: number): Promise<number | null> {
  const counter = idle.pop() ?? startCounter();
  clearTimeout(counter.idle);
  counter.worker.ref();
  return new Promise((resolve) => {
    const id = ++nextId;
    let settled = false;
    const timer = setTimeout(() => {
      logger.warn({ bytes: bytes.byteLength, timeLimitMs }, "a PDF's pages could not be counted in time");
      settle(null, false);
      void counter.worker.terminate(); // stopped mid-parse: this worker is not reused
    }, timeLimitMs);
    const settle = (pages: number | null, reuse: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      counter.pending = undefined;
      // An answer (a count, or pdf-lib refusing the file) leaves the worker ready for the next file.
      if (reuse) release(counter);
      resolve(pages);
    };
    counter.pending = { id, settle };
    // Copied, not transferred: the caller keeps the bytes it stores.
    counter.worker.postMessage({ id, bytes });
  });
}

export function pdfPageCount(bytes: Uint8Array, timeLimitMs = TIME_LIMIT_MS): Promise<number | null> {
  return slot(() => countInWorker(bytes, timeLimitMs));
}
