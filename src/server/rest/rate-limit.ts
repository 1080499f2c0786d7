// Requests per minute per organization over all its keys, counted in a fixed
// one-minute window. The REST limit (`apiLimiter`) costs no database round
// trip per request:
// - Redis when REDIS_URL is set (one INCR per request, exact across instances);
// - in process with the embedded database (one process owns it: exact);
// - on PostgreSQL without Redis, counted in process and written in batches
//   (`batchedLimiter`): far from the limit each instance keeps at most a
//   twentieth of the limit unwritten, flushing every 100 ms; within a tenth
//   of the limit, every request goes to the database and is decided on the
//   shared count. Two instances are therefore exact; each further instance
//   can let through at most 5 % more. Counts not yet written when a process
//   dies are lost (at most that twentieth).
// The same shared counters (`activeCounter`: Redis or the database, exact)
// serve the sign-in limits (src/server/session/sign-in-limit.ts).
import { Redis } from "ioredis";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

const WINDOW_S = 60;

export interface RateLimitResult {
  limit: number;
  remaining: number;
  resetSeconds: number;
  allowed: boolean;
}

/**
 * Adds `by` (default 1; negative to give one back) to a key's window and
 * answers the window's count, atomically. A key is an organization id, or a
 * namespaced key (`auth:…`) for the sign-in limits; a window lasts
 * `windowSeconds` (default 60, at most the hour housekeeping keeps rows).
 */
export type WindowCounter = (key: string, windowStart: number, windowSeconds?: number, by?: number) => Promise<number>;

/** The fixed window of `windowSeconds` that `now` (seconds) falls in, and how long until it ends. */
export function currentWindow(windowSeconds: number, now = Date.now() / 1000) {
  const start = Math.floor(now / windowSeconds) * windowSeconds;
  return { start, retryAfterSeconds: Math.max(1, Math.ceil(start + windowSeconds - now)) };
}

export const databaseCounter: WindowCounter = async (key, windowStart, _windowSeconds, by = 1) => {
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_window ("organizationId", "windowStart", count)
    VALUES (${key}, ${new Date(windowStart * 1000)}, ${by})
    ON CONFLICT ("organizationId", "windowStart") DO UPDATE SET count = rate_limit_window.count + ${by}
    RETURNING count`;
  return Number(rows[0]?.count ?? by);
};

export function redisCounter(redis: Redis): WindowCounter {
  return async (counterKey, windowStart, windowSeconds = WINDOW_S, by = 1) => {
    const key = `coverdesk:rl:${counterKey}:${windowStart}`;
    const [[incrError, count] = [], [expireError] = []] =
      (await redis
        .multi()
        .incrby(key, by)
        .expire(key, windowSeconds * 2)
        .exec()) ?? [];
    if (incrError || expireError) throw incrError ?? expireError;
    return Number(count);
  };
}

const g = globalThis as unknown as { __coverdeskCounter?: WindowCounter };
/** The shared store of this process: Redis when REDIS_URL is set, else the database. */
export const activeCounter = () =>
  (g.__coverdeskCounter ??= env.REDIS_URL
    ? redisCounter(new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true }))
    : databaseCounter);

const resultOf = (limit: number, count: number, windowStart: number, now: number): RateLimitResult => ({
  limit,
  remaining: Math.max(0, limit - count),
  resetSeconds: Math.max(1, Math.ceil(windowStart + WINDOW_S - now)),
  allowed: count <= limit,
});

/** Counts one request of `key` against `limit` per minute. */
export type RateLimiter = (key: string, limit: number) => Promise<RateLimitResult>;

/** A limiter over a shared exact counter: one round trip per request. */
export const counterLimiter =
  (counter: WindowCounter): RateLimiter =>
  async (key, limit) => {
    const now = Date.now() / 1000;
    const windowStart = Math.floor(now / WINDOW_S) * WINDOW_S;
    return resultOf(limit, await counter(key, windowStart), windowStart, now);
  };

/** Exact for one process (the embedded database has exactly one). */
export function memoryLimiter(): RateLimiter {
  const counts = new Map<string, number>();
  let window = 0;
  return async (key, limit) => {
    const now = Date.now() / 1000;
    const windowStart = Math.floor(now / WINDOW_S) * WINDOW_S;
    if (windowStart !== window) {
      counts.clear();
      window = windowStart;
    }
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    return resultOf(limit, count, windowStart, now);
  };
}

interface Tally {
  windowStart: number;
  /** The shared count as of this instance's last write. */
  known: number;
  /** Requests allowed here and not yet written. */
  pending: number;
  /** Requests being written now (counted until the database answers). */
  writing: number;
  /** Of those, the ones a background flush is writing (allowed without a look at the shared count). */
  flushing: number;
}

/**
 * Adds many keys' counts in one statement; answers each key's shared count. The rows are written in key
 * order: two instances flushing the same keys in their own orders locked them crosswise (PostgreSQL's
 * `deadlock detected`, seen once in a bench run's claims phase; the counts were kept and written again).
 */
export type BatchWriter = (rows: { key: string; windowStart: number; by: number }[]) => Promise<Map<string, number>>;

export const databaseBatchWriter: BatchWriter = async (rows) => {
  const out = new Map<string, number>();
  if (rows.length === 0) return out;
  const result = await db.$queryRaw<{ organizationId: string; count: number }[]>`
    INSERT INTO rate_limit_window ("organizationId", "windowStart", count)
    SELECT k, to_timestamp(w) AT TIME ZONE 'UTC', b
    FROM unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.windowStart)}::int[], ${rows.map((r) => r.by)}::int[]) AS t(k, w, b)
    ORDER BY k, w
    ON CONFLICT ("organizationId", "windowStart") DO UPDATE SET count = rate_limit_window.count + EXCLUDED.count
    RETURNING "organizationId", count`;
  for (const r of result) out.set(r.organizationId, Number(r.count));
  return out;
};

/**
 * Counts in process, writes in batches (see the top of this file). `flushMs`
 * 0 flushes only when asked (tests).
 */
export function batchedLimiter(write: BatchWriter = databaseBatchWriter, flushMs = 100) {
  const tallies = new Map<string, Tally>();
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const flush = async (): Promise<void> => {
    if (flushing) return flushing;
    const rows: { key: string; windowStart: number; by: number; tally: Tally }[] = [];
    for (const [key, tally] of tallies) {
      if (tally.pending > 0) {
        rows.push({ key, windowStart: tally.windowStart, by: tally.pending, tally });
        tally.writing += tally.pending;
        tally.flushing += tally.pending;
        tally.pending = 0;
      } else if (tally.windowStart < Date.now() / 1000 - WINDOW_S) tallies.delete(key);
    }
    if (rows.length === 0) return;
    flushing = write(rows)
      .then((counts) => {
        for (const r of rows) {
          r.tally.writing -= r.by;
          r.tally.flushing -= r.by;
          const count = counts.get(r.key);
          if (count !== undefined) r.tally.known = Math.max(r.tally.known, count);
        }
      })
      .catch((err) => {
        // Kept for the next flush.
        for (const r of rows) {
          r.tally.writing -= r.by;
          r.tally.flushing -= r.by;
          r.tally.pending += r.by;
        }
        logger.warn({ err }, "could not write the rate-limit counts; retrying");
      })
      .finally(() => {
        flushing = null;
      });
    return flushing;
  };

  const schedule = () => {
    if (timer || flushMs <= 0) return;
    timer = setTimeout(() => {
      timer = null;
      void flush().then(() => {
        if ([...tallies.values()].some((t) => t.pending > 0)) schedule();
      });
    }, flushMs);
    timer.unref();
  };

  const limiter: RateLimiter & { flush: () => Promise<void> } = Object.assign(
    async (key: string, limit: number): Promise<RateLimitResult> => {
      const now = Date.now() / 1000;
      const windowStart = Math.floor(now / WINDOW_S) * WINDOW_S;
      let tally = tallies.get(key);
      if (!tally || tally.windowStart !== windowStart) {
        tally = { windowStart, known: 0, pending: 0, writing: 0, flushing: 0 };
        tallies.set(key, tally);
      }
      const headroom = Math.floor(limit / 10);
      // Allowed here without the shared count: never while a decision on it is under way here (its
      // answer may show the limit near), and at most headroom/2 of them unwritten at any time.
      const unwritten = tally.pending + 1;
      const deciding = tally.writing > tally.flushing;
      if (
        !deciding &&
        unwritten + tally.flushing <= headroom / 2 &&
        tally.known + tally.writing + unwritten <= limit - headroom
      ) {
        tally.pending = unwritten;
        schedule();
        return resultOf(limit, tally.known + tally.writing + tally.pending, windowStart, now);
      }
      // Near the limit (or a batch is full): decide on the shared count.
      const t = tally;
      const by = unwritten;
      t.pending = 0;
      t.writing += by;
      let count: number | undefined;
      try {
        // This instance's own counts being flushed land first, so the shared count holds them.
        if (flushing) await flushing;
        count = (await write([{ key, windowStart, by }])).get(key);
      } catch (err) {
        t.pending += by - 1;
        throw err;
      } finally {
        t.writing -= by;
      }
      const shared = count ?? t.known + by;
      t.known = Math.max(t.known, shared);
      return resultOf(limit, shared, windowStart, now);
    },
    { flush },
  );
  return limiter;
}

const gl = globalThis as unknown as { __coverdeskApiLimiter?: RateLimiter };
/** The REST limit's store for this process (see the top of this file). */
export const apiLimiter = (): RateLimiter =>
  (gl.__coverdeskApiLimiter ??= env.REDIS_URL
    ? counterLimiter(activeCounter())
    : env.DATABASE_URL
      ? batchedLimiter()
      : memoryLimiter());

/** Writes what this process counted and has not written yet (at shutdown). */
export async function flushRateLimits(): Promise<void> {
  const limiter = gl.__coverdeskApiLimiter as (RateLimiter & { flush?: () => Promise<void> }) | undefined;
  await limiter?.flush?.();
}

export async function consumeRateLimit(
  organizationId: string,
  limit: number,
  limiter: RateLimiter = apiLimiter(),
): Promise<RateLimitResult> {
  return limiter(organizationId, limit);
}

export function rateLimitHeaders(headers: Headers, r: RateLimitResult): void {
  headers.set("RateLimit-Policy", `"default";q=${r.limit};w=${WINDOW_S}`);
  headers.set("RateLimit", `"default";r=${r.remaining};t=${r.resetSeconds}`);
}
