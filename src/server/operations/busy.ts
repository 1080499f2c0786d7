// How many requests this process's route handlers are working on right now:
// the operation pipeline's (REST and the app's routes) and the few routes
// outside it (better-auth, tRPC, Paystack's webhook, a payment link's page),
// each from its start to its answer (a stream counts until its answer starts,
// not while it streams). The job runner's background lanes give way while it
// is above zero (src/server/jobs/runner.ts), and a shutdown waits for it to
// reach zero beside the HTTP server's own count (src/server/lifecycle.ts).
import { performance } from "node:perf_hooks";

let working = 0;

export const requestsWorking = () => working;

/** Counts `work` as a request being worked on until it settles. */
export async function countWorking<T>(work: () => Promise<T>): Promise<T> {
  working++;
  try {
    return await work();
  } finally {
    working--;
  }
}

/** A route handler counted by `countWorking` for as long as it works. */
export function counted<A extends unknown[]>(handler: (...args: A) => Promise<Response>) {
  return (...args: A): Promise<Response> => countWorking(() => handler(...args));
}

let sampler: NodeJS.Timeout | undefined;
let utilization = 0;

/**
 * How busy this process's event loop was lately: its utilization (0–1) over
 * the last quarter of a second that ended (sampled by an unref'd timer started
 * on the first call). Saturated, the loop reads new connections only between
 * other work, so their requests wait unseen.
 */
export function loopUtilization(): number {
  if (!sampler) {
    let last = performance.eventLoopUtilization();
    sampler = setInterval(() => {
      const now = performance.eventLoopUtilization();
      utilization = performance.eventLoopUtilization(now, last).utilization;
      last = now;
    }, 250);
    sampler.unref();
  }
  return utilization;
}
