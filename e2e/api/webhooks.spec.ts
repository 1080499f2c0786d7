// REST: /business/webhooks (register, list, delete, test ping), the delivery
// log and manual retries — and real deliveries by the app's own worker to
// receivers this spec runs on 127.0.0.1. Receivers check both signatures: the
// source's hex HMAC (node:crypto) and Standard Webhooks (`standardwebhooks`).
// Needs the app started with WEBHOOK_ALLOW_PRIVATE_URLS=true and
// WEBHOOK_RETRY_SCHEDULE=1,1,1 (playwright.config.ts); the refusal of private
// URLs without that setting is covered by src/server/webhooks/url-safety.test.ts.
import crypto from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { problem, restClient, unique } from "../support/api";
import {
  buyPolicy,
  createPolicyFor,
  errorPaths,
  ISO,
  listAll,
  ok,
  startReceiver,
  tenantWithClients,
  type Receiver,
  type ReceivedRequest,
} from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const WEBHOOK_FIELDS = ["id", "url", "events", "status", "disabledReason", "failingSince", "previousSecretExpiresAt", "createdAt"];
const DELIVERY_FIELDS = [
  "id",
  "webhookId",
  "eventId",
  "event",
  "attempt",
  "status",
  "responseStatus",
  "durationMs",
  "error",
  "nextRetryAt",
  "createdAt",
];
const ALL_EVENTS = ["policy.purchased", "policy.renewed", "claim.submitted", "payment.completed"];
const GENERATED_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

const receivers: Receiver[] = [];
async function receiver(reply?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
}
test.afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const register = async (client: APIRequestContext, body: Record<string, unknown>) =>
  ok(await client.post("business/webhooks", { data: body }), 201);

function expectDeliveryShape(d: Record<string, unknown>) {
  expect(Object.keys(d).sort()).toEqual([...DELIVERY_FIELDS].sort());
  expect(d.createdAt).toMatch(ISO);
  expect(d.eventId).toMatch(/^evt_/);
  expect(["succeeded", "failed"]).toContain(d.status);
}

/** What a receiver does with a request: both signatures must hold. Answers the parsed body. */
function verified(secret: string, r: ReceivedRequest) {
  const hex = crypto.createHmac("sha256", secret).update(r.body).digest("hex");
  const given = r.headers["x-coverdesk-signature"] ?? "";
  expect(given.length === hex.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(hex))).toBe(true);
  const key = secret.startsWith("whsec_") ? secret : `whsec_${Buffer.from(secret, "utf8").toString("base64")}`;
  const body = new StandardWebhook(key).verify(r.body, r.headers) as any;
  expect(r.headers["webhook-id"]).toBe(body.id);
  expect(r.headers["x-coverdesk-event"]).toBe(body.type);
  expect(r.headers["content-type"]).toBe("application/json");
  expect(Object.keys(body)).toEqual(["id", "type", "createdAt", "livemode", "data"]);
  // These specs use live keys; test-mode events say false (test-mode.spec.ts).
  expect(body.livemode).toBe(true);
  expect(body.createdAt).toMatch(ISO);
  return body as { id: string; type: string; createdAt: string; data: any };
}

/** The log (filtered by `query`), polled until `done` holds — the worker runs every second. */
async function logsUntil(client: APIRequestContext, query: string, done: (rows: any[]) => boolean, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = (await ok(await client.get(`business/webhooks/logs?limit=100&${query}`))).data as any[];
    if (done(rows)) return rows;
    if (Date.now() > until) throw new Error(`log ?${query} did not settle: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const byAttempt = (rows: any[]) => [...rows].sort((a, b) => a.attempt - b.attempt);

test.describe("registering and listing", () => {
  test("201 with a generated whsec_ secret, shown only then; the list never shows it", async () => {
    const t = await tenantWithClients();
    const rx = await receiver();
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted", "payment.completed"] });
    expect(Object.keys(created).sort()).toEqual([...WEBHOOK_FIELDS, "secret"].sort());
    expect(created).toMatchObject({
      url: rx.url,
      events: ["claim.submitted", "payment.completed"],
      status: "enabled",
      disabledReason: null,
    });
    expect(created.secret).toMatch(GENERATED_SECRET);
    expect(created.createdAt).toMatch(ISO);

    const second = await register(t.write, { url: `${rx.url}/2`, events: ALL_EVENTS });
    expect(second.secret).toMatch(GENERATED_SECRET);
    expect(second.secret).not.toBe(created.secret);

    const listed = await ok(await t.read.get("business/webhooks"));
    expect(listed.nextCursor).toBeNull();
    expect(listed.data.map((w: any) => w.id)).toEqual([second.id, created.id]);
    for (const w of listed.data) expect(Object.keys(w).sort()).toEqual([...WEBHOOK_FIELDS].sort());
    const { secret: _secret, ...withoutSecret } = created;
    expect(listed.data[1]).toEqual(withoutSecret);

    const page = await ok(await t.read.get("business/webhooks?limit=1"));
    expect(page.data.map((w: any) => w.id)).toEqual([second.id]);
    const next = await ok(await t.read.get(`business/webhooks?limit=1&cursor=${encodeURIComponent(page.nextCursor)}`));
    expect(next.data.map((w: any) => w.id)).toEqual([created.id]);
  });

  test("a business's own secret is kept and signs the deliveries", async () => {
    const t = await tenantWithClients();
    const rx = await receiver();
    const secret = `our-own-secret-${unique()}-ü`;
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted"], secret });
    expect(created.secret).toBe(secret);
    await ok(await t.write.post(`business/webhooks/${created.id}/test`));
    expect(verified(secret, rx.requests[0]!).type).toBe("ping");
  });

  const URL_OK = "https://hooks.example.com/coverdesk";
  const invalid: [string, Record<string, unknown>, string[]][] = [
    ["an unknown event", { url: URL_OK, events: ["claim.created"] }, ["events.0"]],
    ["ping (not subscribable)", { url: URL_OK, events: ["claim.submitted", "ping"] }, ["events.1"]],
    ["no events", { url: URL_OK, events: [] }, ["events"]],
    ["events missing", { url: URL_OK }, ["events"]],
    ["a repeated event", { url: URL_OK, events: ["claim.submitted", "claim.submitted"] }, ["events"]],
    ["a URL that is not one", { url: "hooks.example.com/coverdesk", events: ["claim.submitted"] }, ["url"]],
    ["an ftp: URL", { url: "ftp://hooks.example.com/coverdesk", events: ["claim.submitted"] }, ["url"]],
    ["a secret under 16 characters", { url: URL_OK, events: ["claim.submitted"], secret: "fifteen-chars!!" }, ["secret"]],
    ["an unknown field", { url: URL_OK, events: ["claim.submitted"], enabled: true }, [""]],
  ];
  for (const [what, body, paths] of invalid) {
    test(`422 for ${what}, and nothing is stored`, async () => {
      const t = await tenantWithClients();
      const err = await problem(await t.write.post("business/webhooks", { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toEqual(paths);
      expect((await ok(await t.read.get("business/webhooks"))).data).toEqual([]);
    });
  }

  test("400 for a body that is not JSON", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.post("business/webhooks", { data: Buffer.from('{"url":'), headers: { "Content-Type": "application/json" } }),
      400,
      "malformed_json",
    );
  });
});

test.describe("who may", () => {
  test("401 without a key or with an unknown one", async () => {
    const anonymous = await restClient();
    const bogus = await restClient(`cd_live_${"x".repeat(32)}`);
    for (const [client, code] of [
      [anonymous, "missing_api_key"],
      [bogus, "invalid_api_key"],
    ] as const) {
      await problem(await client.get("business/webhooks"), 401, code);
      await problem(await client.get("business/webhooks/logs"), 401, code);
      await problem(
        await client.post("business/webhooks", { data: { url: "https://a.example", events: ALL_EVENTS } }),
        401,
        code,
      );
      await problem(await client.delete("business/webhooks/whk_x"), 401, code);
      await problem(await client.post("business/webhooks/whk_x/test"), 401, code);
      await problem(await client.post("business/webhooks/deliveries/x/retry"), 401, code);
    }
  });

  test("a read-only key lists but changes nothing (403)", async () => {
    const t = await tenantWithClients();
    const rx = await receiver();
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted"] });
    const ping = await ok(await t.write.post(`business/webhooks/${created.id}/test`));

    const err = await problem(
      await t.read.post("business/webhooks", { data: { url: rx.url, events: ["claim.submitted"] } }),
      403,
      "insufficient_permissions",
    );
    expect(err.detail).toMatch(/write/);
    await problem(await t.read.delete(`business/webhooks/${created.id}`), 403, "insufficient_permissions");
    await problem(await t.read.post(`business/webhooks/${created.id}/test`), 403, "insufficient_permissions");
    await problem(await t.read.post(`business/webhooks/deliveries/${ping.id}/retry`), 403, "insufficient_permissions");

    expect((await ok(await t.read.get("business/webhooks"))).data.map((w: any) => w.id)).toEqual([created.id]);
    expect((await ok(await t.read.get("business/webhooks/logs"))).data.map((d: any) => d.id)).toEqual([ping.id]);
    expect(rx.requests).toHaveLength(1);
  });

  test("another organization's webhook and delivery: 404, and they stay as they were", async () => {
    const mine = await tenantWithClients();
    const theirs = await tenantWithClients();
    const rx = await receiver();
    const their = await register(theirs.write, { url: rx.url, events: ["claim.submitted"] });
    const theirPing = await ok(await theirs.write.post(`business/webhooks/${their.id}/test`));
    const before = {
      hooks: await listAll(theirs.read, "business/webhooks"),
      logs: await listAll(theirs.read, "business/webhooks/logs"),
    };

    await problem(await mine.write.delete(`business/webhooks/${their.id}`), 404, "not_found");
    await problem(await mine.write.post(`business/webhooks/${their.id}/test`), 404, "not_found");
    await problem(await mine.write.post(`business/webhooks/deliveries/${theirPing.id}/retry`), 404, "not_found");
    expect((await ok(await mine.read.get(`business/webhooks/logs?webhookId=${their.id}`))).data).toEqual([]);
    expect((await ok(await mine.read.get("business/webhooks"))).data).toEqual([]);
    // Unknown ids answer the same.
    await problem(await mine.write.delete("business/webhooks/no-such-webhook"), 404, "not_found");
    await problem(await mine.write.post("business/webhooks/deliveries/no-such-delivery/retry"), 404, "not_found");

    expect(rx.requests).toHaveLength(1);
    expect({
      hooks: await listAll(theirs.read, "business/webhooks"),
      logs: await listAll(theirs.read, "business/webhooks/logs"),
    }).toEqual(before);
  });
});

test.describe("delete, test, logs, retry", () => {
  test("DELETE answers 204 with no body; the webhook and its log are gone", async () => {
    const t = await tenantWithClients();
    const rx = await receiver();
    const keep = await register(t.write, { url: `${rx.url}/keep`, events: ["claim.submitted"] });
    const gone = await register(t.write, { url: `${rx.url}/gone`, events: ["claim.submitted"] });
    await ok(await t.write.post(`business/webhooks/${gone.id}/test`));

    const res = await t.write.delete(`business/webhooks/${gone.id}`);
    expect(res.status()).toBe(204);
    expect(await res.text()).toBe("");
    expect((await ok(await t.read.get("business/webhooks"))).data.map((w: any) => w.id)).toEqual([keep.id]);
    expect((await ok(await t.read.get("business/webhooks/logs"))).data).toEqual([]);
    await problem(await t.write.delete(`business/webhooks/${gone.id}`), 404, "not_found");
    await problem(await t.write.post(`business/webhooks/${gone.id}/test`), 404, "not_found");
  });

  test("test sends a signed ping now and answers the logged attempt", async () => {
    const t = await tenantWithClients();
    const rx = await receiver();
    const created = await register(t.write, { url: rx.url, events: ["policy.renewed"] });

    const ping = await ok(await t.write.post(`business/webhooks/${created.id}/test`));
    expectDeliveryShape(ping);
    expect(ping).toMatchObject({
      webhookId: created.id,
      event: "ping",
      attempt: 1,
      status: "succeeded",
      responseStatus: 200,
      error: null,
      nextRetryAt: null,
    });
    expect(ping.durationMs).toBeGreaterThanOrEqual(0);

    expect(rx.requests).toHaveLength(1); // sent before the response, not queued
    expect(rx.requests[0]).toMatchObject({ method: "POST", path: "/webhooks/coverdesk" });
    const body = verified(created.secret, rx.requests[0]!);
    expect(body).toMatchObject({ id: ping.eventId, type: "ping", data: { webhookId: created.id } });

    const logs = await ok(await t.read.get("business/webhooks/logs"));
    expect(logs).toEqual({ data: [ping], nextCursor: null });
  });

  test("a failing receiver: the test attempt is logged as failed, with the answer's status", async () => {
    const t = await tenantWithClients();
    const rx = await receiver(() => ({ status: 503, body: "maintenance" }));
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted"] });
    const ping = await ok(await t.write.post(`business/webhooks/${created.id}/test`));
    expect(ping).toMatchObject({
      event: "ping",
      attempt: 1,
      status: "failed",
      responseStatus: 503,
      error: "HTTP 503",
      nextRetryAt: null,
    });
    expect(rx.requests).toHaveLength(1);
  });

  test("retry sends the same event again as the next attempt", async () => {
    const t = await tenantWithClients();
    const rx = await receiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted"] });
    const first = await ok(await t.write.post(`business/webhooks/${created.id}/test`));
    expect(first).toMatchObject({ attempt: 1, status: "failed", responseStatus: 500 });

    const second = await ok(await t.write.post(`business/webhooks/deliveries/${first.id}/retry`));
    expectDeliveryShape(second);
    expect(second).toMatchObject({
      webhookId: created.id,
      eventId: first.eventId,
      event: "ping",
      attempt: 2,
      status: "succeeded",
      responseStatus: 200,
      nextRetryAt: null,
    });
    expect(second.id).not.toBe(first.id);
    const third = await ok(await t.write.post(`business/webhooks/deliveries/${first.id}/retry`));
    expect(third).toMatchObject({ eventId: first.eventId, attempt: 3, status: "succeeded" });

    expect(rx.requests.map((r) => r.headers["webhook-id"])).toEqual([first.eventId, first.eventId, first.eventId]);
    expect(new Set(rx.requests.map((r) => r.body)).size).toBe(1);
    for (const r of rx.requests) verified(created.secret, r);
    expect((await ok(await t.read.get("business/webhooks/logs"))).data.map((d: any) => d.attempt)).toEqual([3, 2, 1]);
  });

  test("logs filter by webhookId, event and status; bad filters are refused", async () => {
    const t = await tenantWithClients();
    const good = await receiver();
    const bad = await receiver(() => ({ status: 500 }));
    const hGood = await register(t.write, { url: good.url, events: ["claim.submitted"] });
    const hBad = await register(t.write, { url: bad.url, events: ["claim.submitted"] });
    const okPing = await ok(await t.write.post(`business/webhooks/${hGood.id}/test`));
    const failedPing = await ok(await t.write.post(`business/webhooks/${hBad.id}/test`));

    const ids = async (query: string) =>
      (await ok(await t.read.get(`business/webhooks/logs?${query}`))).data.map((d: any) => d.id);
    expect(await ids("")).toEqual([failedPing.id, okPing.id]);
    expect(await ids(`webhookId=${hGood.id}`)).toEqual([okPing.id]);
    expect(await ids(`webhookId=${hBad.id}`)).toEqual([failedPing.id]);
    expect(await ids("status=succeeded")).toEqual([okPing.id]);
    expect(await ids("status=failed")).toEqual([failedPing.id]);
    expect(await ids("event=ping")).toEqual([failedPing.id, okPing.id]);
    expect(await ids("event=claim.submitted")).toEqual([]);
    expect(await ids(`event=ping&status=failed&webhookId=${hBad.id}`)).toEqual([failedPing.id]);
    expect(await ids("limit=1")).toEqual([failedPing.id]);

    for (const query of ["status=pending", "event=claim.created", "limit=0", "limit=101"]) {
      await problem(await t.read.get(`business/webhooks/logs?${query}`), 400, "invalid_query");
    }
  });
});

test.describe("deliveries by the app's worker", () => {
  test("a submitted claim reaches the subscribed endpoint, signed, and is logged", async () => {
    const t = await tenantWithClients();
    const rx = await receiver();
    const other = await receiver();
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted"] });
    await register(t.write, { url: other.url, events: ["payment.completed"] });
    const policy = await createPolicyFor(t.write);
    const claim = await ok(
      await t.write.post("claims", {
        data: { policyId: policy.id, type: "fire", description: "Kitchen fire in the staff canteen", amount: 2500 },
      }),
      201,
    );

    const [req] = await rx.waitFor(1);
    const body = verified(created.secret, req!);
    expect(body).toMatchObject({ type: "claim.submitted", data: claim });
    const rows = await logsUntil(t.read, `webhookId=${created.id}`, (r) => r.length === 1);
    expectDeliveryShape(rows[0]);
    expect(rows[0]).toMatchObject({
      eventId: body.id,
      event: "claim.submitted",
      attempt: 1,
      status: "succeeded",
      responseStatus: 200,
      nextRetryAt: null,
    });
    expect(other.requests).toHaveLength(0);
  });

  test("a purchase sends payment.completed and policy.purchased", async () => {
    const t = await tenantWithClients();
    const rx = await receiver();
    const created = await register(t.write, { url: rx.url, events: ALL_EVENTS });
    const policy = await createPolicyFor(t.write, { price: "80.00" });
    const verifiedPayment = await buyPolicy(t.write, policy, "chidi@example.test");

    const requests = await rx.waitFor(2);
    const bodies = Object.fromEntries(requests.map((r) => [verified(created.secret, r).type, verified(created.secret, r).data]));
    expect(Object.keys(bodies).sort()).toEqual(["payment.completed", "policy.purchased"]);
    expect(bodies["payment.completed"]).toMatchObject({
      reference: verifiedPayment.reference,
      status: "success",
      amount: "80.00",
    });
    expect(bodies["policy.purchased"]).toMatchObject({
      coverage: { policyId: policy.id, customerEmail: "chidi@example.test", status: "active" },
      payment: { reference: verifiedPayment.reference, amount: "80.00" },
    });
  });

  test("500 then 200: the event comes twice with the same webhook-id; the log shows both attempts", async () => {
    const t = await tenantWithClients();
    const rx = await receiver((n) => (n === 1 ? { status: 500, body: "try later" } : { status: 200 }));
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted"] });
    const policy = await createPolicyFor(t.write);
    await ok(
      await t.write.post("claims", {
        data: { policyId: policy.id, type: "theft", description: "Van stolen overnight", amount: 900 },
      }),
      201,
    );

    const [first, second] = await rx.waitFor(2);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(second!.body).toBe(first!.body);
    verified(created.secret, first!);
    verified(created.secret, second!);

    const rows = byAttempt(await logsUntil(t.read, `webhookId=${created.id}`, (r) => r.length === 2));
    expect(rows.map((d) => [d.attempt, d.status, d.responseStatus, d.error])).toEqual([
      [1, "failed", 500, "HTTP 500"],
      [2, "succeeded", 200, null],
    ]);
    expect(rows[0].nextRetryAt).toMatch(ISO);
    expect(rows[1].nextRetryAt).toBeNull();
    expect(new Date(rows[0].nextRetryAt).getTime()).toBeGreaterThan(new Date(rows[0].createdAt).getTime());
    expect(await ok(await t.read.get(`business/webhooks/logs?webhookId=${created.id}&status=failed`))).toMatchObject({
      data: [{ id: rows[0].id }],
    });
  });

  test("410 Gone disables the webhook", async () => {
    const t = await tenantWithClients();
    const rx = await receiver(() => ({ status: 410 }));
    const created = await register(t.write, { url: rx.url, events: ["claim.submitted"] });
    const policy = await createPolicyFor(t.write);
    await ok(
      await t.write.post("claims", {
        data: { policyId: policy.id, type: "flood", description: "Basement flooded", amount: 300 },
      }),
      201,
    );

    await rx.waitFor(1);
    const rows = await logsUntil(t.read, `webhookId=${created.id}`, (r) => r.length === 1);
    expect(rows[0]).toMatchObject({ attempt: 1, status: "failed", responseStatus: 410, nextRetryAt: null });
    const [hook] = (await ok(await t.read.get("business/webhooks"))).data;
    expect(hook).toMatchObject({ id: created.id, status: "disabled", disabledReason: expect.stringMatching(/410/) });

    // Nothing more is sent to it.
    await ok(
      await t.write.post("claims", { data: { policyId: policy.id, type: "flood", description: "Flooded again", amount: 300 } }),
      201,
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(rx.requests).toHaveLength(1);
  });
});
