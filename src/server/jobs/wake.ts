// Asks this process's job runner for a pass now rather than at its next poll.
// Kept apart from the runner (no imports) so request handlers can call it
// without loading every job kind. Called once a request that may have
// written outbox rows has answered (its transaction committed). On
// PostgreSQL the runners of every instance are also woken by the database
// itself (LISTEN/NOTIFY, see ./notify.ts); on the embedded database — one
// process — this call is the wake-up.
type WakeHandler = (table?: string) => void;
const g = globalThis as unknown as { __coverdeskWakeJobs?: WakeHandler };

/**
 * `table`: the outbox table that got rows (`event`, `mail_task`, …), so only
 * the lanes working on it pass; without it every lane passes. A runner that
 * listens to PostgreSQL ignores an untargeted call: the database wakes it at
 * the commit, with the table.
 */
export function wakeJobs(table?: string): void {
  signalEvents(table);
  g.__coverdeskWakeJobs?.(table);
}

// ---------- events committed: the event streams (GET /events/stream) listen here ----------

type EventsListener = () => void;
const listeners = ((g as { __coverdeskEventListeners?: Set<EventsListener> }).__coverdeskEventListeners ??= new Set());

/** Tells the event streams of this process that events may have committed (`table` "event", or unknown). */
export function signalEvents(table?: string): void {
  if (table !== undefined && table !== "event") return;
  for (const listener of listeners) listener();
}

/** Calls `listener` when events may have committed (here, or on any instance while a job runner listens); answers the unsubscribe. */
export function onEvents(listener: EventsListener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** The running runner's wake-up; `clearWakeHandler(it)` when it stops. */
export function setWakeHandler(handler: WakeHandler): void {
  g.__coverdeskWakeJobs = handler;
}

export function clearWakeHandler(handler: WakeHandler): void {
  if (g.__coverdeskWakeJobs === handler) g.__coverdeskWakeJobs = undefined;
}
