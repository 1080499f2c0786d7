// Both shared stores must count exactly under concurrency: two app instances
// see one budget. Redis is tested where one answers (CI and dev machines).
import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { consumeRateLimit, databaseCounter, redisCounter, type WindowCounter } from "./rate-limit";

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

async function burst(counter: WindowCounter, organizationId: string, limit: number, n: number) {
  const results = await Promise.all(Array.from({ length: n }, () => consumeRateLimit(organizationId, limit, counter)));
  return results.filter((r) => r.allowed).length;
}

describe("rate limit stores", () => {
  it("database: exactly `limit` of a concurrent burst are allowed", async () => {
    const { org } = await ownerWithOrganization();
    await awayFromWindowEdge();
    expect(await burst(databaseCounter, org.id, 7, 12)).toBe(7);
    const next = await consumeRateLimit(org.id, 7, databaseCounter);
    expect(next).toMatchObject({ allowed: false, remaining: 0, limit: 7 });
    expect(next.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(next.resetSeconds).toBeLessThanOrEqual(60);
  });

  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  afterAll(() => redis.disconnect());

  it("redis: two instances share one budget", async (ctx) => {
    if (!(await redisAnswers())) ctx.skip();
    const other = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const org = `org_${unique()}`;
      await awayFromWindowEdge();
      const [a, b] = await Promise.all([burst(redisCounter(redis), org, 5, 6), burst(redisCounter(other), org, 5, 6)]);
      expect(a + b).toBe(5);
    } finally {
      other.disconnect();
    }
  });
});
