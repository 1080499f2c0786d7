// Admission for REST writes: at most WRITE_CONCURRENCY run at once in this
// process; the others wait in order, and one still waiting WRITE_QUEUE_MS
// after its request ARRIVED (not after it joined the queue: the time it spent
// being read and checked counts) is shed with 503 `service_unavailable` +
// Retry-After before it touches the database. Under a burst larger than the database can take, the requests
// that get in are answered quickly and the rest are told to come back, instead
// of every request queueing for a connection and all of them answering late
// (400 simultaneous claims: p99 3.4 s before, on 2 cores). Reads are not
// queued (they hold a connection for one statement).
// A process can also fall behind before the queue: busy, its event loop reads
// the heads of the connections it accepted only between other work, so a burst
// reaches the pipeline spread over seconds while the queue stays short. A write
// whose head was read WRITE_QUEUE_MS or more after its connection was accepted
// (the backlog src/server/http-guard.ts measures) while the loop was saturated
// lately (utilization ≥ 0.9 over the last quarter second) is shed even with a
// place free, before its key is checked or its body read (`assertNotBehind`):
// the process is that far behind its arrivals, and the few milliseconds a
// refusal costs instead of the write go to the requests still in time. Both
// conditions: a connection opened ahead of its request (a client's or a proxy's
// warm pool) also shows a long wait before its head, but on an idle process; a
// client slow to send its body is not counted (that time is after the head).
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { loopUtilization } from "./busy";

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

let running = 0;
const queue: Waiter[] = [];
/** How long an admitted write has been taking lately (ms, a moving average), 0 before the first. */
let serviceMs = 0;

function release() {
  // The place passes to the next in line (no newcomer overtakes it); else it frees.
  const next = queue.shift();
  if (next) {
    clearTimeout(next.timer);
    next.admit();
  } else {
    running--;
  }
}

const shed = () => new AppError("service_unavailable", "We are busy right now: retry in a moment");

/**
 * How far behind its arrival the process read a write (ms): its read backlog
 * when the event loop was saturated lately, else 0 — on an idle process a long
 * wait before the head is a connection opened ahead of its request (a warm
 * pool), which counts neither for shedding nor against its queue deadline.
 */
export function behindBy(backlogMs: number): number {
  return backlogMs > 0 && loopUtilization() >= SATURATED ? backlogMs : 0;
}

/**
 * Refuses a write the process read WRITE_QUEUE_MS or more behind its arrival
 * (`behindBy`): called first, before its key is checked or its body read, so
 * that the refusal costs as little as it can.
 */
export function assertNotBehind(behindMs: number): void {
  if (behindMs >= env.WRITE_QUEUE_MS) throw shed();
}

/** Event-loop utilization from which the process counts as saturated. */
const SATURATED = 0.9;

function acquire(arrivedAt: number): Promise<void> {
  if (running < env.WRITE_CONCURRENCY) {
    running++;
    return Promise.resolve();
  }
  // Its time is up already (it arrived WRITE_QUEUE_MS ago and no place is free): refused now.
  const left = arrivedAt + env.WRITE_QUEUE_MS - performance.now();
  if (left <= 0) return Promise.reject(shed());
  // Nor does one wait that would still be waiting when its time is up: the places free at about
  // WRITE_CONCURRENCY per serviceMs, so the last in line would wait its place × serviceMs / WRITE_CONCURRENCY.
  // Refused now, it is told to come back at once instead of after holding its connection for nothing.
  if (serviceMs > 0 && ((queue.length + 1) * serviceMs) / env.WRITE_CONCURRENCY > left) return Promise.reject(shed());
  return new Promise<void>((resolve, reject) => {
    const waiter: Waiter = {
      admit: resolve,
      timer: setTimeout(() => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(shed());
      }, left),
    };
    waiter.timer.unref();
    queue.push(waiter);
  });
}

/**
 * Runs `work` once admitted (see above); a request shed here has done nothing.
 * `arrivedAt` is the request's arrival (performance.now()), from which its
 * WRITE_QUEUE_MS are counted; by default, now.
 */
export async function admitWrite<T>(work: () => Promise<T>, arrivedAt = performance.now()): Promise<T> {
  await acquire(arrivedAt);
  const started = performance.now();
  try {
    return await work();
  } finally {
    const took = performance.now() - started;
    serviceMs = serviceMs === 0 ? took : serviceMs * 0.8 + took * 0.2;
    release();
  }
}

/** For tests: writes running and waiting in this process, and the recent time of one. */
export const admissionState = () => ({ running, queued: queue.length });
export const admissionServiceMs = () => serviceMs;
/** For tests: forgets the recent time of a write. */
export const resetAdmissionServiceMs = () => {
  serviceMs = 0;
};
