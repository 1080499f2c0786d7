// Test mode over REST, as an integrator meets it: cd_test_ keys, test data
// kept apart from live data in the same organization, sandbox money that never
// reaches live earnings, webhooks registered and signed per mode with
// `livemode` in every event, and settings and team shared by both modes.
// (The generated 404s across modes for every endpoint are in security-matrix.spec.ts.)
import { expect, test } from "@playwright/test";
import { problem } from "../support/api";
import {
  CARDS,
  createPolicyFor,
  expectApiKeyShape,
  initializeFor,
  listAll,
  ok,
  otherSide,
  payReference,
  startReceiver,
  tenantWithClients,
} from "./_helpers";

test.describe("test mode", () => {
  test("keys: cd_test_ + 32 base62 with mode test; a test key sees test keys only and cannot make live ones", async () => {
    const live = await tenantWithClients();
    const created = await ok(
      await live.write.post("business/api-keys", { data: { name: "Sandbox", permissions: ["read", "write"], mode: "test" } }),
      201,
    );
    expectApiKeyShape(created, true);
    expect(created.key).toMatch(/^cd_test_[0-9A-Za-z]{32}$/);
    expect(created).toMatchObject({ mode: "test", prefix: created.key.slice(0, 12) });
    // Without mode a key is live, as before.
    const plain = await ok(await live.write.post("business/api-keys", { data: { name: "Plain", permissions: ["read"] } }), 201);
    expect(plain).toMatchObject({ mode: "live" });
    expect(plain.key).toMatch(/^cd_live_/);
    const bad = await problem(
      await live.write.post("business/api-keys", { data: { name: "x", permissions: ["read"], mode: "staging" } }),
      422,
      "validation_failed",
    );
    expect(bad.errors).toEqual([{ path: "mode", message: "Choose one of: live, test" }]);

    const test = await otherSide(live, "test");
    const seenByTest = (await listAll<{ id: string; mode: string }>(test.read, "business/api-keys")).map((k) => k.mode);
    expect(new Set(seenByTest)).toEqual(new Set(["test"]));
    const seenByLive = (await listAll<{ id: string; mode: string }>(live.read, "business/api-keys")).map((k) => k.id);
    expect(seenByLive).toContain(created.id);
    expect(seenByLive).toContain(test.writeKeyId);
    // A test key can neither mint a live key nor touch one.
    await problem(
      await test.write.post("business/api-keys", { data: { name: "escalate", permissions: ["read", "write"], mode: "live" } }),
      403,
      "forbidden",
    );
    await problem(await test.write.delete(`business/api-keys/${live.writeKeyId}`), 404, "not_found");
    expect((await ok(await live.read.get("business/api-keys?limit=100"))).data.find((k: { id: string }) => k.id === live.writeKeyId).status).toBe("active");
  });

  test("data: a test key's policies, payments and claims are not the live key's, and the other way round", async () => {
    const live = await tenantWithClients();
    const test = await otherSide(live, "test");
    const livePolicy = await createPolicyFor(live.write, { name: "Live cover", price: "100.00" });
    const testPolicy = await createPolicyFor(test.write, { name: "Test cover", price: "100.00" });
    expect((await listAll<{ id: string }>(live.read, "business/policies")).map((p) => p.id)).toEqual([livePolicy.id]);
    expect((await listAll<{ id: string }>(test.read, "business/policies")).map((p) => p.id)).toEqual([testPolicy.id]);
    await problem(await test.read.get(`business/policies/${livePolicy.id}`), 404, "not_found");
    await problem(await live.read.get(`business/policies/${testPolicy.id}`), 404, "not_found");
    // A claim on the live policy cannot be filed with a test key.
    await problem(
      await test.write.post("claims", { data: { policyId: livePolicy.id, type: "theft", description: "x", amount: 5 } }),
      404,
      "not_found",
    );
  });

  test("money: a test payment is paid with the test card and moves test earnings only; webhooks carry livemode", async () => {
    const live = await tenantWithClients();
    const test = await otherSide(live, "test");
    const [liveRx, testRx] = [await startReceiver(), await startReceiver()];
    await ok(await live.write.post("business/webhooks", { data: { url: liveRx.url, events: ["payment.completed"] } }), 201);
    await ok(await test.write.post("business/webhooks", { data: { url: testRx.url, events: ["payment.completed"] } }), 201);
    // Registered per mode: each key lists only its own.
    expect((await listAll<{ url: string }>(test.read, "business/webhooks")).map((w) => w.url)).toEqual([testRx.url]);
    expect((await listAll<{ url: string }>(live.read, "business/webhooks")).map((w) => w.url)).toEqual([liveRx.url]);

    const testPolicy = await createPolicyFor(test.write, { price: "1000.00" });
    const payment = await initializeFor(test.write, testPolicy, "ada@example.test");
    expect(payment.authorizationUrl).toContain(`/pay/${payment.reference}`);
    expect((await payReference(payment.reference, CARDS.success)).status).toBe(200);
    const [delivered] = await testRx.waitFor(1);
    const body = JSON.parse(delivered!.body);
    expect(body).toMatchObject({ type: "payment.completed", livemode: false, data: { reference: payment.reference } });

    expect(await ok(await test.read.get("business/earnings/overview"))).toMatchObject({ totalEarned: "1000.00" });
    expect(await ok(await live.read.get("business/earnings/overview"))).toMatchObject({
      totalEarned: "0.00",
      availableBalance: "0.00",
    });
    await problem(await live.read.get(`payments/verify/${payment.reference}`), 404, "not_found");

    // A live payment's event says livemode true, to the live endpoint only.
    const livePolicy = await createPolicyFor(live.write, { price: "10.00" });
    const livePayment = await initializeFor(live.write, livePolicy, "ben@example.test");
    expect((await payReference(livePayment.reference, CARDS.success)).status).toBe(200);
    const [liveDelivery] = await liveRx.waitFor(1);
    expect(JSON.parse(liveDelivery!.body)).toMatchObject({ livemode: true, data: { reference: livePayment.reference } });
    expect(testRx.requests).toHaveLength(1);
    await Promise.all([liveRx.close(), testRx.close()]);
  });

  test("settings and team are shared by both modes; verification is per mode", async () => {
    const live = await tenantWithClients();
    const test = await otherSide(live, "test");
    // Shared, so a live key's change shows to the test key — and a test key may read it but not change it.
    await ok(await live.write.put("business/settings", { data: { api: { rateLimit: 4321 } } }));
    expect((await ok(await test.read.get("business/settings"))).api.rateLimit).toBe(4321);
    const refused = await problem(await test.write.put("business/settings", { data: { api: { rateLimit: 99 } } }), 403, "forbidden");
    expect(refused.detail).toBe("Test keys cannot change the live account");
    await problem(await test.write.delete("business/settings/logo"), 403, "forbidden");
    expect((await ok(await live.read.get("business/settings"))).api.rateLimit).toBe(4321);
    const members = await ok(await test.read.get(`organizations/${live.organizationId}/members`));
    expect(members.data).toHaveLength(1);
    // Each mode has its own verification (test mode approves a submission at once: see modes.test.ts).
    expect((await ok(await test.read.get("business/compliance/kyb/status"))).status).toBe("not_submitted");
  });
});
