// A job kind's retry table: how long to wait after each failed attempt, how
// many attempts there are, and what becomes of the row once they are used up.
// Declared with the kind (src/server/jobs/kinds.ts lists them); the runner
// alone turns a failure into "again at …" or "exhausted".

export interface RetryTable<Row, Result> {
  /** Seconds before the next try after `failures` failed attempts (1 = after the first); undefined: none is left. */
  delayS(failures: number): number | undefined;
  /** Attempts in all (Infinity: never given up). */
  maxAttempts: number;
  /** A receiver's own "retry after N s" (429 Retry-After) may lengthen, never shorten, the wait. */
  honourRetryAfter?: boolean;
  /** What is done with the row once no attempt is left, or after a failure the kind calls final. */
  exhausted(row: Row, result: Result, attempt: number): Promise<void>;
  /** The same in words, for logs and the docs. */
  whenExhausted: string;
}

/** A fixed list of delays (seconds before the retry after the 1st, 2nd, … failure); given up after the last. */
export function scheduleOf(delays: () => readonly number[]) {
  return {
    delayS: (failures: number) => delays()[failures - 1],
    get maxAttempts() {
      return delays().length + 1;
    },
  };
}

/** An open-ended backoff: `firstS`, doubling, at most `maxS`; never given up. */
export function backoff(firstS: number, maxS: number) {
  return {
    delayS: (failures: number) => Math.min(firstS * 2 ** Math.max(failures - 1, 0), maxS),
    maxAttempts: Infinity,
  };
}

/**
 * When the try after `attempt` failed attempts is due, or null when the table
 * has none left (the row is then exhausted).
 */
export function nextAttemptAt(
  table: Pick<RetryTable<unknown, unknown>, "delayS" | "maxAttempts" | "honourRetryAfter">,
  attempt: number,
  retryAfterS: number | null = null,
  now = Date.now(),
): Date | null {
  if (attempt >= table.maxAttempts) return null;
  const delay = table.delayS(attempt);
  if (delay === undefined) return null;
  const wait = table.honourRetryAfter ? Math.max(delay, retryAfterS ?? 0) : delay;
  return new Date(now + wait * 1000);
}
