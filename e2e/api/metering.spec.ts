// API-usage metering, black-box: keys make an exact, known set of requests and
// GET /business/analytics/api-usage must answer exactly those counts — per
// method and route template, per key, errors included. Every call the spec
// makes with a key (the usage reads too: they are metered like any other) is
// written down in a tally once its answer is in, so the expected figures at
// any moment are the tally's. Counts are flushed every METERING_FLUSH_MS
// (250 ms here), so a read polls until they settle, then waits a few flushes
// and checks nothing more arrives.
//
// On PostgreSQL (`npm run test:e2e:pg`) a second instance of the built app runs
// beside the first, on the same database (playwright.config.ts starts it), and the requests are split
// between the two: the per-minute buckets both instances add into must sum
// exactly. The embedded database is owned by one process, so there that test
// is skipped.
import { isDeepStrictEqual as isDeepEqual } from "node:util";
import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { createKey, problem, restClient, unique } from "../support/api";
import { secondInstance } from "../support/second-instance";
import { ok, send, tenantWithClients, type HttpMethod } from "./_helpers";

// Specs read loosely-typed JSON and assert on it.
/* eslint-disable @typescript-eslint/no-explicit-any */

const USAGE = "business/analytics/api-usage";
const OVERVIEW = "business/analytics/overview";
const POSTGRES = process.env.E2E_DATABASE === "postgres";

interface Call {
  keyId: string;
  method: string;
  route: string;
  status: number;
}

/** A key's REST client whose every answered call is written down in the tally. */
interface Caller {
  keyId: string;
  client: APIRequestContext;
}

class Tally {
  readonly calls: Call[] = [];

  async send(who: Caller, method: HttpMethod, url: string, route: string, body?: unknown): Promise<APIResponse> {
    const res = await send(who.client, method, url, body);
    this.calls.push({ keyId: who.keyId, method, route, status: res.status() });
    return res;
  }

  /** What api-usage must answer now: per endpoint and per key, sorted, with totals. */
  expected() {
    const figures = (calls: Call[]) => ({
      requests: calls.length,
      errors: calls.filter((c) => c.status >= 400).length,
      serverErrors: calls.filter((c) => c.status >= 500).length,
    });
    const group = (by: (c: Call) => string) => {
      const groups = new Map<string, Call[]>();
      for (const c of this.calls) groups.set(by(c), [...(groups.get(by(c)) ?? []), c]);
      return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    };
    return {
      totals: figures(this.calls),
      endpoints: group((c) => `${c.method} ${c.route}`).map(([, calls]) => ({
        method: calls[0]!.method,
        route: calls[0]!.route,
        ...figures(calls),
      })),
      keys: group((c) => c.keyId).map(([keyId, calls]) => ({ apiKeyId: keyId, ...figures(calls) })),
    };
  }
}

/** The counts of an api-usage answer, in the shape of Tally.expected(). */
function countsOf(u: any) {
  const pick = (x: any) => ({ requests: x.requests, errors: x.errors, serverErrors: x.serverErrors });
  return {
    totals: pick(u.totals),
    endpoints: u.endpoints
      .map((e: any) => ({ method: e.method, route: e.route, ...pick(e) }))
      .sort((a: any, b: any) => (`${a.method} ${a.route}` < `${b.method} ${b.route}` ? -1 : 1)),
    keys: u.keys
      .map((k: any) => ({ apiKeyId: k.apiKeyId, ...pick(k) }))
      .sort((a: any, b: any) => (a.apiKeyId < b.apiKeyId ? -1 : 1)),
  };
}

/**
 * Reads api-usage (with `reader`, itself metered) until its counts equal the
 * tally's as it stood before each read; then, a few flushes later, once more:
 * a count that arrived twice, or late, shows there. Answers the last usage.
 */
async function settledUsage(tally: Tally, readers: Caller[], query = "") {
  const read = async (i: number) => {
    const expected = tally.expected();
    const u = await ok(
      await tally.send(readers[i % readers.length]!, "GET", `${USAGE}${query}`, "/business/analytics/api-usage"),
    );
    return { u, expected, actual: countsOf(u) };
  };
  let n = 0;
  const untilEqual = async () => {
    let last = await read(n++);
    for (const until = Date.now() + 20_000; !isDeepEqual(last.actual, last.expected) && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 300));
      last = await read(n++);
    }
    expect(last.actual).toEqual(last.expected);
    return last.u;
  };
  await untilEqual();
  // Four flushes later nothing more than the reads themselves may have arrived.
  await new Promise((r) => setTimeout(r, 1_000));
  return untilEqual();
}

const policyBody = () => ({ name: `Cover ${unique()}`, type: "property", duration: "yearly", price: "150.00" });

const caller = async (key: { key: string; id: string }, base?: string): Promise<Caller> => ({
  keyId: key.id,
  client: base
    ? await playwrightRequest.newContext({ baseURL: `${base}/api/v1/`, extraHTTPHeaders: { Authorization: `Bearer ${key.key}` } })
    : await restClient(key.key),
});

test.describe("GET /business/analytics/api-usage counts every request made with a key", () => {
  test("exact counts per method and route template and per key; errors counted; 401s belong to nobody", async () => {
    const t = await tenantWithClients();
    const tally = new Tally();
    const writer: Caller = { keyId: t.writeKeyId, client: t.write };
    const reader: Caller = { keyId: t.readKeyId, client: t.read };
    const fresh = await createKey(t.account, ["read", "write"], `fresh-${unique()}`);
    const k = await caller(fresh);

    // Setup with the write key: two policies to read.
    const p1 = await ok(await tally.send(writer, "POST", "business/policies", "/business/policies", policyBody()), 201);
    const p2 = await ok(await tally.send(writer, "POST", "business/policies", "/business/policies", policyBody()), 201);

    // The fresh key's exact set.
    for (let i = 0; i < 3; i++) await ok(await tally.send(k, "GET", "business/policies", "/business/policies"));
    await ok(await tally.send(k, "GET", `business/policies/${p1.id}`, "/business/policies/{id}"));
    await ok(await tally.send(k, "GET", `business/policies/${p2.id}`, "/business/policies/{id}"));
    expect((await tally.send(k, "POST", "business/policies", "/business/policies", { name: "" })).status()).toBe(422);
    expect((await tally.send(k, "GET", "business/no-such-thing", "(unmatched)")).status()).toBe(404);

    // A key used once, then revoked: its use stays counted under its name; its refused calls count for nobody.
    const soon = await createKey(t.account, ["read"], `revoked-${unique()}`);
    const s = await caller(soon);
    await ok(await tally.send(s, "GET", "business/settings", "/business/settings"));
    await ok(await tally.send(writer, "DELETE", `business/api-keys/${soon.id}`, "/business/api-keys/{id}"));
    expect((await s.client.get("business/settings")).status()).toBe(401);
    const anonymous = await restClient();
    expect((await anonymous.get("business/policies")).status()).toBe(401);
    expect((await k.client.get("business/policies", { headers: { Authorization: "Bearer nope" } })).status()).toBe(401);

    // Another organization's requests meanwhile never show.
    const other = await tenantWithClients();
    await ok(await other.write.get("business/policies"));
    await ok(await other.read.get(USAGE));

    const u = await settledUsage(tally, [reader]);
    const mine = u.keys.find((x: any) => x.apiKeyId === fresh.id);
    expect(mine).toMatchObject({
      requests: 7,
      errors: 2,
      serverErrors: 0,
      errorRate: Math.round((2 / 7) * 10_000) / 10_000,
      prefix: fresh.key.slice(0, 12),
    });
    expect(mine.name).toMatch(/^fresh-/);
    expect(mine.p50Ms).toBeGreaterThanOrEqual(0);
    expect(mine.p95Ms).toBeGreaterThanOrEqual(mine.p50Ms);
    expect(u.keys.find((x: any) => x.apiKeyId === soon.id)).toMatchObject({
      requests: 1,
      errors: 0,
      name: expect.stringMatching(/^revoked-/),
      prefix: soon.key.slice(0, 12),
    });
    expect(u.endpoints.find((e: any) => e.route === "(unmatched)")).toMatchObject({
      method: "GET",
      requests: 1,
      errors: 1,
      errorRate: 1,
    });
    expect(u.endpoints.find((e: any) => e.method === "POST")).toMatchObject({
      route: "/business/policies",
      requests: 3,
      errors: 1,
      errorRate: 0.3333,
    });
    for (const row of [u.totals, ...u.endpoints, ...u.keys]) {
      expect(row.p50Ms).toBeGreaterThanOrEqual(0);
      expect(row.p95Ms).toBeGreaterThanOrEqual(row.p50Ms);
    }

    // The series hold the same requests: the 30 days by day, and today's 24 hours.
    expect(u.series.reduce((n: number, x: any) => n + x.requests, 0)).toBe(u.totals.requests);
    expect(u.series.reduce((n: number, x: any) => n + x.errors, 0)).toBe(u.totals.errors);
    const today = new Date().toISOString().slice(0, 10);
    const hourly = await settledUsage(tally, [reader], `?from=${today}&to=${today}&granularity=hour`);
    expect(hourly.series).toHaveLength(24);
    expect(hourly.series.reduce((n: number, x: any) => n + x.requests, 0)).toBe(hourly.totals.requests);
    // Nothing before today (the 30 days ending yesterday).
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = await ok(await tally.send(reader, "GET", `${USAGE}?to=${yesterday}`, "/business/analytics/api-usage"));
    expect(before.totals.requests).toBe(0);
  });

  test("the overview's apiRequests.last30Days is the same count", async () => {
    const t = await tenantWithClients();
    const tally = new Tally();
    const reader: Caller = { keyId: t.readKeyId, client: t.read };
    for (let i = 0; i < 4; i++) await ok(await tally.send(reader, "GET", "business/policies", "/business/policies"));
    // Each read counts the calls answered before it, once flushed (itself included: it is metered too).
    let seen = -1;
    let expected = 0;
    for (const until = Date.now() + 20_000; seen !== expected && Date.now() < until;) {
      if (seen >= 0) await new Promise((r) => setTimeout(r, 300));
      expected = tally.calls.length;
      seen = (await ok(await tally.send(reader, "GET", OVERVIEW, "/business/analytics/overview"))).apiRequests.last30Days;
    }
    expect(seen).toBe(expected);
    const usage = await settledUsage(tally, [reader]);
    expect(usage.totals.requests).toBe(tally.calls.length - 1);
  });
});

// ---- Two instances on one PostgreSQL database ----------------------------------------------

test.describe("two app instances on one PostgreSQL database", () => {
  test.skip(!POSTGRES, "the embedded database is owned by one process: a second instance cannot open it (PostgreSQL run only)");
  // One worker runs the group, so one second instance serves every test of it.
  test.describe.configure({ mode: "serial" });

  const second = secondInstance();
  const SECOND = second.base;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await second.start();
  });

  test("half the requests to each instance: the buckets both add into sum exactly", async () => {
    const t = await tenantWithClients();
    const tally = new Tally();
    const key = await createKey(t.account, ["read", "write"], `split-${unique()}`);
    const writer: Caller = { keyId: t.writeKeyId, client: t.write };
    const policy = await ok(await tally.send(writer, "POST", "business/policies", "/business/policies", policyBody()), 201);
    const one = await caller(key);
    const two = await caller(key, SECOND);
    const readers = [{ keyId: t.readKeyId, client: t.read }, await caller({ key: t.readKey, id: t.readKeyId }, SECOND)];

    // Both instances count into the same minutes: start early in one.
    const seconds = new Date().getUTCSeconds();
    if (seconds > 45) await new Promise((r) => setTimeout(r, (61 - seconds) * 1_000));
    const batch = (who: Caller) => [
      ...Array.from({ length: 10 }, () => tally.send(who, "GET", "business/policies", "/business/policies")),
      ...Array.from({ length: 5 }, () => tally.send(who, "GET", `business/policies/${policy.id}`, "/business/policies/{id}")),
      ...Array.from({ length: 3 }, () => tally.send(who, "GET", "business/nowhere", "(unmatched)")),
      tally.send(who, "POST", "business/policies", "/business/policies", { price: "-1" }),
    ];
    const answers = await Promise.all([...batch(one), ...batch(two)]);
    expect(answers.map((r) => r.status()).sort()).toEqual([...Array(30).fill(200), ...Array(6).fill(404), 422, 422].sort());

    const u = await settledUsage(tally, readers);
    expect(u.keys.find((k: any) => k.apiKeyId === key.id)).toMatchObject({ requests: 38, errors: 8, serverErrors: 0 });
    expect(u.endpoints.find((e: any) => e.method === "GET" && e.route === "/business/policies")?.requests).toBe(20);
    expect(u.endpoints.find((e: any) => e.route === "/business/policies/{id}")?.requests).toBe(10);
  });

  test("the rate limit holds over both instances (within 5 % of it), then each answers 429", async () => {
    const t = await tenantWithClients();
    const two = await restClient(t.writeKey, {}, SECOND);
    const seconds = new Date().getUTCSeconds();
    if (seconds > 40) await new Promise((r) => setTimeout(r, (61 - seconds) * 1_000));
    // One request of this minute already counted: the limit change itself.
    expect((await send(t.write, "PUT", "business/settings", { api: { rateLimit: 40 } })).status()).toBe(200);
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => send(i % 2 ? two : t.write, "GET", "business/policies")),
      );
      statuses.push(...answers.map((r) => r.status()));
    }
    const allowed = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(allowed).toBeGreaterThanOrEqual(39);
    expect(allowed).toBeLessThanOrEqual(41);
    for (const client of [t.write, two]) {
      const res = await send(client, "GET", "business/policies");
      expect(res.status()).toBe(429);
      expect(Number(res.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
    }
  });

  test("a key revoked through one instance is refused there at once and by the other within 5 s", async () => {
    const t = await tenantWithClients();
    const key = await createKey(t.account, ["read"], `revoked-${unique()}`);
    const one = await restClient(key.key);
    const two = await restClient(key.key, {}, SECOND);
    // Both instances have read (and keep) the key.
    expect((await send(one, "GET", "business/policies")).status()).toBe(200);
    expect((await send(two, "GET", "business/policies")).status()).toBe(200);
    expect((await send(t.write, "DELETE", `business/api-keys/${key.id}`)).status()).toBe(200);
    const revokedAt = Date.now();
    await problem(await send(one, "GET", "business/policies"), 401, "revoked_api_key");
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 8_000) {
      status = (await send(two, "GET", "business/policies")).status();
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
    // The other instance read the key before the revocation: its entry expires within API_KEY_CACHE_MS (5 s), plus one request.
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(6_000);
  });
});
