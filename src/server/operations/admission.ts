// Admission for REST writes: at most WRITE_CONCURRENCY run at once in this
// process; the others wait in order, and one that waited WRITE_QUEUE_MS is
// shed with 503 `service_unavailable` + Retry-After before it touches the
// database. Under a burst larger than the database can take, the requests
// that get in are answered quickly and the rest are told to come back, instead
// of every request queueing for a connection and all of them answering late
// (400 simultaneous claims: p99 3.4 s before, on 2 cores). Reads are not
// queued (they hold a connection for one statement).
import { env } from "@/server/env";
import { AppError } from "@/server/errors";

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

let running = 0;
const queue: Waiter[] = [];

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

function acquire(): Promise<void> {
  if (running < env.WRITE_CONCURRENCY) {
    running++;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const waiter: Waiter = {
      admit: resolve,
      timer: setTimeout(() => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(new AppError("service_unavailable", "We are busy right now: retry in a moment"));
      }, env.WRITE_QUEUE_MS),
    };
    waiter.timer.unref();
    queue.push(waiter);
  });
}

/** Runs `work` once admitted (see above); a request shed here has done nothing. */
export async function admitWrite<T>(work: () => Promise<T>): Promise<T> {
  await acquire();
  try {
    return await work();
  } finally {
    release();
  }
}

/** For tests: writes running and waiting in this process. */
export const admissionState = () => ({ running, queued: queue.length });
