// REST: /business/settings — read and merge-update.
import { expect, test } from "@playwright/test";
import { problem } from "../support/api";
import { errorPaths, ok, tenantWithClients } from "./_helpers";

const DEFAULTS = { notifications: { email: true, sms: false }, api: { rateLimit: 600 } };

test.describe("GET /business/settings", () => {
  test("answers the defaults with the exact shape (read key)", async () => {
    const t = await tenantWithClients();
    expect(await ok(await t.read.get("business/settings"))).toEqual(DEFAULTS);
  });
});

test.describe("PUT /business/settings", () => {
  test("merges: setting sms only leaves email and rateLimit unchanged", async () => {
    const t = await tenantWithClients();
    const updated = await ok(await t.write.put("business/settings", { data: { notifications: { sms: true } } }));
    const expected = { notifications: { email: true, sms: true }, api: { rateLimit: 600 } };
    expect(updated).toEqual(expected);
    expect(await ok(await t.read.get("business/settings"))).toEqual(expected);
  });

  test("merges: setting rateLimit only leaves notifications unchanged", async () => {
    const t = await tenantWithClients();
    await ok(await t.write.put("business/settings", { data: { notifications: { email: false, sms: true } } }));
    const updated = await ok(await t.write.put("business/settings", { data: { api: { rateLimit: 1234 } } }));
    const expected = { notifications: { email: false, sms: true }, api: { rateLimit: 1234 } };
    expect(updated).toEqual(expected);
    expect(await ok(await t.read.get("business/settings"))).toEqual(expected);
    // The new limit is what the rate-limit headers advertise.
    const res = await t.read.get("business/settings");
    expect(res.headers()["ratelimit-policy"]).toBe('"default";q=1234;w=60');
  });

  test("accepts the bounds 1 and 100000", async () => {
    const t = await tenantWithClients();
    expect((await ok(await t.write.put("business/settings", { data: { api: { rateLimit: 100000 } } }))).api.rateLimit).toBe(
      100000,
    );
    expect((await ok(await t.write.put("business/settings", { data: { api: { rateLimit: 1 } } }))).api.rateLimit).toBe(1);
  });

  test("changes only the caller's organization", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    await ok(await a.write.put("business/settings", { data: { notifications: { email: false }, api: { rateLimit: 42 } } }));
    expect(await ok(await b.read.get("business/settings"))).toEqual(DEFAULTS);
  });

  const invalid: [string, unknown, string][] = [
    ["rateLimit 0", { api: { rateLimit: 0 } }, "api.rateLimit"],
    ["rateLimit 100001", { api: { rateLimit: 100001 } }, "api.rateLimit"],
    ["rateLimit 1.5", { api: { rateLimit: 1.5 } }, "api.rateLimit"],
    ['rateLimit "x"', { api: { rateLimit: "x" } }, "api.rateLimit"],
    ['notifications.email "yes"', { notifications: { email: "yes" } }, "notifications.email"],
    ["notifications.sms null", { notifications: { sms: null } }, "notifications.sms"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, settings unchanged`, async () => {
      const t = await tenantWithClients();
      await ok(await t.write.put("business/settings", { data: { notifications: { sms: true } } }));
      const before = await ok(await t.read.get("business/settings"));
      const err = await problem(await t.write.put("business/settings", { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toContain(path);
      expect(err.detail).toContain(path);
      expect(await ok(await t.read.get("business/settings"))).toEqual(before);
    });
  }

  test("a valid field next to an invalid one changes nothing", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.put("business/settings", { data: { notifications: { sms: true }, api: { rateLimit: 0 } } }),
      422,
      "validation_failed",
    );
    expect(await ok(await t.read.get("business/settings"))).toEqual(DEFAULTS);
  });
});
