// Without WEBHOOK_ALLOW_PRIVATE_URLS (the production default), webhook targets
// must be public: private, loopback and link-local addresses are refused at
// registration, and a delivery to one is never sent. No traffic leaves here.
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
});

import { connectDatabase, db } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { ownerWithOrganization } from "@/test/fixtures";
import { sendOnce } from "./deliver";
import { CreateWebhookInput } from "./schemas";
import { createWebhook, listWebhooks } from "./service";
import { unsafeUrlReason } from "./url-safety";

beforeAll(async () => {
  await connectDatabase();
  expect(env.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
});

const REFUSED = "private, loopback and link-local addresses are not allowed";

describe("private URLs when they are not allowed", () => {
  it.each([
    "http://127.0.0.1:8080/hooks",
    "http://127.1.2.3/hooks",
    "http://localhost:3000/hooks",
    "https://api.localhost/hooks",
    "http://10.0.0.5/hooks",
    "http://172.16.0.1/hooks",
    "http://192.168.1.20/hooks",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/hooks",
    "http://0.0.0.0/hooks",
    "http://[::1]:8080/hooks",
    "http://[fe80::1]/hooks",
    "http://[fd00::1]/hooks",
  ])("%s is refused", async (url) => {
    expect(await unsafeUrlReason(url)).toBe(REFUSED);
  });

  // The URL parser writes an IPv4-mapped IPv6 host in hex (`[::ffff:127.0.0.1]`
  // becomes `::ffff:7f00:1`); fetch() to it reaches 127.0.0.1, so it must be refused.
  it.each(["http://[::ffff:127.0.0.1]/hooks", "http://[::ffff:169.254.169.254]/latest/meta-data", "http://[::ffff:10.0.0.1]/x"])(
    "IPv4-mapped IPv6 %s is refused",
    async (url) => {
      expect(await unsafeUrlReason(url)).toBe(REFUSED);
    },
  );

  it.each([
    "http://93.184.216.34/hooks",
    "https://93.184.216.34:8443/coverdesk",
    "http://[2606:2800:220:1:248:1893:25c8:1946]/x",
  ])("a public address %s is accepted", async (url) => {
    expect(await unsafeUrlReason(url)).toBeNull();
  });

  it("registration answers validation_failed on the url, and nothing is stored", async () => {
    const { actor } = await ownerWithOrganization();
    for (const url of [
      "http://127.0.0.1:9/hooks",
      "http://localhost/hooks",
      "http://10.1.2.3/x",
      "http://169.254.1.1/x",
      "http://[::1]/x",
    ]) {
      const err = await createWebhook(actor, CreateWebhookInput.parse({ url, events: ["claim.submitted"] })).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "validation_failed", message: `url: ${REFUSED}` });
    }
    expect((await listWebhooks(actor, { limit: 20 })).data).toEqual([]);

    const publicHook = await createWebhook(
      actor,
      CreateWebhookInput.parse({ url: "http://93.184.216.34/hooks", events: ["claim.submitted"] }),
    );
    expect(publicHook).toMatchObject({ url: "http://93.184.216.34/hooks", status: "enabled" });
  });

  it("a stored webhook whose URL is private is never called: the attempt fails without sending", async () => {
    // E.g. registered while private URLs were allowed.
    const { org } = await ownerWithOrganization();
    const { seal } = await import("@/server/seal");
    const { SECRET_PURPOSE } = await import("./deliver");
    const row = await db.webhook.create({
      data: {
        organizationId: org.id,
        url: "http://127.0.0.1:9/hooks",
        events: ["claim.submitted"],
        secretSealed: seal(SECRET_PURPOSE, "a-secret-of-sixteen+"),
      },
    });
    const outcome = await sendOnce(row, { id: "evt_test", type: "ping", createdAt: new Date(), data: {} });
    expect(outcome).toMatchObject({ ok: false, responseStatus: null, durationMs: null, error: `Not sent: ${REFUSED}` });
  });
});
