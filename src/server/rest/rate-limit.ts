// Requests per minute per organization over all its keys, counted in a fixed
// one-minute window in a store every app instance shares: Redis when
// REDIS_URL is set, else the database.
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

/** Adds one request to an organization's window and answers the window's count. */
export type WindowCounter = (organizationId: string, windowStart: number) => Promise<number>;

export const databaseCounter: WindowCounter = async (organizationId, windowStart) => {
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_window ("organizationId", "windowStart", count)
    VALUES (${organizationId}, ${new Date(windowStart * 1000)}, 1)
    ON CONFLICT ("organizationId", "windowStart") DO UPDATE SET count = rate_limit_window.count + 1
    RETURNING count`;
  return Number(rows[0]?.count ?? 1);
};

export function redisCounter(redis: Redis): WindowCounter {
  return async (organizationId, windowStart) => {
    const key = `coverdesk:rl:${organizationId}:${windowStart}`;
    const [[incrError, count] = [], [expireError] = []] =
      (await redis
        .multi()
        .incr(key)
        .expire(key, WINDOW_S * 2)
        .exec()) ?? [];
    if (incrError || expireError) throw incrError ?? expireError;
    return Number(count);
  };
}

const g = globalThis as unknown as { __coverdeskCounter?: WindowCounter };
const activeCounter = () =>
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
