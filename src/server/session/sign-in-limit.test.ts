// The sign-in limits count in the shared store (here the real database; Redis
// uses the same WindowCounter, covered in rest/rate-limit.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase } from "@/server/db/client";
import { Redis } from "ioredis";
import { databaseCounter, redisCounter } from "@/server/rest/rate-limit";
import { unique } from "@/test/fixtures";
import { ACCOUNT_MAX_FAILURES, ACCOUNT_WINDOW_S, beginSignInAttempt, ipRateLimitStorage } from "./sign-in-limit";

/** A burst must not straddle two windows. */
async function awayFromWindowEdge(windowSeconds: number) {
  const into = (Date.now() / 1000) % windowSeconds;
  if (into > windowSeconds - 5) await new Promise((r) => setTimeout(r, (windowSeconds + 1 - into) * 1000));
}

beforeAll(connectDatabase); // opening and migrating the database is not part of a test's time

describe("per-account sign-in limit", () => {
  it("a concurrent burst of wrong passwords gets exactly 10 tries; then the account is refused with a Retry-After", async () => {
    const email = `victim-${unique()}@example.test`;
    await awayFromWindowEdge(ACCOUNT_WINDOW_S);
    const attempts = await Promise.all(Array.from({ length: 15 }, () => beginSignInAttempt(email, databaseCounter)));
    expect(attempts.filter((a) => a.allowed)).toHaveLength(ACCOUNT_MAX_FAILURES);

    // Whatever the password would be, whatever the address, and however the email is written.
    const next = await beginSignInAttempt(`  ${email.toUpperCase()} `, databaseCounter);
    expect(next.allowed).toBe(false);
    if (!next.allowed) {
      expect(next.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(next.retryAfterSeconds).toBeLessThanOrEqual(ACCOUNT_WINDOW_S);
    }
    // Another account keeps its budget.
    expect((await beginSignInAttempt(`other-${unique()}@example.test`, databaseCounter)).allowed).toBe(true);
  });

  it("attempts given back (right password, other failures) do not count", async () => {
    const email = `user-${unique()}@example.test`;
    await awayFromWindowEdge(ACCOUNT_WINDOW_S);
    for (let i = 0; i < 25; i++) {
      const attempt = await beginSignInAttempt(email, databaseCounter);
      expect(attempt.allowed).toBe(true);
      if (attempt.allowed) {
        await attempt.release();
        await attempt.release(); // once only
      }
    }
    // 9 wrong passwords still leave one try, the 10th leaves none.
    for (let i = 0; i < ACCOUNT_MAX_FAILURES; i++) expect((await beginSignInAttempt(email, databaseCounter)).allowed).toBe(true);
    expect((await beginSignInAttempt(email, databaseCounter)).allowed).toBe(false);
  });
});

describe("per-account sign-in limit on Redis", () => {
  it("two instances share one budget", async (ctx) => {
    const url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
    const [a, b] = [0, 1].map(() => new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null }));
    try {
      if (
        !(await a!.connect().then(
          () => true,
          () => false,
        ))
      )
        ctx.skip();
      const email = `victim-${unique()}@example.test`;
      await awayFromWindowEdge(ACCOUNT_WINDOW_S);
      const attempts = await Promise.all(
        Array.from({ length: 16 }, (_, i) => beginSignInAttempt(email, redisCounter(i % 2 ? a! : b!))),
      );
      expect(attempts.filter((x) => x.allowed)).toHaveLength(ACCOUNT_MAX_FAILURES);
    } finally {
      a!.disconnect();
      b!.disconnect();
    }
  });
});

describe("per-IP storage for better-auth's throttling", () => {
  it("allows exactly `max` per window and key, atomically, and answers when to retry", async () => {
    const storage = ipRateLimitStorage(() => databaseCounter);
    const key = `192.0.2.${Math.floor(Math.random() * 250)}-${unique()}|/sign-in/email`;
    await awayFromWindowEdge(60);
    const results = await Promise.all(Array.from({ length: 8 }, () => storage.consume(key, { window: 60, max: 3 })));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    const refused = results.find((r) => !r.allowed)!;
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    expect((await storage.consume(`${key}-other`, { window: 60, max: 3 })).allowed).toBe(true);
  });
});
