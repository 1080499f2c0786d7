// REST conventions shared by every endpoint: routing, bodies, request ids,
// check order, idempotency, rate limiting, error hygiene, the OpenAPI document.
import { expect, test, type APIResponse } from "@playwright/test";
import { problem, restClient, unique } from "../support/api";
import { expectNoInternals, keysSnapshot, listAll, ok, tenantWithClients } from "./_helpers";

const newKey = { name: "idem", permissions: ["read"] };

test.describe("routing", () => {
  test("an unknown route with a valid key → 404 not_found (problem+json)", async () => {
    const t = await tenantWithClients();
    for (const path of ["nope", "business/nope", "business/api-keys/x/y/z"]) {
      await problem(await t.write.get(path), 404, "not_found");
    }
  });

  test("a known path with another method → 405 with Allow", async () => {
    const t = await tenantWithClients();
    const cases: [string, "DELETE" | "PATCH" | "PUT" | "POST" | "GET", string[]][] = [
      ["business/settings", "DELETE", ["GET", "PUT"]],
      ["business/api-keys", "PATCH", ["GET", "POST"]],
      [`business/api-keys/${t.readKeyId}`, "GET", ["DELETE", "PUT"]],
      [`business/api-keys/${t.readKeyId}/regenerate`, "GET", ["POST"]],
      [`organizations/${t.organizationId}`, "DELETE", ["GET", "PUT"]],
      [`organizations/${t.organizationId}/switch`, "GET", ["POST"]],
    ];
    for (const [path, method, allowed] of cases) {
      const res = await t.write.fetch(path, { method });
      await problem(res, 405, "method_not_allowed");
      const allow = (res.headers()["allow"] ?? "")
        .split(",")
        .map((m) => m.trim())
        .sort();
      expect(allow, `${method} ${path}`).toEqual(allowed);
    }
  });
});

test.describe("request bodies", () => {
  test("malformed JSON → 400 malformed_json, nothing created", async () => {
    const t = await tenantWithClients();
    const before = await keysSnapshot(t.write);
    await problem(
      await t.write.post("business/api-keys", {
        data: Buffer.from('{"name": "x", "permissions": ['),
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "malformed_json",
    );
    expect(await keysSnapshot(t.write)).toEqual(before);
  });

  test("a text/plain body → 415 unsupported_media_type, settings unchanged", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.put("business/settings", {
        data: Buffer.from(JSON.stringify({ api: { rateLimit: 5 } })),
        headers: { "Content-Type": "text/plain" },
      }),
      415,
      "unsupported_media_type",
    );
    expect((await ok(await t.read.get("business/settings"))).api.rateLimit).toBe(600);
  });

  test("a body over 1 MiB → 413 payload_too_large, nothing created", async () => {
    const t = await tenantWithClients();
    const before = await keysSnapshot(t.write);
    const huge = JSON.stringify({ name: "x".repeat(1024 * 1024), permissions: ["read"] });
    await problem(
      await t.write.post("business/api-keys", { data: Buffer.from(huge), headers: { "Content-Type": "application/json" } }),
      413,
      "payload_too_large",
    );
    expect(await keysSnapshot(t.write)).toEqual(before);
  });
});

test.describe("X-Request-Id", () => {
  test("is on every response — success, error, unauthenticated, openapi — and matches the problem's requestId", async () => {
    const t = await tenantWithClients();
    const anonymous = await restClient();
    const responses: APIResponse[] = [
      await t.read.get("business/settings"),
      await t.read.get("nope"),
      await t.read.put("business/settings", { data: {} }),
      await anonymous.get("business/settings"),
      await anonymous.get("openapi.json"),
    ];
    const ids = new Set<string>();
    for (const res of responses) {
      const id = res.headers()["x-request-id"];
      expect(id, res.url()).toBeTruthy();
      ids.add(id!);
      if (res.status() >= 400) expect((await res.json()).requestId).toBe(id);
    }
    expect(ids.size).toBe(responses.length);
  });

  test("is echoed when the client sends one", async () => {
    const t = await tenantWithClients();
    const id = `client-${unique()}`;
    const okRes = await t.read.get("business/settings", { headers: { "X-Request-Id": id } });
    expect(okRes.headers()["x-request-id"]).toBe(id);
    const errRes = await t.read.get("nope", { headers: { "X-Request-Id": id } });
    expect(errRes.headers()["x-request-id"]).toBe(id);
    expect((await errRes.json()).requestId).toBe(id);
  });
});

test.describe("check order", () => {
  test("401 before 404: an unknown route without a key", async () => {
    const anonymous = await restClient();
    await problem(await anonymous.get("nope"), 401, "missing_api_key");
  });

  test("404/405 before 403: a read key on an unknown route or a wrong method", async () => {
    const t = await tenantWithClients();
    await problem(await t.read.post("nope", { data: {} }), 404, "not_found");
    await problem(await t.read.delete("business/settings"), 405, "method_not_allowed");
  });

  test("403 before 400/422: a read key with a malformed or invalid body", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.read.put("business/settings", { data: Buffer.from("{"), headers: { "Content-Type": "application/json" } }),
      403,
      "insufficient_permissions",
    );
    await problem(await t.read.put("business/settings", { data: { api: { rateLimit: 0 } } }), 403, "insufficient_permissions");
  });

  test("422 before 404 and before 409", async () => {
    const t = await tenantWithClients();
    await problem(await t.write.put("business/api-keys/unknown-id", { data: { name: "" } }), 422, "validation_failed");
    await ok(await t.write.delete(`business/api-keys/${t.readKeyId}`));
    await problem(await t.write.put(`business/api-keys/${t.readKeyId}`, { data: { name: "" } }), 422, "validation_failed");
    await problem(await t.write.post("business/api-keys/unknown-id/regenerate"), 404, "not_found");
  });
});

test.describe("Idempotency-Key on POST", () => {
  test("the same key and body replays the first answer once, creating one key", async () => {
    const t = await tenantWithClients();
    const headers = { "Idempotency-Key": `idem-${unique()}` };
    const first = await t.write.post("business/api-keys", { data: newKey, headers });
    const firstBody = await ok(first, 201);
    expect(first.headers()["idempotent-replayed"]).toBeUndefined();

    const second = await t.write.post("business/api-keys", { data: newKey, headers });
    expect(second.status()).toBe(201);
    expect(second.headers()["idempotent-replayed"]).toBe("true");
    expect(await second.json()).toEqual(firstBody);

    const named = (await listAll(t.write, "business/api-keys")).filter((k) => k.name === "idem");
    expect(named.map((k) => k.id)).toEqual([firstBody.id]);
  });

  test("concurrent requests with the same key create one key (replay or 409 idempotency_in_progress)", async () => {
    const t = await tenantWithClients();
    const headers = { "Idempotency-Key": `race-${unique()}` };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.write.post("business/api-keys", { data: newKey, headers })),
    );
    const created = answers.filter((r) => r.status() === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of answers.filter((r) => r.status() !== 201)) await problem(r, 409, "idempotency_in_progress");
    const ids = new Set(await Promise.all(created.map(async (r) => (await r.json()).id)));
    expect(ids.size).toBe(1);
    expect((await listAll(t.write, "business/api-keys")).filter((k) => k.name === "idem")).toHaveLength(1);
  });

  test("the same key with another body → 422 idempotency_key_reused, nothing created", async () => {
    const t = await tenantWithClients();
    const headers = { "Idempotency-Key": `idem-${unique()}` };
    await ok(await t.write.post("business/api-keys", { data: newKey, headers }), 201);
    const before = await keysSnapshot(t.write);
    await problem(
      await t.write.post("business/api-keys", { data: { ...newKey, name: "other" }, headers }),
      422,
      "idempotency_key_reused",
    );
    expect(await keysSnapshot(t.write)).toEqual(before);
  });

  test("the same key on another path → 422 idempotency_key_reused", async () => {
    const t = await tenantWithClients();
    const headers = { "Idempotency-Key": `idem-${unique()}` };
    await ok(await t.write.post(`business/api-keys/${t.readKeyId}/regenerate`, { headers }));
    await problem(await t.write.post(`business/api-keys/${t.writeKeyId}/regenerate`, { headers }), 422, "idempotency_key_reused");
  });

  test("an error answer is replayed too", async () => {
    const t = await tenantWithClients();
    const headers = { "Idempotency-Key": `idem-${unique()}` };
    const first = await problem(await t.write.post("business/api-keys/unknown/regenerate", { headers }), 404, "not_found");
    const again = await t.write.post("business/api-keys/unknown/regenerate", { headers });
    const replayed = await problem(again, 404, "not_found");
    expect(again.headers()["idempotent-replayed"]).toBe("true");
    expect(replayed.detail).toBe(first.detail);
  });

  test("keys are scoped per organization", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const headers = { "Idempotency-Key": `shared-${unique()}` };
    const fromA = await ok(await a.write.post("business/api-keys", { data: newKey, headers }), 201);
    const resB = await b.write.post("business/api-keys", { data: newKey, headers });
    const fromB = await ok(resB, 201);
    expect(resB.headers()["idempotent-replayed"]).toBeUndefined();
    expect(fromB.id).not.toBe(fromA.id);
    expect((await listAll(b.write, "business/api-keys")).map((k) => k.id)).toContain(fromB.id);
  });

  test("a key over 255 characters → 422, nothing created", async () => {
    const t = await tenantWithClients();
    const before = await keysSnapshot(t.write);
    await problem(
      await t.write.post("business/api-keys", { data: newKey, headers: { "Idempotency-Key": "k".repeat(256) } }),
      422,
      "validation_failed",
    );
    expect(await keysSnapshot(t.write)).toEqual(before);
  });
});

test.describe("rate limit", () => {
  test("every response advertises RateLimit and RateLimit-Policy", async () => {
    const t = await tenantWithClients();
    for (const res of [await t.read.get("business/settings"), await t.read.get("nope")]) {
      expect(res.headers()["ratelimit-policy"]).toBe('"default";q=600;w=60');
      expect(res.headers()["ratelimit"]).toMatch(/^"default";r=\d+;t=\d+$/);
    }
  });

  test("over api.rateLimit → 429 rate_limited with Retry-After; other organizations unaffected", async () => {
    const [t, other] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    // Stay clear of a window boundary so the count does not reset mid-test.
    const probe = await t.read.get("business/settings");
    const reset = Number(/t=(\d+)/.exec(probe.headers()["ratelimit"] ?? "")?.[1] ?? 60);
    if (reset < 15) await new Promise((r) => setTimeout(r, (reset + 1) * 1000));

    await ok(await t.write.put("business/settings", { data: { api: { rateLimit: 3 } } }));
    let limited: APIResponse | undefined;
    const remaining: number[] = [];
    for (let i = 0; i < 5 && !limited; i++) {
      const res = await t.read.get("business/settings");
      if (res.status() === 429) limited = res;
      else {
        expect(res.headers()["ratelimit-policy"]).toBe('"default";q=3;w=60');
        remaining.push(Number(/r=(\d+)/.exec(res.headers()["ratelimit"] ?? "")?.[1]));
      }
    }
    expect(limited, "expected a 429 within 5 requests at 3 per minute").toBeDefined();
    expect(remaining.length).toBeLessThanOrEqual(3);
    expect([...remaining].sort((a, b) => b - a)).toEqual(remaining);
    await problem(limited!, 429, "rate_limited");
    const headers = limited!.headers();
    expect(Number(headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(headers["ratelimit-policy"]).toBe('"default";q=3;w=60');
    expect(headers["ratelimit"]).toMatch(/^"default";r=0;t=\d+$/);
    expect(headers["x-request-id"]).toBeTruthy();

    // All keys of the organization share the limit; other organizations do not.
    await problem(await t.write.get("business/api-keys"), 429, "rate_limited");
    expect((await other.read.get("business/settings")).status()).toBe(200);
  });
});

test.describe("error hygiene", () => {
  test("error bodies are problem+json without stack traces, paths or SQL", async () => {
    const t = await tenantWithClients();
    const anonymous = await restClient();
    const responses = [
      await anonymous.get("business/settings"),
      await t.read.get("nope"),
      await t.read.delete("business/settings"),
      await t.read.put("business/settings", { data: {} }),
      await t.write.put("business/settings", { data: Buffer.from("{oops"), headers: { "Content-Type": "application/json" } }),
      await t.write.put("business/settings", { data: { api: { rateLimit: "x" } } }),
      await t.write.put(`business/api-keys/${"x".repeat(300)}`, { data: { name: "x" } }),
      await t.write.get("business/api-keys?cursor=garbage"),
      await t.write.post("business/api-keys", { data: { name: { $gt: "" }, permissions: [{}] } }),
      await t.write.get(`organizations/${"'; DROP TABLE organization; --"}`),
    ];
    for (const res of responses) {
      expect(res.status(), res.url()).toBeGreaterThanOrEqual(400);
      expect(res.status(), res.url()).toBeLessThan(500);
      expect(res.headers()["content-type"]).toMatch(/^application\/problem\+json/);
      const text = await res.text();
      expectNoInternals(text);
      const body = JSON.parse(text);
      expect(body).toMatchObject({
        type: expect.stringContaining(body.code),
        title: expect.any(String),
        status: res.status(),
        detail: expect.any(String),
      });
    }
  });
});

test.describe("GET /openapi.json", () => {
  test("answers the OpenAPI 3.1 document without a key, listing every operation", async () => {
    const anonymous = await restClient();
    const res = await anonymous.get("openapi.json");
    const doc = await ok(res);
    expect(doc.openapi).toBe("3.1.0");
    const expected: Record<string, string[]> = {
      "/business/api-keys": ["get", "post"],
      "/business/api-keys/{id}": ["delete", "put"],
      "/business/api-keys/{id}/regenerate": ["post"],
      "/business/settings": ["get", "put"],
      "/organizations": ["get", "post"],
      "/organizations/{accountID}": ["get", "put"],
      "/organizations/{accountID}/switch": ["post"],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(doc.paths[path], path).toBeDefined();
      for (const m of methods) expect(doc.paths[path][m], `${m} ${path}`).toBeDefined();
    }
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });
});

test.describe("body limit on endpoints that take no body", () => {
  // SPEC §2: "413 payload_too_large — body or file over the limit", also where no body is expected,
  // and before the record (404) and state are looked at.
  test("a body over 1 MiB on POST …/regenerate → 413, the key unchanged", async () => {
    const t = await tenantWithClients();
    const before = await keysSnapshot(t.write);
    const huge = Buffer.from(JSON.stringify({ pad: "x".repeat(1024 * 1024) }));
    await problem(
      await t.write.post(`business/api-keys/${t.readKeyId}/regenerate`, {
        data: huge,
        headers: { "Content-Type": "application/json" },
      }),
      413,
      "payload_too_large",
    );
    expect(await keysSnapshot(t.write)).toEqual(before);
  });
});
