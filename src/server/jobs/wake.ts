// Asks this process's job runner for a pass now rather than at its next poll.
// Kept apart from the runner (no imports) so request handlers can call it
// without loading every job kind. Called once a request that may have
// written outbox rows has answered (its transaction committed). On
// PostgreSQL the runners of every instance are also woken by the database
// itself (LISTEN/NOTIFY, see ./notify.ts); on the embedded database — one
// process — this call is the wake-up.
const g = globalThis as unknown as { __coverdeskWakeJobs?: () => void };

export function wakeJobs(): void {
  g.__coverdeskWakeJobs?.();
}

/** The running runner's wake-up; `clearWakeHandler(it)` when it stops. */
export function setWakeHandler(handler: () => void): void {
  g.__coverdeskWakeJobs = handler;
}

export function clearWakeHandler(handler: () => void): void {
  if (g.__coverdeskWakeJobs === handler) g.__coverdeskWakeJobs = undefined;
}
