// The webhook service: registration and secrets, listing, enable/disable,
// delete, the delivery log's filters, and who may do what (roles, API key
// permissions, other organizations). Pings go to a real local receiver.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
});

import type { Actor } from "@/server/actor";
import { connectDatabase, db } from "@/server/db/client";
import { unseal } from "@/server/seal";
import { addMember, codeOf, ownerWithOrganization } from "@/test/fixtures";
import { SECRET_PURPOSE } from "./deliver";
import { CreateWebhookInput, ListDeliveriesQuery } from "@/lib/schemas/webhooks";
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  sendTestEvent,
  setWebhookStatus,
} from "./service";

// One receiver for the file: answers 200, or the status in the path (/status/500).
let server: http.Server;
let base = "";
const received: string[] = [];
beforeAll(async () => {
  await connectDatabase();
  server = http.createServer((req, res) => {
    received.push(req.url ?? "");
    req.resume().on("end", () => res.writeHead(Number(/\/status\/(\d{3})/.exec(req.url ?? "")?.[1] ?? 200)).end("thanks"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const hook = (actor: Actor, input: { url?: string; events?: string[]; secret?: string } = {}) =>
  createWebhook(
    actor,
    CreateWebhookInput.parse({ url: `${base}/hooks/${crypto.randomUUID()}`, events: ["claim.submitted"], ...input }),
  );

describe("registering a webhook", () => {
  it("generates a whsec_ secret of 32 random bytes, shown once and stored sealed", async () => {
    const { actor } = await ownerWithOrganization();
    const url = `${base}/coverdesk`;
    const created = await hook(actor, { url, events: ["policy.purchased", "payment.completed"] });
    expect(created).toEqual({
      id: expect.any(String),
      url,
      events: ["policy.purchased", "payment.completed"],
      status: "enabled",
      disabledReason: null,
      failingSince: null,
      previousSecretExpiresAt: null,
      createdAt: expect.stringMatching(/Z$/),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);
    expect((await hook(actor)).secret).not.toBe(created.secret);

    const row = await db.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretSealed).not.toContain(created.secret.slice(6));
    expect(unseal(SECRET_PURPOSE, row.secretSealed)).toBe(created.secret);

    const listed = (await listWebhooks(actor, { limit: 20 })).data.find((w) => w.id === created.id);
    expect(listed).toEqual({ ...created, secret: undefined });
    expect(listed).not.toHaveProperty("secret");
  });

  it("keeps a business's own secret as given", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await hook(actor, { secret: "correct horse battery staple" });
    expect(created.secret).toBe("correct horse battery staple");
    const row = await db.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(unseal(SECRET_PURPOSE, row.secretSealed)).toBe("correct horse battery staple");
  });

  it("validates its input: events, URL, secret, unknown fields", () => {
    const paths = (input: unknown) => {
      const r = CreateWebhookInput.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
    };
    const url = "https://hooks.example.com/coverdesk";
    expect(paths({ url, events: ["claim.submitted", "policy.renewed"] })).toEqual([]);
    expect(paths({ url, events: ["claim.created"] })).toEqual(["events.0"]);
    expect(paths({ url, events: ["ping"] })).toEqual(["events.0"]);
    expect(paths({ url, events: [] })).toEqual(["events"]);
    expect(paths({ url, events: ["claim.submitted", "claim.submitted"] })).toEqual(["events"]);
    expect(paths({ url: "not a url", events: ["claim.submitted"] })).toEqual(["url"]);
    expect(paths({ url: "ftp://hooks.example.com/x", events: ["claim.submitted"] })).toEqual(["url"]);
    expect(paths({ url: "https://user:pass@hooks.example.com/x", events: ["claim.submitted"] })).toEqual(["url"]);
    expect(paths({ url: "https://token@hooks.example.com/x", events: ["claim.submitted"] })).toEqual(["url"]);
    expect(paths({ url: "https://hooks.example.com/x?next=a@b", events: ["claim.submitted"] })).toEqual([]);
    expect(paths({ url, events: ["claim.submitted"], secret: "fifteen-chars!!" })).toEqual(["secret"]);
    expect(paths({ url, events: ["claim.submitted"], secret: "sixteen-chars!!!" })).toEqual([]);
    expect(paths({ url, events: ["claim.submitted"], active: true })).toEqual([""]);
  });
});

describe("managing webhooks", () => {
  it("lists newest first, per organization, with pagination", async () => {
    const { actor } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await hook(actor)).id);
    await hook(other.actor);

    const first = await listWebhooks(actor, { limit: 2 });
    expect(first.data.map((w) => w.id)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listWebhooks(actor, { limit: 2, cursor: first.nextCursor! });
    expect(second.data.map((w) => w.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
  });

  it("disables and enables (the business's switch), and deletes with the log", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await hook(actor);
    expect(await setWebhookStatus(actor, created.id, "disabled")).toMatchObject({
      status: "disabled",
      disabledReason: "Disabled by the business",
    });
    expect(await setWebhookStatus(actor, created.id, "enabled")).toMatchObject({ status: "enabled", disabledReason: null });

    await sendTestEvent(actor, created.id);
    expect(await db.webhookDelivery.count({ where: { webhookId: created.id } })).toBe(1);
    await deleteWebhook(actor, created.id);
    expect((await listWebhooks(actor, { limit: 20 })).data).toEqual([]);
    expect(await db.webhookDelivery.count({ where: { webhookId: created.id } })).toBe(0);
    expect(await codeOf(deleteWebhook(actor, created.id))).toBe("not_found");
  });

  it("10 deletes (and a switch) of one webhook at once: one deletes it, the others are 404 (issue 23)", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await hook(actor);
    const settled = await Promise.allSettled([
      ...Array.from({ length: 10 }, () => deleteWebhook(actor, created.id)),
      setWebhookStatus(actor, created.id, "disabled"),
    ]);
    const codes = settled.map((r) =>
      r.status === "fulfilled" ? "ok" : ((r.reason as { code?: string }).code ?? String(r.reason)),
    );
    expect(codes.slice(0, 10).filter((c) => c === "ok")).toHaveLength(1);
    expect(
      codes.filter((c) => c !== "ok").every((c) => c === "not_found"),
      codes.join(),
    ).toBe(true);
  });

  it("another organization's webhook and deliveries are not found, and stay as they were", async () => {
    const mine = await ownerWithOrganization();
    const theirs = await ownerWithOrganization();
    const their = await hook(theirs.actor);
    const delivery = await sendTestEvent(theirs.actor, their.id);
    const before = await db.webhook.findUniqueOrThrow({ where: { id: their.id } });

    expect(await codeOf(deleteWebhook(mine.actor, their.id))).toBe("not_found");
    expect(await codeOf(setWebhookStatus(mine.actor, their.id, "disabled"))).toBe("not_found");
    expect(await codeOf(sendTestEvent(mine.actor, their.id))).toBe("not_found");
    expect(await codeOf(getDelivery(mine.actor, delivery.id))).toBe("not_found");
    expect(await codeOf(retryDelivery(mine.actor, delivery.id))).toBe("not_found");
    expect((await listDeliveries(mine.actor, { limit: 20, webhookId: their.id })).data).toEqual([]);

    expect(await db.webhook.findUniqueOrThrow({ where: { id: their.id } })).toEqual(before);
    expect((await listDeliveries(theirs.actor, { limit: 20 })).data.map((d) => d.id)).toEqual([delivery.id]);
  });

  it("members read, only owners and admins change; a read-only API key changes nothing", async () => {
    const { actor, org } = await ownerWithOrganization();
    const created = await hook(actor);
    const delivery = await sendTestEvent(actor, created.id);
    const member = (await addMember(org.id, "MEMBER")).actor;
    const admin = (await addMember(org.id, "ADMIN")).actor;
    const readKey: Actor = { ...actor, apiKey: { id: "key_read", permissions: ["read"] } };

    for (const who of [member, readKey]) {
      expect((await listWebhooks(who, { limit: 20 })).data.map((w) => w.id)).toEqual([created.id]);
      expect((await listDeliveries(who, { limit: 20 })).data.map((d) => d.id)).toEqual([delivery.id]);
    }
    const refusals = async (who: Actor) => [
      await codeOf(hook(who)),
      await codeOf(setWebhookStatus(who, created.id, "disabled")),
      await codeOf(sendTestEvent(who, created.id)),
      await codeOf(retryDelivery(who, delivery.id)),
      await codeOf(deleteWebhook(who, created.id)),
    ];
    expect(await refusals(member)).toEqual(Array(5).fill("forbidden"));
    expect(await refusals(readKey)).toEqual(Array(5).fill("insufficient_permissions"));
    expect(await db.webhook.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({ status: "enabled" });
    expect(await db.webhookDelivery.count({ where: { webhookId: created.id } })).toBe(1);

    expect((await hook(admin)).status).toBe("enabled");
  });
});

describe("the delivery log", () => {
  it("filters by webhook, event and outcome", async () => {
    const { actor } = await ownerWithOrganization();
    const good = await hook(actor, { url: `${base}/status/204` });
    const bad = await hook(actor, { url: `${base}/status/500` });
    const okPing = await sendTestEvent(actor, good.id);
    const failedPing = await sendTestEvent(actor, bad.id);
    expect(okPing).toMatchObject({ status: "succeeded", responseStatus: 204, error: null });
    expect(failedPing).toMatchObject({ status: "failed", responseStatus: 500, error: "HTTP 500", nextRetryAt: null });
    const retried = await retryDelivery(actor, failedPing.id);
    expect(retried).toMatchObject({ eventId: failedPing.eventId, attempt: 2, status: "failed" });

    const ids = async (q: Record<string, string>) =>
      (await listDeliveries(actor, ListDeliveriesQuery.parse(q))).data.map((d) => d.id);
    expect(await ids({})).toEqual([retried.id, failedPing.id, okPing.id]);
    expect(await ids({ webhookId: good.id })).toEqual([okPing.id]);
    expect(await ids({ webhookId: bad.id, status: "failed" })).toEqual([retried.id, failedPing.id]);
    expect(await ids({ status: "succeeded" })).toEqual([okPing.id]);
    expect(await ids({ event: "ping" })).toEqual([retried.id, failedPing.id, okPing.id]);
    expect(await ids({ event: "claim.submitted" })).toEqual([]);
    expect(ListDeliveriesQuery.safeParse({ event: "claim.created" }).success).toBe(false);
    expect(ListDeliveriesQuery.safeParse({ status: "pending" }).success).toBe(false);

    const page = await listDeliveries(actor, ListDeliveriesQuery.parse({ limit: "2" }));
    expect(page.data.map((d) => d.id)).toEqual([retried.id, failedPing.id]);
    const rest = await listDeliveries(actor, ListDeliveriesQuery.parse({ limit: "2", cursor: page.nextCursor }));
    expect(rest.data.map((d) => d.id)).toEqual([okPing.id]);
  });

  it("a delivery's detail carries the signed request and the receiver's answer", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await hook(actor, { url: `${base}/status/202` });
    const ping = await sendTestEvent(actor, created.id);
    const detail = await getDelivery(actor, ping.id);
    expect(detail).toMatchObject({ id: ping.id, url: created.url, responseStatus: 202, responseExcerpt: "thanks" });
    expect(JSON.parse(detail.requestBody)).toMatchObject({ id: ping.eventId, type: "ping", data: { webhookId: created.id } });
    expect(Object.keys(detail.requestHeaders).sort()).toEqual(
      [
        "Content-Type",
        "User-Agent",
        "X-Coverdesk-Event",
        "X-Coverdesk-Signature",
        "webhook-id",
        "webhook-signature",
        "webhook-timestamp",
      ].sort(),
    );
    expect(detail.requestHeaders["X-Coverdesk-Signature"]).toBe(
      crypto.createHmac("sha256", created.secret).update(detail.requestBody).digest("hex"),
    );
    expect(detail.attempts.map((a) => a.id)).toEqual([ping.id]);
  });
});
