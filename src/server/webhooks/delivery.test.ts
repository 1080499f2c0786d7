// Webhook delivery end to end, in-process: real events from the services, the
// worker driven by hand, and real HTTP receivers on 127.0.0.1 (no mocks).
// Receivers verify both signatures — the source's hex HMAC with node:crypto and
// Standard Webhooks with the `standardwebhooks` package.
import crypto from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// Before any app module loads (env.ts parses process.env once): local receivers
// allowed, retries due at once, a short timeout.
vi.hoisted(() => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_SCHEDULE", "0,0,0");
  vi.stubEnv("WEBHOOK_TIMEOUT_MS", "500");
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
});

import type { Actor } from "@/server/actor";
import { CreateClaimInput } from "@/lib/schemas/claims";
import { submitClaim } from "@/server/claims/service";
import { connectDatabase, db } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { ownerWithOrganization } from "@/test/fixtures";
import { sendOnce } from "./deliver";
import { CreateWebhookInput, ListDeliveriesQuery, type WebhookDelivery } from "@/lib/schemas/webhooks";
import { ensureTestTwin } from "@/server/organizations/twin";
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  listDeliveries,
  listDeliveryGroups,
  retryDelivery,
  sendTestEvent,
  setWebhookStatus,
} from "./service";
import type { ResolveHost } from "./url-safety";
import { runJobsOnce } from "@/server/jobs/runner";
import { dispatchEvents, runDueTasks } from "./jobs";

// ---------- a local receiver ----------

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | "hang";

const open: { close(): Promise<void> }[] = [];

/** An HTTP server on a random 127.0.0.1 port; `reply(n)` answers the n-th request (1-based). */
async function receiver(reply: (n: number) => Reply = () => ({ status: 200, body: "ok" })) {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const r = reply(requests.length);
      if (r === "hang") return; // never answers
      setTimeout(() => res.writeHead(r.status, r.headers).end(r.body ?? ""), r.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const handle = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/coverdesk/hooks`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(handle);
  return handle;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

// ---------- signatures, as a receiver checks them ----------

function hexSignatureValid(secret: string, r: Received) {
  const expected = Buffer.from(crypto.createHmac("sha256", secret).update(r.body).digest("hex"));
  const given = Buffer.from(String(r.headers["x-coverdesk-signature"]));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** Standard Webhooks verification; a custom secret's key is its UTF-8 bytes, which the package takes as base64. */
function standardVerify(secret: string, r: Received, body = r.body) {
  const key = secret.startsWith("whsec_") ? secret : `whsec_${Buffer.from(secret, "utf8").toString("base64")}`;
  return new StandardWebhook(key).verify(body, r.headers as Record<string, string>);
}

// ---------- the shop behind the events ----------

async function shop() {
  const { actor, org } = await ownerWithOrganization();
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Office contents", type: "property", duration: "yearly", price: "150.00" }),
  );
  const claim = (description = "Laptop stolen from the front desk") =>
    submitClaim(actor, CreateClaimInput.parse({ policyId: policy.id, type: "theft", description, amount: 5000 }));
  const buy = async (email = "ada@example.test") => {
    const payment = await initializePayment(actor, InitializePaymentInput.parse({ amount: 150, policyId: policy.id, email }));
    const card = CheckoutInput.parse({
      cardNumber: SANDBOX_CARDS.success,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: "123",
    });
    await payWithCard(payment.reference, card);
    return payment;
  };
  return { actor, org, policy, claim, buy };
}

const hook = (actor: Actor, url: string, events: string[], secret?: string) =>
  createWebhook(actor, CreateWebhookInput.parse({ url, events, secret }));

/** The log of one webhook, oldest attempt first. */
async function attemptsOf(actor: Actor, webhookId: string): Promise<WebhookDelivery[]> {
  const page = await listDeliveries(actor, { limit: 100, webhookId });
  return [...page.data].sort((a, b) => a.attempt - b.attempt || a.createdAt.localeCompare(b.createdAt));
}

const json = (r: Received) =>
  JSON.parse(r.body) as { id: string; type: string; createdAt: string; data: Record<string, unknown> };

beforeAll(async () => {
  await connectDatabase(); // migrations run here, not inside the first test's time limit
  // The stubs above took effect: without them these tests would prove nothing.
  expect(env.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
  expect(env.WEBHOOK_RETRY_SCHEDULE).toEqual([0, 0, 0]);
  expect(env.WEBHOOK_TIMEOUT_MS).toBe(500);
  // The process's first connection compiles undici's HTTP parser (WebAssembly); on a busy machine that
  // alone can eat most of the 500 ms timeout, so it happens here rather than in a test's first attempt.
  const { actor } = await ownerWithOrganization();
  const warmUp = await receiver();
  await sendTestEvent(actor, (await hook(actor, warmUp.url, ["claim.submitted"])).id);
  await Promise.all(open.splice(0).map((r) => r.close()));
});

describe("what a receiver gets", () => {
  it("claim.submitted: {id, type, createdAt, data}, signed both ways with a generated whsec_ secret", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver();
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const submitted = await claim();
    const before = Math.floor(Date.now() / 1000);
    await runJobsOnce();

    expect(rx.requests).toHaveLength(1);
    const [req] = rx.requests as [Received];
    const body = json(req);
    expect(Object.keys(body)).toEqual(["id", "type", "createdAt", "livemode", "data"]);
    const event = await db.event.findUniqueOrThrow({ where: { id: body.id } });
    expect(body).toEqual({
      id: event.id,
      type: "claim.submitted",
      createdAt: event.createdAt.toISOString(),
      livemode: true,
      data: { ...submitted, attachments: [] }, // the Claim and the evidence filed with it
    });
    expect(body.id).toMatch(/^evt_[A-Za-z0-9_-]{16}$/);

    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-coverdesk-event"]).toBe("claim.submitted");
    expect(req.headers["x-coverdesk-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(hexSignatureValid(webhook.secret, req)).toBe(true);
    expect(req.headers["webhook-id"]).toBe(body.id);
    expect(Number(req.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(before - 5);
    expect(Number(req.headers["webhook-timestamp"])).toBeLessThanOrEqual(before + 5);
    expect(req.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(standardVerify(webhook.secret, req)).toEqual(body);

    // A receiver's checks fail for a tampered body or another secret.
    const tampered = { ...req, body: req.body.replace('"theft"', '"fire"') };
    expect(tampered.body).not.toBe(req.body);
    expect(hexSignatureValid(webhook.secret, tampered)).toBe(false);
    expect(() => standardVerify(webhook.secret, tampered)).toThrow(/signature/i);
    expect(() => standardVerify(`whsec_${crypto.randomBytes(32).toString("base64")}`, req)).toThrow(/signature/i);

    const [row, ...rest] = await attemptsOf(actor, webhook.id);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      webhookId: webhook.id,
      eventId: body.id,
      event: "claim.submitted",
      attempt: 1,
      status: "succeeded",
      responseStatus: 200,
      error: null,
      nextRetryAt: null,
    });
    expect(row!.durationMs).toBeGreaterThanOrEqual(0);
    expect(await db.webhookTask.count({ where: { webhookId: webhook.id } })).toBe(0);
    expect((await db.event.findUniqueOrThrow({ where: { id: body.id } })).dispatchedAt).toBeInstanceOf(Date);
  });

  it("payment.completed and policy.purchased, signed with a business's own secret (key = its UTF-8 bytes)", async () => {
    const { actor, buy, policy } = await shop();
    const rx = await receiver();
    const secret = "our-own-signing-secret-ñ-2026";
    const webhook = await hook(actor, rx.url, ["payment.completed", "policy.purchased"], secret);
    expect(webhook.secret).toBe(secret);

    const payment = await buy("ngozi@example.test");
    await runJobsOnce();

    expect(rx.requests.map((r) => r.headers["x-coverdesk-event"]).sort()).toEqual(["payment.completed", "policy.purchased"]);
    for (const req of rx.requests) {
      expect(hexSignatureValid(secret, req)).toBe(true);
      expect(standardVerify(secret, req)).toEqual(json(req));
    }
    const byType = Object.fromEntries(rx.requests.map((r) => [json(r).type, json(r).data]));
    expect(byType["payment.completed"]).toMatchObject({
      reference: payment.reference,
      status: "success",
      amount: "150.00",
      currency: "NGN",
      policyId: policy.id,
      email: "ngozi@example.test",
    });
    expect(byType["policy.purchased"]).toMatchObject({
      coverage: { policyId: policy.id, customerEmail: "ngozi@example.test", status: "active", renewalCount: 0 },
      policy: { id: policy.id, name: "Office contents", duration: "yearly" },
      payment: { reference: payment.reference, amount: "150.00", currency: "NGN" },
    });
    expect((await attemptsOf(actor, webhook.id)).map((d) => [d.event, d.attempt, d.status]).sort()).toEqual([
      ["payment.completed", 1, "succeeded"],
      ["policy.purchased", 1, "succeeded"],
    ]);
  });

  it("only enabled webhooks of the same organization that subscribe to the event receive it", async () => {
    const a = await shop();
    const b = await shop();
    const [subscribed, otherEvent, disabled, otherOrg] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const hSubscribed = await hook(a.actor, subscribed.url, ["claim.submitted", "payment.completed"]);
    await hook(a.actor, otherEvent.url, ["payment.completed", "policy.renewed"]);
    const hDisabled = await hook(a.actor, disabled.url, ["claim.submitted"]);
    await setWebhookStatus(a.actor, hDisabled.id, "disabled");
    await hook(b.actor, otherOrg.url, ["claim.submitted"]);

    const submitted = await a.claim();
    await runJobsOnce();

    expect(subscribed.requests.map((r) => json(r).data.id)).toEqual([submitted.id]);
    expect([otherEvent, disabled, otherOrg].map((r) => r.requests.length)).toEqual([0, 0, 0]);
    expect((await listDeliveries(a.actor, { limit: 100 })).data.map((d) => d.webhookId)).toEqual([hSubscribed.id]);
    expect((await listDeliveries(b.actor, { limit: 100 })).data).toEqual([]);
  });

  it("a webhook disabled after the event was fanned out gets nothing", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver();
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    while ((await dispatchEvents()) > 0);
    expect(await db.webhookTask.count({ where: { webhookId: webhook.id } })).toBe(1);

    await setWebhookStatus(actor, webhook.id, "disabled");
    await runJobsOnce();
    expect(rx.requests).toHaveLength(0);
    expect(await attemptsOf(actor, webhook.id)).toEqual([]);
    expect(await db.webhookTask.count({ where: { webhookId: webhook.id } })).toBe(0);
  });
});

describe("failures and retries", () => {
  it("500 then 200: the event arrives twice with the same webhook-id; the log shows both attempts", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver((n) => (n === 1 ? { status: 500, body: "database down" } : { status: 200 }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    await runJobsOnce();

    expect(rx.requests).toHaveLength(2);
    const [first, second] = rx.requests as [Received, Received];
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(second.body).toBe(first.body);
    for (const req of rx.requests) expect(standardVerify(webhook.secret, req)).toEqual(json(first));

    const log = await attemptsOf(actor, webhook.id);
    expect(log.map((d) => [d.attempt, d.status, d.responseStatus, d.error])).toEqual([
      [1, "failed", 500, "HTTP 500"],
      [2, "succeeded", 200, null],
    ]);
    expect(log[0]!.nextRetryAt).not.toBeNull();
    expect(log[1]!.nextRetryAt).toBeNull();
    expect(new Set(log.map((d) => d.eventId))).toEqual(new Set([first.headers["webhook-id"]]));

    // The detail drawer: the attempt's request, and every attempt of the event.
    const detail = await getDelivery(actor, log[0]!.id);
    expect(detail.requestBody).toBe(first.body);
    expect(detail.requestHeaders["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(detail.responseExcerpt).toBe("database down");
    expect(detail.url).toBe(rx.url);
    expect(detail.attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, "failed"],
      [2, "succeeded"],
    ]);
  });

  it("stops after the schedule: attempts = schedule length + 1, the last without a next retry", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver(() => ({ status: 503 }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    await runJobsOnce();
    await runJobsOnce();

    expect(rx.requests).toHaveLength(env.WEBHOOK_RETRY_SCHEDULE.length + 1);
    expect(new Set(rx.requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const log = await attemptsOf(actor, webhook.id);
    expect(log.map((d) => [d.attempt, d.status, d.responseStatus, d.nextRetryAt === null])).toEqual([
      [1, "failed", 503, false],
      [2, "failed", 503, false],
      [3, "failed", 503, false],
      [4, "failed", 503, true],
    ]);
    expect(await db.webhookTask.count({ where: { webhookId: webhook.id } })).toBe(0);
  });

  it("410 Gone disables the webhook: no retry, and no later event is sent", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver(() => ({ status: 410, body: "gone" }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    await runJobsOnce();

    expect(rx.requests).toHaveLength(1);
    const row = await db.webhook.findUniqueOrThrow({ where: { id: webhook.id } });
    expect(row.status).toBe("disabled");
    expect(row.disabledReason).toMatch(/410/);
    expect((await attemptsOf(actor, webhook.id)).map((d) => [d.attempt, d.status, d.responseStatus, d.nextRetryAt])).toEqual([
      [1, "failed", 410, null],
    ]);

    await claim("A second claim");
    await runJobsOnce();
    expect(rx.requests).toHaveLength(1);
    expect(await attemptsOf(actor, webhook.id)).toHaveLength(1);
  });

  it("nothing but failures for 3 days disables the endpoint and tells the team once; a delivery ends the streak", async () => {
    const { actor, org, claim } = await shop();
    let status = 500;
    const rx = await receiver(() => ({ status, body: "no" }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    const row = () => db.webhook.findUniqueOrThrow({ where: { id: webhook.id } });

    await claim();
    await runJobsOnce();
    const since = (await row()).failingSince;
    expect(since).not.toBeNull();
    expect((await row()).status).toBe("enabled");
    // A delivered attempt ends the streak.
    status = 200;
    await claim("Delivered");
    await runJobsOnce();
    expect((await row()).failingSince).toBeNull();

    // Failing since 72 h: the next failure disables it, with the reason, and one webhook.disabled event for the emails.
    status = 500;
    await claim("Failing again");
    await runJobsOnce();
    await db.webhook.update({ where: { id: webhook.id }, data: { failingSince: new Date(Date.now() - 72 * 3_600_000 - 1000) } });
    await claim("The last straw");
    await runJobsOnce();
    const disabled = await row();
    expect(disabled).toMatchObject({ status: "disabled", disabledReason: "Every delivery failed for 3 days" });
    const events = await db.event.findMany({ where: { organizationId: org.id, type: "webhook.disabled" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ webhookId: webhook.id, url: rx.url, reason: "Every delivery failed for 3 days" });
    const sent = rx.requests.length;
    await claim("Not sent");
    await runJobsOnce();
    expect(rx.requests).toHaveLength(sent);
    expect(await db.event.count({ where: { organizationId: org.id, type: "webhook.disabled" } })).toBe(1);
  });

  it("a receiver that never answers is timed out (WEBHOOK_TIMEOUT_MS) and retried later", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver(() => "hang");
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    while ((await dispatchEvents()) > 0);
    const started = Date.now();
    await runDueTasks();
    const took = Date.now() - started;

    expect(rx.requests).toHaveLength(1);
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(10_000);
    const [row] = await attemptsOf(actor, webhook.id);
    expect(row).toMatchObject({ attempt: 1, status: "failed", responseStatus: null, error: "Timed out after 500 ms" });
    expect(row!.durationMs).toBeGreaterThanOrEqual(450);
    expect(row!.nextRetryAt).not.toBeNull();
    const task = await db.webhookTask.findFirstOrThrow({ where: { webhookId: webhook.id } });
    expect([task.nextAttempt, task.lockedUntil]).toEqual([2, null]);
    await db.webhook.delete({ where: { id: webhook.id } }); // its pending retries go with it
  });

  it("a connection refused is a failed attempt with the reason", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver();
    const url = rx.url;
    await rx.close();
    const webhook = await hook(actor, url, ["claim.submitted"]);
    await claim();
    while ((await dispatchEvents()) > 0);
    await runDueTasks();
    const [row] = await attemptsOf(actor, webhook.id);
    expect(row).toMatchObject({ attempt: 1, status: "failed", responseStatus: null });
    expect(row!.error).toMatch(/^Connection failed: .*ECONNREFUSED/);
    await db.webhook.delete({ where: { id: webhook.id } });
  });

  it("a redirect is not followed: the attempt fails and the target gets nothing", async () => {
    const { actor, claim } = await shop();
    const target = await receiver();
    const rx = await receiver(() => ({ status: 302, headers: { Location: target.url } }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    while ((await dispatchEvents()) > 0);
    await runDueTasks();

    expect(rx.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    const [row] = await attemptsOf(actor, webhook.id);
    expect(row).toMatchObject({ attempt: 1, status: "failed", responseStatus: 302, error: "Redirect (302) not followed" });
    expect(row!.nextRetryAt).not.toBeNull();
    await db.webhook.delete({ where: { id: webhook.id } });
  });

  it("429 with Retry-After: the next attempt waits at least that long", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver(() => ({ status: 429, headers: { "Retry-After": "120" } }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    while ((await dispatchEvents()) > 0);
    const before = Date.now();
    await runDueTasks();

    const [row] = await attemptsOf(actor, webhook.id);
    expect(row).toMatchObject({ attempt: 1, status: "failed", responseStatus: 429 });
    const next = new Date(row!.nextRetryAt!).getTime();
    expect(next).toBeGreaterThanOrEqual(before + 120_000);
    expect(next).toBeLessThan(before + 130_000);
    const task = await db.webhookTask.findFirstOrThrow({ where: { webhookId: webhook.id } });
    expect(task.runAt.getTime()).toBe(next);

    await runJobsOnce(); // not due yet
    expect(rx.requests).toHaveLength(1);
    await db.webhook.delete({ where: { id: webhook.id } });
  });
});

describe("nothing is lost, nothing is sent twice", () => {
  it("an event committed before the app died is delivered after the restart, exactly once", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver();
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);

    // The claim and its event commit; the process dies before any worker pass.
    const submitted = await claim();
    const event = await db.event.findFirstOrThrow({ where: { organizationId: actor.organizationId, type: "claim.submitted" } });
    expect(event.dispatchedAt).toBeNull();
    expect(rx.requests).toHaveLength(0);

    // After the restart, the worker's first pass finds it in the outbox.
    await runJobsOnce();
    await runJobsOnce();
    expect(rx.requests.map((r) => [r.headers["webhook-id"], json(r).data.id])).toEqual([[event.id, submitted.id]]);
    expect((await attemptsOf(actor, webhook.id)).map((d) => [d.attempt, d.status])).toEqual([[1, "succeeded"]]);
  });

  it("a task held by a worker that died mid-delivery comes back when its lease ends, and is sent once", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver();
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    while ((await dispatchEvents()) > 0);

    // A worker claimed the task (its lease runs) and was killed before logging the attempt.
    const task = await db.webhookTask.findFirstOrThrow({ where: { webhookId: webhook.id } });
    await db.webhookTask.update({ where: { id: task.id }, data: { lockedUntil: new Date(Date.now() + 60_000) } });
    await runJobsOnce();
    expect(rx.requests).toHaveLength(0); // another worker leaves a leased task alone

    // The lease runs out: the task is due again.
    await db.webhookTask.update({ where: { id: task.id }, data: { lockedUntil: new Date(Date.now() - 1000) } });
    await runJobsOnce();
    await runJobsOnce();
    expect(rx.requests).toHaveLength(1);
    expect((await attemptsOf(actor, webhook.id)).map((d) => [d.attempt, d.status])).toEqual([[1, "succeeded"]]);
    expect(await db.webhookTask.count({ where: { webhookId: webhook.id } })).toBe(0);
  });

  it("concurrent workers never make one attempt twice", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver(() => ({ status: 200, delayMs: 150 }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    for (const n of [1, 2, 3]) await claim(`Claim number ${n}`);
    while ((await dispatchEvents()) > 0);

    await Promise.all([runDueTasks(), runDueTasks(), runDueTasks()]);
    await Promise.all([runJobsOnce(), runJobsOnce()]);

    const ids = rx.requests.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    const log = await attemptsOf(actor, webhook.id);
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [1, "succeeded"],
      [1, "succeeded"],
      [1, "succeeded"],
    ]);
    expect(new Set(log.map((d) => d.eventId))).toEqual(new Set(ids));
  });
});

describe("test events and manual retries", () => {
  it("a test ping is signed, sent now (not queued), and logged as attempt 1; a retry sends it again as attempt 2", async () => {
    const { actor } = await shop();
    const rx = await receiver();
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);

    const ping = await sendTestEvent(actor, webhook.id);
    expect(ping).toMatchObject({
      webhookId: webhook.id,
      event: "ping",
      attempt: 1,
      status: "succeeded",
      responseStatus: 200,
      nextRetryAt: null,
    });
    expect(rx.requests).toHaveLength(1);
    const body = json(rx.requests[0]!);
    expect(body).toMatchObject({ id: ping.eventId, type: "ping", data: { webhookId: webhook.id } });
    expect(standardVerify(webhook.secret, rx.requests[0]!)).toEqual(body);
    expect(hexSignatureValid(webhook.secret, rx.requests[0]!)).toBe(true);
    expect(await db.webhookTask.count({ where: { webhookId: webhook.id } })).toBe(0);

    const again = await retryDelivery(actor, ping.id);
    expect(again).toMatchObject({ eventId: ping.eventId, event: "ping", attempt: 2, status: "succeeded" });
    expect(again.id).not.toBe(ping.id);
    expect(rx.requests.map((r) => r.headers["webhook-id"])).toEqual([ping.eventId, ping.eventId]);
    expect(rx.requests[1]!.body).toBe(rx.requests[0]!.body);
    await runJobsOnce();
    expect(rx.requests).toHaveLength(2);
  });

  it("a webhook deleted while its test ping was out: 404, nothing logged (not a 500 from the log's foreign key)", async () => {
    const { actor } = await shop();
    const rx = await receiver(() => ({ status: 200, delayMs: 300 }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    const sending = sendTestEvent(actor, webhook.id).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    // The DELETE lands while the receiver is still answering.
    while (rx.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    await deleteWebhook(actor, webhook.id);
    const err = await sending;
    expect([err?.status, err?.code]).toEqual([404, "not_found"]);
    expect(await db.webhookDelivery.count({ where: { webhookId: webhook.id } })).toBe(0);
  });

  // After a successful manual retry the worker does not send the event again,
  // and attempt numbers of one event stay unique.
  it("a successful manual retry of a failed attempt ends the automatic retries", async () => {
    const { actor, claim } = await shop();
    const rx = await receiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    await claim();
    while ((await dispatchEvents()) > 0);
    await runDueTasks(); // attempt 1 fails, attempt 2 is scheduled

    const [failed] = await attemptsOf(actor, webhook.id);
    const manual = await retryDelivery(actor, failed!.id);
    expect(manual).toMatchObject({ attempt: 2, status: "succeeded" });
    await runJobsOnce();

    expect(rx.requests).toHaveLength(2);
    expect((await attemptsOf(actor, webhook.id)).map((d) => d.attempt)).toEqual([1, 2]);
  });

  // SPEC §6 "410 Gone disables the webhook" — on every path, not only the worker's.
  it("410 to a test ping disables the webhook too", async () => {
    const { actor } = await shop();
    const rx = await receiver(() => ({ status: 410 }));
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    const ping = await sendTestEvent(actor, webhook.id);
    expect(ping).toMatchObject({ status: "failed", responseStatus: 410 });
    expect((await db.webhook.findUniqueOrThrow({ where: { id: webhook.id } })).status).toBe("disabled");
  });
});

describe("the delivery log by event (the dashboard's view)", () => {
  /** The groups of one page, as [event, attempts, latest attempt's number and outcome]. */
  const groupsOf = async (actor: Actor, q: Record<string, string> = {}) =>
    (await listDeliveryGroups(actor, ListDeliveriesQuery.parse(q))).data;

  it("one entry per event and endpoint, its attempts inside; filters and the outcome are the latest attempt's; paged stably", async () => {
    const { actor, claim } = await shop();
    // Claims about a burst pipe are never taken (503, until the schedule ends); any other fails once, then arrives.
    const seen = new Map<string, number>();
    const rx = await receiver((n) => {
      const body = json(rx.requests[n - 1]!);
      seen.set(body.id, (seen.get(body.id) ?? 0) + 1);
      if (JSON.stringify(body.data).includes("Burst pipe")) return { status: 503, body: '{"error":"busy"}' };
      return seen.get(body.id) === 1 ? { status: 500, body: "database down" } : { status: 200 };
    });
    const webhook = await hook(actor, rx.url, ["claim.submitted"]);
    const laptop = await claim("Laptop stolen from the front desk");
    const pipe = await claim("Burst pipe flooded the server room");
    await runJobsOnce();
    await runJobsOnce();
    expect(rx.requests).toHaveLength(2 + env.WEBHOOK_RETRY_SCHEDULE.length + 1);

    // Another organization, and this one's test mode: their deliveries are theirs alone.
    const other = await shop();
    const otherRx = await receiver();
    const otherPing = await sendTestEvent(other.actor, (await hook(other.actor, otherRx.url, ["claim.submitted"])).id);
    const testActor: Actor = {
      ...actor,
      organizationId: await ensureTestTwin(actor.organizationId),
      accountId: actor.organizationId,
      livemode: false,
    };
    const testPing = await sendTestEvent(testActor, (await hook(testActor, otherRx.url, ["claim.submitted"])).id);

    const attempts = await attemptsOf(actor, webhook.id);
    const eventOf = (claimId: string) => rx.requests.map(json).find((b) => (b.data as { id?: string }).id === claimId)!.id;
    const laptopEvent = eventOf(laptop.id);
    const pipeEvent = eventOf(pipe.id);
    const latestOf = (eventId: string) => attempts.filter((a) => a.eventId === eventId).at(-1)!;

    const groups = await groupsOf(actor);
    expect(groups).toHaveLength(2);
    // Newest latest attempt first.
    const order = [laptopEvent, pipeEvent].sort((a, b) => {
      const [x, y] = [latestOf(a), latestOf(b)];
      return y.createdAt.localeCompare(x.createdAt) || y.id.localeCompare(x.id);
    });
    expect(groups.map((g) => g.eventId)).toEqual(order);
    const byEvent = Object.fromEntries(groups.map((g) => [g.eventId, g]));
    expect(byEvent[laptopEvent]).toMatchObject({
      webhookId: webhook.id,
      event: "claim.submitted",
      url: rx.url,
      attemptCount: 2,
      latest: { attempt: 2, status: "succeeded", responseStatus: 200, nextRetryAt: null },
    });
    expect(byEvent[laptopEvent]!.latest).toEqual(latestOf(laptopEvent));
    expect(byEvent[laptopEvent]!.attempts.map((a) => [a.attempt, a.status, a.responseStatus])).toEqual([
      [1, "failed", 500],
      [2, "succeeded", 200],
    ]);
    expect(byEvent[pipeEvent]).toMatchObject({
      attemptCount: 4,
      latest: { attempt: 4, status: "failed", responseStatus: 503, error: "HTTP 503", nextRetryAt: null },
    });
    expect(byEvent[pipeEvent]!.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(byEvent[pipeEvent]!.attempts).toEqual(attempts.filter((a) => a.eventId === pipeEvent));

    // The outcome is the latest attempt's: the laptop's event failed once but arrived.
    const eventIds = async (q: Record<string, string>) => (await groupsOf(actor, q)).map((g) => g.eventId);
    expect(await eventIds({ status: "failed" })).toEqual([pipeEvent]);
    expect(await eventIds({ status: "succeeded" })).toEqual([laptopEvent]);
    expect((await groupsOf(actor, { status: "failed" }))[0]!.attemptCount).toBe(4);
    expect(await eventIds({ event: "claim.submitted", webhookId: webhook.id })).toEqual(order);
    expect(await eventIds({ event: "ping" })).toEqual([]);

    // Never another organization's, nor the other mode's.
    expect(await eventIds({ webhookId: otherPing.webhookId })).toEqual([]);
    expect((await groupsOf(other.actor)).map((g) => g.eventId)).toEqual([otherPing.eventId]);
    expect((await groupsOf(testActor)).map((g) => g.eventId)).toEqual([testPing.eventId]);

    // A manual retry of the failed event: a fifth attempt, now the latest (a 503 again), and the group leads.
    const manual = await retryDelivery(actor, latestOf(pipeEvent).id);
    expect(manual).toMatchObject({ attempt: 5, status: "failed" });
    const [first] = await groupsOf(actor);
    expect(first).toMatchObject({ eventId: pipeEvent, attemptCount: 5, latest: { id: manual.id, attempt: 5 } });
    expect(first!.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);

    // Pages of one: each group once, in order; the same cursor answers the same page, even after a newer event.
    const ping = await sendTestEvent(actor, webhook.id);
    const all = (await groupsOf(actor, { limit: "100" })).map((g) => g.eventId);
    expect(all).toEqual([ping.eventId, pipeEvent, laptopEvent]);
    const paged: string[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listDeliveryGroups(actor, ListDeliveriesQuery.parse({ limit: "1", ...(cursor ? { cursor } : {}) }));
      expect(page.data).toHaveLength(1);
      paged.push(page.data[0]!.eventId);
      cursor = page.nextCursor;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    expect(paged).toEqual(all);
    expect(cursors).toHaveLength(2);
    await sendTestEvent(actor, webhook.id); // a new group on top: the pages after a cursor stay as they were
    const again = await listDeliveryGroups(actor, ListDeliveriesQuery.parse({ limit: "1", cursor: cursors[0] }));
    expect(again.data.map((g) => g.eventId)).toEqual([pipeEvent]);
    expect(again.nextCursor).toBe(cursors[1]);
    const last = await listDeliveryGroups(actor, ListDeliveriesQuery.parse({ limit: "1", cursor: cursors[1] }));
    expect([last.data.map((g) => g.eventId), last.nextCursor]).toEqual([[laptopEvent], null]);
  });
});

describe("what the app connects to, and reads back", () => {
  it("the name is resolved once and the connection goes to that answer, not a later one (DNS rebinding)", async () => {
    const { actor } = await shop();
    const rx = await receiver();
    const port = Number(new URL(rx.url).port);
    // Another listener on the same port of 127.0.0.2: what a second resolution would reach.
    let elsewhere = 0;
    const other = net.createServer((socket) => {
      elsewhere++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => other.listen(port, "127.0.0.2", resolve));
    open.push({ close: () => new Promise<void>((resolve) => other.close(() => resolve())) });

    let answers = 0;
    const resolve = vi.fn<ResolveHost>(async () => (++answers === 1 ? ["127.0.0.1"] : ["127.0.0.2"]));
    const webhook = await hook(actor, `http://hooks.rebind.test:${port}/coverdesk/hooks`, ["claim.submitted"]);
    const row = await db.webhook.findUniqueOrThrow({ where: { id: webhook.id } });
    const outcome = await sendOnce(
      row,
      { id: "evt_pinned", type: "ping", createdAt: new Date(), data: {} },
      { resolve, livemode: true },
    );
    expect(outcome, String(outcome.error)).toMatchObject({ ok: true, responseStatus: 200 });

    expect(resolve.mock.calls).toEqual([["hooks.rebind.test"]]);
    expect(rx.requests).toHaveLength(1);
    expect(rx.requests[0]!.headers.host).toBe(`hooks.rebind.test:${port}`); // the name, not the address
    expect(elsewhere).toBe(0);
  });

  it("reads at most 1 KiB of the answer: an endless body ends the attempt at once, the connection is closed", async () => {
    const { actor } = await shop();
    let closed = false;
    const server = http.createServer((req, res) => {
      req.resume();
      res.on("close", () => (closed = true));
      res.writeHead(200, { "Content-Type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on("drain", pump);
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const webhook = await hook(actor, url, ["claim.submitted"]);

    const started = Date.now();
    const ping = await sendTestEvent(actor, webhook.id);
    expect(Date.now() - started).toBeLessThan(env.WEBHOOK_TIMEOUT_MS);
    expect(ping).toMatchObject({ status: "succeeded", responseStatus: 200, error: null });
    expect(ping.durationMs).toBeLessThan(env.WEBHOOK_TIMEOUT_MS);
    expect((await getDelivery(actor, ping.id)).responseExcerpt).toBe("x".repeat(1024));
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
  });
});
