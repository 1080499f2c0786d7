// Both shared stores must count exactly under concurrency: two app instances
// see one budget. Redis is tested where one answers (CI and dev machines).
import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { db } from "@/server/db/client";
import {
  batchedLimiter,
  consumeRateLimit,
  counterLimiter,
  databaseBatchWriter,
  databaseCounter,
  memoryLimiter,
  redisCounter,
  type RateLimiter,
} from "./rate-limit";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A burst must not straddle two one-minute windows. */
async function awayFromWindowEdge() {
  const intoWindow = (Date.now() / 1000) % 60;
  if (intoWindow > 55) await new Promise((r) => setTimeout(r, (61 - intoWindow) * 1000));
}

async function burst(limiter: RateLimiter, organizationId: string, limit: number, n: number) {
  const results = await Promise.all(Array.from({ length: n }, () => consumeRateLimit(organizationId, limit, limiter)));
  return results.filter((r) => r.allowed).length;
}

/** What the database holds for an organization's current window. */
async function storedCount(organizationId: string): Promise<number> {
  const rows = await db.rateLimitWindow.findMany({ where: { organizationId } });
  return rows.reduce((sum, r) => sum + r.count, 0);
}

describe("rate limit stores", () => {
  it("database: exactly `limit` of a concurrent burst are allowed", async () => {
    const { org } = await ownerWithOrganization();
    await awayFromWindowEdge();
    expect(await burst(counterLimiter(databaseCounter), org.id, 7, 12)).toBe(7);
    const next = await consumeRateLimit(org.id, 7, counterLimiter(databaseCounter));
    expect(next).toMatchObject({ allowed: false, remaining: 0, limit: 7 });
    expect(next.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(next.resetSeconds).toBeLessThanOrEqual(60);
  });

  it("memory (the embedded database's one process): exact", async () => {
    await awayFromWindowEdge();
    const limiter = memoryLimiter();
    expect(await burst(limiter, "org_a", 30, 45)).toBe(30);
    expect(await burst(limiter, "org_b", 30, 10)).toBe(10);
    expect((await limiter("org_a", 30)).remaining).toBe(0);
  });

  it("batched (PostgreSQL without Redis): one instance is exact, and writes what it allowed", async () => {
    const { org } = await ownerWithOrganization();
    await awayFromWindowEdge();
    const limiter = batchedLimiter(undefined, 0);
    // Far from the limit nothing is written until a flush…
    expect(await burst(limiter, org.id, 200, 4)).toBe(4);
    expect(await storedCount(org.id)).toBe(0);
    await limiter.flush();
    expect(await storedCount(org.id)).toBe(4);
    // …and one instance lets exactly the limit through, whatever the batches.
    expect(await burst(limiter, org.id, 200, 260)).toBe(196);
    await limiter.flush();
    expect(await storedCount(org.id)).toBe(264);
    expect(await limiter(org.id, 200)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it("batched: two instances share one budget, at most 5 % over it", async () => {
    const { org } = await ownerWithOrganization();
    await awayFromWindowEdge();
    const [a, b] = [batchedLimiter(undefined, 0), batchedLimiter(undefined, 0)];
    let allowed = 0;
    // Interleaved, as two servers behind a load balancer would see them.
    for (let i = 0; i < 20; i++) {
      const [x, y] = await Promise.all([burst(a, org.id, 100, 8), burst(b, org.id, 100, 8)]);
      allowed += x + y;
      if (i % 3 === 0) await Promise.all([a.flush(), b.flush()]);
    }
    expect(allowed).toBeGreaterThanOrEqual(100);
    expect(allowed).toBeLessThanOrEqual(105);
    // A small limit is decided on the shared count every time: exact.
    const other = await ownerWithOrganization();
    const [x, y] = await Promise.all([burst(a, other.org.id, 7, 6), burst(b, other.org.id, 7, 6)]);
    expect(x + y).toBe(7);
  });

  it("batched: the batch writer and the single-row counter count the same rows", async () => {
    const { org } = await ownerWithOrganization();
    await awayFromWindowEdge();
    await counterLimiter(databaseCounter)(org.id, 1000);
    const limiter = batchedLimiter(undefined, 0);
    await burst(limiter, org.id, 1000, 3);
    await limiter.flush();
    expect(await db.rateLimitWindow.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await storedCount(org.id)).toBe(4);
  });

  it("batched: two instances writing the same keys in opposite orders never deadlock", async () => {
    const keys = Array.from({ length: 300 }, (_, i) => `deadlock-${unique()}-${String(i).padStart(3, "0")}`);
    const windowStart = Math.floor(Date.now() / 60_000) * 60;
    const rows = keys.map((key) => ({ key, windowStart, by: 1 }));
    for (let round = 0; round < 5; round++) {
      await Promise.all([databaseBatchWriter(rows), databaseBatchWriter([...rows].reverse())]);
    }
    const stored = await db.rateLimitWindow.findMany({ where: { organizationId: { in: keys } }, select: { count: true } });
    expect(stored).toHaveLength(300);
    expect(stored.every((r) => r.count === 10)).toBe(true);
  });

  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  afterAll(() => redis.disconnect());

  it("redis: two instances share one budget", async (ctx) => {
    if (!(await redisAnswers())) ctx.skip();
    const other = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const org = `org_${unique()}`;
      await awayFromWindowEdge();
      const [a, b] = await Promise.all([
        burst(counterLimiter(redisCounter(redis)), org, 5, 6),
        burst(counterLimiter(redisCounter(other)), org, 5, 6),
      ]);
      expect(a + b).toBe(5);
    } finally {
      other.disconnect();
    }
  });
});
