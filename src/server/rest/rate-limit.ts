// Requests per minute per organization over all its keys, counted in a fixed
// one-minute window in a store every app instance shares: Redis when
// REDIS_URL is set, else the database. The same counters serve the sign-in
// limits (src/server/session/sign-in-limit.ts) under keys of their own.
import { Redis } from "ioredis";
import { db } from "@/server/db/client";
import { env } from "@/server/env";

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

export async function consumeRateLimit(
  organizationId: string,
  limit: number,
  counter: WindowCounter = activeCounter(),
): Promise<RateLimitResult> {
  const now = Date.now() / 1000;
  const windowStart = Math.floor(now / WINDOW_S) * WINDOW_S;
  const count = await counter(organizationId, windowStart);
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil(windowStart + WINDOW_S - now)),
    allowed: count <= limit,
  };
}

export function rateLimitHeaders(headers: Headers, r: RateLimitResult): void {
  headers.set("RateLimit-Policy", `"default";q=${r.limit};w=${WINDOW_S}`);
  headers.set("RateLimit", `"default";r=${r.remaining};t=${r.resetSeconds}`);
}
