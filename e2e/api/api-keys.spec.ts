// REST: /business/api-keys — list, create, update, revoke, regenerate.
import { expect, test } from "@playwright/test";
import { problem, restClient } from "../support/api";
import { errorPaths, expectApiKeyShape, keysSnapshot, keyWorks, listAll, ok, otherSide, tenantWithClients } from "./_helpers";

const newKey = (name = "integration", permissions = ["read", "write"]) => ({ name, permissions });

test.describe("GET /business/api-keys", () => {
  test("lists the organization's keys, newest first, without secrets", async () => {
    const t = await tenantWithClients();
    const page = await ok(await t.write.get("business/api-keys"));
    expect(Object.keys(page).sort()).toEqual(["data", "nextCursor"]);
    expect(page.nextCursor).toBeNull();
    // tenant() creates the write key, then the read key.
    expect(page.data.map((k: { id: string }) => k.id)).toEqual([t.readKeyId, t.writeKeyId]);
    for (const k of page.data) expectApiKeyShape(k, false);
    expect(page.data[0]).toMatchObject({ permissions: ["read"], status: "active", prefix: t.readKey.slice(0, 12) });
    expect(page.data[1]).toMatchObject({ permissions: ["read", "write"], status: "active", prefix: t.writeKey.slice(0, 12) });
    expect(JSON.stringify(page)).not.toContain(t.writeKey);
  });

  test("a read-only key may list the keys (read allows GET)", async () => {
    const t = await tenantWithClients();
    const page = await ok(await t.read.get("business/api-keys"));
    expect(page.data.map((k: { id: string }) => k.id)).toEqual([t.readKeyId, t.writeKeyId]);
  });

  test("does not show another organization's keys", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const ids = (await listAll(a.write, "business/api-keys")).map((k) => k.id);
    expect(ids.sort()).toEqual([a.writeKeyId, a.readKeyId].sort());
    expect(ids).not.toContain(b.writeKeyId);
  });

  test("records lastUsedAt once a key is used", async () => {
    const t = await tenantWithClients();
    const created = await ok(await t.write.post("business/api-keys", { data: newKey("fresh") }), 201);
    expect(created.lastUsedAt).toBeNull();
    expect(await keyWorks(created.key)).toBe(true);
    await expect
      .poll(async () => (await listAll(t.write, "business/api-keys")).find((k) => k.id === created.id)?.lastUsedAt, {
        timeout: 10_000,
      })
      .toMatch(/^\d{4}-/);
  });

  test("pages over more than 20 keys: no duplicates, no gaps, newest first, nextCursor null at the end", async () => {
    test.setTimeout(120_000);
    const t = await tenantWithClients();
    for (let i = 0; i < 23; i++) await ok(await t.write.post("business/api-keys", { data: newKey(`bulk-${i}`) }), 201);
    // 2 keys from tenant() + 23 = 25.
    const everything = await ok(await t.write.get("business/api-keys?limit=100"));
    expect(everything.data).toHaveLength(25);
    expect(everything.nextCursor).toBeNull();
    expect(everything.data[0].name).toBe("bulk-22");
    const created = everything.data.map((k: { createdAt: string }) => Date.parse(k.createdAt));
    expect([...created].sort((x, y) => y - x)).toEqual(created);

    const firstDefault = await ok(await t.write.get("business/api-keys"));
    expect(firstDefault.data).toHaveLength(20); // default limit
    expect(firstDefault.nextCursor).toEqual(expect.any(String));

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; nextCursor: string | null } = await ok(
        await t.write.get(`business/api-keys?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
      );
      sizes.push(page.data.length);
      seen.push(...page.data.map((k) => k.id));
      cursor = page.nextCursor;
    } while (cursor && sizes.length < 10);
    expect(sizes).toEqual([7, 7, 7, 4]);
    expect(cursor).toBeNull();
    expect(seen).toEqual(everything.data.map((k: { id: string }) => k.id));
  });

  for (const [label, qs] of [
    ["limit=0", "limit=0"],
    ["limit=101", "limit=101"],
    ["limit=abc", "limit=abc"],
  ] as const) {
    test(`${label} → 400 invalid_query naming limit`, async () => {
      const t = await tenantWithClients();
      const body = await problem(await t.read.get(`business/api-keys?${qs}`), 400, "invalid_query");
      expect(errorPaths(body)).toContain("limit");
    });
  }

  test("a garbage cursor → 400 invalid_query naming cursor", async () => {
    const t = await tenantWithClients();
    const body = await problem(await t.read.get("business/api-keys?cursor=not-a-cursor!!"), 400, "invalid_query");
    expect(errorPaths(body)).toContain("cursor");
  });
});

test.describe("POST /business/api-keys", () => {
  test("creates a key: 201, the secret once, and the key works with its permissions", async () => {
    const t = await tenantWithClients();
    const res = await t.write.post("business/api-keys", { data: newKey("CI server", ["read"]) });
    const created = await ok(res, 201);
    expectApiKeyShape(created, true);
    expect(created).toMatchObject({ name: "CI server", permissions: ["read"], status: "active", lastUsedAt: null });

    const listed = (await listAll(t.write, "business/api-keys")).find((k) => k.id === created.id);
    const { key: _secret, ...withoutSecret } = created;
    expect(listed).toEqual(withoutSecret);

    const client = await restClient(created.key);
    expect((await client.get("business/settings")).status()).toBe(200);
    await problem(
      await client.put("business/settings", { data: { notifications: { sms: true } } }),
      403,
      "insufficient_permissions",
    );
  });

  test("a write-only key may also read (write implies read)", async () => {
    const t = await tenantWithClients();
    const created = await ok(await t.write.post("business/api-keys", { data: newKey("writer", ["write"]) }), 201);
    expect(created.permissions).toContain("write");
    const client = await restClient(created.key);
    expect((await client.get("business/api-keys")).status()).toBe(200);
  });

  const invalid: [string, unknown, string][] = [
    ["missing name", { permissions: ["read"] }, "name"],
    ["empty name", { name: "   ", permissions: ["read"] }, "name"],
    ["name over 100 characters", { name: "x".repeat(101), permissions: ["read"] }, "name"],
    ["missing permissions", { name: "k" }, "permissions"],
    ["empty permissions", { name: "k", permissions: [] }, "permissions"],
    ["unknown permission", { name: "k", permissions: ["admin"] }, "permissions.0"],
    ["repeated permission", { name: "k", permissions: ["read", "read"] }, "permissions"],
    ["permissions not an array", { name: "k", permissions: "read" }, "permissions"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, nothing created`, async () => {
      const t = await tenantWithClients();
      const before = await keysSnapshot(t.write);
      const err = await problem(await t.write.post("business/api-keys", { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toContain(path);
      expect(await keysSnapshot(t.write)).toEqual(before);
    });
  }
});

test.describe("PUT /business/api-keys/{id}", () => {
  test("renames and changes permissions; the change takes effect", async () => {
    const t = await tenantWithClients();
    const updated = await ok(
      await t.write.put(`business/api-keys/${t.readKeyId}`, { data: { name: "renamed", permissions: ["read", "write"] } }),
    );
    expectApiKeyShape(updated, false);
    expect(updated).toMatchObject({
      id: t.readKeyId,
      name: "renamed",
      permissions: ["read", "write"],
      status: "active",
      prefix: t.readKey.slice(0, 12),
    });
    expect((await listAll(t.write, "business/api-keys")).find((k) => k.id === t.readKeyId)).toMatchObject({
      name: "renamed",
      permissions: ["read", "write"],
    });
    // The formerly read-only key can now write.
    await ok(await t.read.put("business/settings", { data: { notifications: { sms: true } } }));
  });

  test("name only keeps permissions", async () => {
    const t = await tenantWithClients();
    const updated = await ok(await t.write.put(`business/api-keys/${t.readKeyId}`, { data: { name: "only name" } }));
    expect(updated).toMatchObject({ name: "only name", permissions: ["read"] });
  });

  const invalid: [string, unknown, string][] = [
    ["empty name", { name: "" }, "name"],
    ["empty permissions", { permissions: [] }, "permissions"],
    ["unknown permission", { permissions: ["root"] }, "permissions.0"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, key unchanged`, async () => {
      const t = await tenantWithClients();
      const before = await keysSnapshot(t.write);
      const err = await problem(await t.write.put(`business/api-keys/${t.readKeyId}`, { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toContain(path);
      expect(await keysSnapshot(t.write)).toEqual(before);
    });
  }

  test("an empty body object → 422, key unchanged", async () => {
    const t = await tenantWithClients();
    const before = await keysSnapshot(t.write);
    await problem(await t.write.put(`business/api-keys/${t.readKeyId}`, { data: {} }), 422, "validation_failed");
    expect(await keysSnapshot(t.write)).toEqual(before);
  });

  test("a revoked key → 409 invalid_state, unchanged", async () => {
    const t = await tenantWithClients();
    await ok(await t.write.delete(`business/api-keys/${t.readKeyId}`));
    const before = await keysSnapshot(t.write);
    await problem(await t.write.put(`business/api-keys/${t.readKeyId}`, { data: { name: "again" } }), 409, "invalid_state");
    expect(await keysSnapshot(t.write)).toEqual(before);
  });
});

test.describe("DELETE /business/api-keys/{id}", () => {
  test("revokes: 200 with status revoked, still listed, the key answers 401 revoked_api_key", async () => {
    const t = await tenantWithClients();
    const revoked = await ok(await t.write.delete(`business/api-keys/${t.readKeyId}`));
    expectApiKeyShape(revoked, false);
    expect(revoked).toMatchObject({ id: t.readKeyId, status: "revoked", permissions: ["read"] });
    const listed = await listAll(t.write, "business/api-keys");
    expect(listed.map((k) => k.id).sort()).toEqual([t.readKeyId, t.writeKeyId].sort());
    expect(listed.find((k) => k.id === t.readKeyId)?.status).toBe("revoked");
    await problem(await t.read.get("business/settings"), 401, "revoked_api_key");
    // The other key is untouched.
    expect(await keyWorks(t.writeKey)).toBe(true);
  });
});

test.describe("POST /business/api-keys/{id}/regenerate", () => {
  test("issues a new secret for the same record; the old one is rejected at once", async () => {
    const t = await tenantWithClients();
    const before = (await listAll(t.write, "business/api-keys")).find((k) => k.id === t.readKeyId);
    const res = await t.write.post(`business/api-keys/${t.readKeyId}/regenerate`);
    const regenerated = await ok(res, 200);
    expectApiKeyShape(regenerated, true);
    expect(regenerated).toMatchObject({
      id: t.readKeyId,
      name: before.name,
      permissions: ["read"],
      status: "active",
      createdAt: before.createdAt,
    });
    expect(regenerated.key).not.toBe(t.readKey);

    await problem(await t.read.get("business/settings"), 401, "invalid_api_key");
    expect(await keyWorks(regenerated.key)).toBe(true);
    const after = (await listAll(t.write, "business/api-keys")).find((k) => k.id === t.readKeyId);
    expect(after.prefix).toBe(regenerated.key.slice(0, 12));
  });

  test("a revoked key → 409 invalid_state and stays revoked", async () => {
    const t = await tenantWithClients();
    await ok(await t.write.delete(`business/api-keys/${t.readKeyId}`));
    const before = await keysSnapshot(t.write);
    await problem(await t.write.post(`business/api-keys/${t.readKeyId}/regenerate`), 409, "invalid_state");
    expect(await keysSnapshot(t.write)).toEqual(before);
    await problem(await t.read.get("business/settings"), 401, "revoked_api_key");
  });
});

test.describe("10 regenerates of one key at once", () => {
  test("exactly one 200 with the new secret; the other 9 → 409 conflict; only that secret works", async () => {
    const t = await tenantWithClients();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.write.post(`business/api-keys/${t.readKeyId}/regenerate`)),
    );
    const won = answers.filter((r) => r.status() === 200);
    expect(answers.map((r) => r.status()).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    for (const r of answers.filter((a) => a.status() === 409)) await problem(r, 409, "conflict");
    const { key } = await ok(won[0]!, 200);
    expect(await keyWorks(key)).toBe(true);
    await problem(await t.read.get("business/settings"), 401, "invalid_api_key");
    const listed = (await listAll(t.write, "business/api-keys")).find((k) => k.id === t.readKeyId);
    expect(listed.prefix).toBe(key.slice(0, 12));
  });
});

test.describe("keys of both modes: a live key manages both, a test key only test keys", () => {
  test("a test key → 404 on a live key for PUT, DELETE and regenerate, the key unchanged", async () => {
    const live = await tenantWithClients();
    const test = await otherSide(live, "test");
    const before = await keysSnapshot(live.write);
    const id = live.readKeyId;
    await problem(
      await test.write.put(`business/api-keys/${id}`, { data: { name: "hijacked", permissions: ["read", "write"] } }),
      404,
      "not_found",
    );
    await problem(await test.write.delete(`business/api-keys/${id}`), 404, "not_found");
    await problem(await test.write.post(`business/api-keys/${id}/regenerate`), 404, "not_found");
    expect(await keysSnapshot(live.write)).toEqual(before);
    expect(await keyWorks(live.readKey)).toBe(true);
    const seen = (await listAll(test.write, "business/api-keys")).map((k) => k.mode);
    expect(new Set(seen)).toEqual(new Set(["test"]));
  });

  test("a live key regenerates, renames and revokes a test key", async () => {
    const live = await tenantWithClients();
    const test = await otherSide(live, "test");
    const regenerated = await ok(await live.write.post(`business/api-keys/${test.readKeyId}/regenerate`));
    expect(regenerated.key).toMatch(/^cd_test_/);
    expect(await keyWorks(regenerated.key)).toBe(true);
    expect(await keyWorks(test.readKey)).toBe(false);
    const renamed = await ok(await live.write.put(`business/api-keys/${test.readKeyId}`, { data: { name: "renamed by live" } }));
    expect(renamed).toMatchObject({ id: test.readKeyId, mode: "test", name: "renamed by live" });
    expect(await ok(await live.write.delete(`business/api-keys/${test.readKeyId}`))).toMatchObject({ status: "revoked" });
    expect(await keyWorks(regenerated.key)).toBe(false);
  });
});

test.describe("another organization's key id → 404, the key unchanged", () => {
  const cases: [string, "PUT" | "DELETE" | "POST", (id: string) => string, unknown][] = [
    ["PUT", "PUT", (id) => `business/api-keys/${id}`, { name: "hijacked", permissions: ["read", "write"] }],
    ["DELETE", "DELETE", (id) => `business/api-keys/${id}`, undefined],
    ["POST regenerate", "POST", (id) => `business/api-keys/${id}/regenerate`, undefined],
  ];
  for (const [label, method, path, body] of cases) {
    test(label, async () => {
      const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
      const before = await keysSnapshot(b.write);
      await problem(await a.write.fetch(path(b.readKeyId), { method, ...(body ? { data: body } : {}) }), 404, "not_found");
      expect(await keysSnapshot(b.write)).toEqual(before);
      expect(await keyWorks(b.readKey)).toBe(true);
    });
  }

  test("an unknown id → 404 on PUT, DELETE and regenerate", async () => {
    const t = await tenantWithClients();
    await problem(await t.write.put("business/api-keys/does-not-exist", { data: { name: "x" } }), 404, "not_found");
    await problem(await t.write.delete("business/api-keys/does-not-exist"), 404, "not_found");
    await problem(await t.write.post("business/api-keys/does-not-exist/regenerate"), 404, "not_found");
  });
});
