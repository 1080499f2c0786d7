#!/usr/bin/env node
// `npm start [-- next start's options]`: the production server, on every core.
//
// One Node process answers requests on one core. On PostgreSQL this starts
// WEB_CONCURRENCY copies of `next start` (default: the machine's cores, at
// most 8) under Node's cluster module: they share the port and each accepts
// connections itself (SCHED_NONE: the kernel wakes a waiting worker, so an
// idle one takes the next connection). Node's default on Linux, round robin,
// has the primary accept every connection and hand it over IPC to one worker
// at a time, waiting for that worker's event loop to take it: under a burst of
// new connections the busy workers took them ~65 a second (400 claims at once:
// p99 7.4 s, every one admitted late; with SCHED_NONE 3.0 s, the excess shed
// with 503 by the admission queue). NODE_CLUSTER_SCHED_POLICY=rr restores it. They
// are instances like any other on the same database — the rate limits, the
// key cache's 5 s, metering and the job runner's leases already hold across
// instances. Only the first worker runs the job runner (WORKER as set, else
// on); the others leave it to it, so the database is not polled N times.
//
// The embedded database belongs to one process, so without DATABASE_URL (or
// with WEB_CONCURRENCY=1) `next start` runs in this very process, as before.
//
// Signals: SIGTERM or SIGINT is passed to every worker, which drains as a
// single instance does (src/server/lifecycle.ts); the primary exits when they
// all have — 0 when they all did. A repeated signal changes nothing. A worker
// that fails before it is ready (bad settings, an unreachable database) is
// the same failure in all of them: the others are stopped and the primary
// exits 1 — never a restart loop. A worker that dies after it was ready is
// replaced.
import cluster from "node:cluster";
import os from "node:os";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const NEXT_BIN = require.resolve("next/dist/bin/next");
const nextArgs = ["start", ...process.argv.slice(2)];

process.env.NEXT_TELEMETRY_DISABLED ??= "1";
// The app drains on SIGTERM itself (src/server/lifecycle.ts); Next must leave the signal to it.
process.env.NEXT_MANUAL_SIG_HANDLE = "true";

/** A line in the app's log format (pino's JSON), from the primary. */
function log(level, msg, fields = {}) {
  const levels = { info: 30, warn: 40, error: 50 };
  const line = JSON.stringify({
    level: levels[level],
    time: Date.now(),
    pid: process.pid,
    service: "coverdesk",
    role: "primary",
    ...fields,
    msg,
  });
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);
}

function concurrency() {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  const postgres = !!process.env.DATABASE_URL;
  if (!raw) return postgres ? Math.min(os.availableParallelism(), 8) : 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    log("error", `WEB_CONCURRENCY must be a whole number from 1 to 64, not "${raw}"`);
    process.exit(1);
  }
  if (n > 1 && !postgres) {
    log("error", "WEB_CONCURRENCY above 1 needs DATABASE_URL: the embedded database can be opened by one process only");
    process.exit(1);
  }
  return n;
}

if (cluster.isPrimary) {
  // Next reads .env files in each process it starts; the primary reads them too, to know DATABASE_URL.
  require("@next/env").loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
  const count = concurrency();
  if (count === 1) {
    process.argv = [process.argv[0], NEXT_BIN, ...nextArgs];
    require(NEXT_BIN);
  } else {
    runPrimary(count);
  }
}

function runPrimary(count) {
  const runner = process.env.WORKER || process.env.WEBHOOK_WORKER || "true";
  /** worker id → { index, ready } */
  const workers = new Map();
  let stopping = false;
  let exitCode = 0;

  // See the top: the workers accept their own connections, unless the operator chose otherwise.
  if (!process.env.NODE_CLUSTER_SCHED_POLICY) cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: NEXT_BIN, args: nextArgs });

  const fork = (index) => {
    const worker = cluster.fork({
      WORKER: index === 0 ? runner : "false",
      WEBHOOK_WORKER: "",
      COVERDESK_CLUSTER_WORKER: String(index),
    });
    workers.set(worker.id, { index, ready: false });
    worker.on("message", (message) => {
      if (message && message.type === "coverdesk:ready") workers.get(worker.id).ready = true;
    });
  };

  const stop = (signal) => {
    if (stopping) {
      log("info", "already shutting down: signal ignored", { signal });
      return;
    }
    stopping = true;
    log("info", "shutting down the workers", { signal, workers: workers.size });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    // Each worker drains within its own timeout (SHUTDOWN_TIMEOUT_MS, 10 s); one that has not ended 20 s after that is ended.
    const drainMs = Number(process.env.SHUTDOWN_TIMEOUT_MS) || 10_000;
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    }, drainMs + 20_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  cluster.on("exit", (worker, code, signal) => {
    const { index, ready } = workers.get(worker.id) ?? { index: -1, ready: false };
    workers.delete(worker.id);
    if (stopping) {
      // A worker that did not end its drain cleanly makes the whole stop unclean.
      if (code !== 0 || signal) exitCode = 1;
      if (workers.size === 0) {
        log("info", "stopped");
        process.exit(exitCode);
      }
      return;
    }
    if (!ready) {
      // What stopped it would stop every worker (the reason is in its own log above).
      log("error", "a worker stopped before it was ready: stopping", { worker: index, code, signal });
      exitCode = 1;
      stop("worker failed");
      if (workers.size === 0) process.exit(1);
      return;
    }
    log("error", "a worker stopped: starting another", { worker: index, code, signal });
    fork(index);
  });

  log("info", `starting ${count} workers`, { workers: count });
  for (let index = 0; index < count; index++) fork(index);
}
