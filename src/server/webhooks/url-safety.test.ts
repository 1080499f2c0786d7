// Without WEBHOOK_ALLOW_PRIVATE_URLS (the production default), webhook targets
// must be public: private, loopback and link-local addresses are refused at
// registration, and a delivery to one is never sent — nor to a host whose DNS
// answer changes between the check and the connection (rebinding).
import net from "node:net";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "false");
  vi.stubEnv("WEBHOOK_TIMEOUT_MS", "1000");
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
});

import { connectDatabase, db } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { ownerWithOrganization } from "@/test/fixtures";
import { sendOnce } from "./deliver";
import { CreateWebhookInput } from "@/lib/schemas/webhooks";
import { createWebhook, listWebhooks } from "./service";
import { unsafeUrlReason, type ResolveHost } from "./url-safety";

beforeAll(async () => {
  await connectDatabase();
  expect(env.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
  expect(env.WEBHOOK_TIMEOUT_MS).toBe(1000);
});

afterEach(() => {
  vi.useRealTimers();
});

const REFUSED = "Use a public address: private, loopback and link-local addresses are not allowed";

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

  // Addresses that reach a private one through an IPv6 wrapper, and IPv4 ranges
  // that are not public unicast.
  it.each([
    "http://[::ffff:0:7f00:1]/hooks", // IPv4-translated (RFC 6145) 127.0.0.1
    "http://[64:ff9b::7f00:1]/hooks", // NAT64 (RFC 6052) of 127.0.0.1
    "http://[64:ff9b::a9fe:a9fe]/latest/meta-data", // NAT64 of 169.254.169.254
    "http://[64:ff9b:1::5db8:d822]/hooks", // local-use NAT64 prefix (RFC 8215): refused whatever it embeds
    "http://[2002:7f00:1::]/hooks", // 6to4 of 127.0.0.1
    "http://[2002:a9fe:a9fe::1]/x", // 6to4 of 169.254.169.254
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x", // Teredo
    "http://[::127.0.0.1]/hooks", // IPv4-compatible (deprecated)
    "http://[::93.184.216.34]/hooks", // IPv4-compatible, even of a public address
    "http://[fec0::1]/hooks", // site-local (deprecated)
    "http://[100::1]/hooks", // discard
    "http://[2001:db8::1]/hooks", // documentation
    "http://[ff02::1]/hooks",
    "http://[::]/hooks",
    "http://198.18.0.1/hooks", // benchmarking
    "http://192.0.0.1/hooks", // IETF protocol assignments
    "http://192.0.2.1/hooks", // documentation
    "http://240.0.0.1/hooks",
    "http://255.255.255.255/hooks",
    "http://224.0.0.1/hooks",
  ])("%s is refused", async (url) => {
    expect(await unsafeUrlReason(url)).toBe(REFUSED);
  });

  // The URL parser turns these numeric hosts into 127.0.0.1 (fetch does the same).
  it.each([
    "http://2130706433/hooks",
    "http://0x7f.1/hooks",
    "http://017700000001/hooks",
    "http://0177.0.0.1/hooks",
    "http://127.1/hooks",
    "http://127.0.0.1./hooks",
    "http://%31%32%37.0.0.1/hooks",
    "http://0/hooks",
  ])("the numeric host of %s is read as the address it is, and refused", async (url) => {
    expect(await unsafeUrlReason(url)).toBe(REFUSED);
  });

  it.each(["http://localhost./hooks", "http://LOCALHOST/hooks", "http://a.b.localhost./hooks"])(
    "%s is refused without asking DNS",
    async (url) => {
      const resolve = vi.fn<ResolveHost>(async () => ["93.184.216.34"]);
      expect(await unsafeUrlReason(url, resolve)).toBe(REFUSED);
      expect(resolve).not.toHaveBeenCalled();
    },
  );

  it.each([
    "http://93.184.216.34/hooks",
    "https://93.184.216.34:8443/coverdesk",
    "http://[2606:2800:220:1:248:1893:25c8:1946]/x",
    "http://[::ffff:93.184.216.34]/x", // IPv4-mapped public address
    "http://[64:ff9b::5db8:d822]/x", // NAT64 of 93.184.216.34
    "http://[2002:5db8:d822::1]/x", // 6to4 of 93.184.216.34
  ])("a public address %s is accepted", async (url) => {
    expect(await unsafeUrlReason(url)).toBeNull();
  });

  it("every address a name resolves to is checked: one private among public ones refuses the host", async () => {
    const resolve: ResolveHost = async () => ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "10.0.0.7"];
    expect(await unsafeUrlReason("https://hooks.example.com/x", resolve)).toBe(REFUSED);
    expect(await unsafeUrlReason("https://hooks.example.com/x", async () => ["93.184.216.34"])).toBeNull();
    expect(await unsafeUrlReason("https://hooks.example.com/x", async () => [])).toBe(
      "The host hooks.example.com does not resolve: check the address",
    );
  });

  it('unresolvedHost: "allow" (the sample data\'s webhook) accepts a host that does not resolve, never a private one', async () => {
    const notFound: ResolveHost = async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    };
    const allow = { unresolvedHost: "allow" } as const;
    const url = "https://example.com/coverdesk/webhooks";
    expect(await unsafeUrlReason(url, notFound)).toBe("The host example.com does not resolve: check the address");
    expect(await unsafeUrlReason(url, notFound, { unresolvedHost: "refuse" })).toBe(
      "The host example.com does not resolve: check the address",
    );
    expect(await unsafeUrlReason(url, notFound, allow)).toBeNull();
    expect(await unsafeUrlReason(url, async () => [], allow)).toBeNull();
    // A private answer, or a private/loopback/reserved host given literally, is refused all the same.
    expect(await unsafeUrlReason(url, async () => ["10.0.0.1"], allow)).toBe(REFUSED);
    expect(await unsafeUrlReason(url, async () => ["93.184.216.34", "10.0.0.1"], allow)).toBe(REFUSED);
    for (const literal of [
      "http://127.0.0.1/x",
      "http://localhost/x",
      "http://[::1]/x",
      "http://169.254.169.254/x",
      "http://10.0.0.1/x",
    ]) {
      expect(await unsafeUrlReason(literal, notFound, allow)).toBe(REFUSED);
    }
    expect(await unsafeUrlReason("ftp://example.com/x", notFound, allow)).toBe(
      "Use an address starting with http:// or https://",
    );
  });

  it("createWebhook refuses a host that does not resolve unless asked to allow it (.invalid never resolves)", async () => {
    const { actor } = await ownerWithOrganization();
    const input = CreateWebhookInput.parse({ url: "https://hooks.coverdesk.invalid/x", events: ["claim.submitted"] });
    await expect(createWebhook(actor, input)).rejects.toMatchObject({
      code: "validation_failed",
      message: "url: The host hooks.coverdesk.invalid does not resolve: check the address",
    });
    expect(await createWebhook(actor, input, { unresolvedHost: "allow" })).toMatchObject({
      url: "https://hooks.coverdesk.invalid/x",
      status: "enabled",
    });
    const refused = CreateWebhookInput.parse({ url: "http://10.1.2.3/x", events: ["claim.submitted"] });
    await expect(createWebhook(actor, refused, { unresolvedHost: "allow" })).rejects.toMatchObject({
      code: "validation_failed",
      message: `url: ${REFUSED}`,
    });
    expect((await listWebhooks(actor, { limit: 20 })).data).toHaveLength(1);
  });

  it("a DNS answer that does not come within 5 s refuses the host", async () => {
    vi.useFakeTimers();
    const resolve = vi.fn<ResolveHost>(() => new Promise<string[]>(() => {}));
    const pending = unsafeUrlReason("https://slow.example.com/x", resolve);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await pending).toBe("The host slow.example.com does not resolve: check the address");
    expect(resolve).toHaveBeenCalledOnce();
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
    const outcome = await sendOnce(row, { id: "evt_test", type: "ping", createdAt: new Date(), data: {} }, { livemode: true });
    expect(outcome).toMatchObject({ ok: false, responseStatus: null, durationMs: null, error: `Not sent: ${REFUSED}` });
  });

  describe("DNS rebinding: a name that answers a public address, then 127.0.0.1", () => {
    /** A real TCP listener on 127.0.0.1 that counts the connections it gets. */
    async function loopbackListener() {
      let connections = 0;
      const server = net.createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return {
        port: (server.address() as net.AddressInfo).port,
        connections: () => connections,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    }

    async function storedHook(url: string) {
      const { org } = await ownerWithOrganization();
      const { seal } = await import("@/server/seal");
      const { SECRET_PURPOSE } = await import("./deliver");
      return db.webhook.create({
        data: {
          organizationId: org.id,
          url,
          events: ["claim.submitted"],
          secretSealed: seal(SECRET_PURPOSE, "a-secret-of-sixteen+"),
        },
      });
    }

    it("the delivery connects to the address that was checked: 127.0.0.1 gets nothing, DNS is asked once", async () => {
      const listener = await loopbackListener();
      try {
        const publicV6 = "2606:2800:220:1:248:1893:25c8:1946";
        let answers = 0;
        const resolve = vi.fn<ResolveHost>(async () => (++answers === 1 ? [publicV6] : ["127.0.0.1"]));
        const row = await storedHook(`http://rebind.example.com:${listener.port}/hooks`);
        const outcome = await sendOnce(
          row,
          { id: "evt_test", type: "ping", createdAt: new Date(), data: {} },
          { resolve, livemode: true },
        );

        expect(resolve).toHaveBeenCalledTimes(1);
        expect(listener.connections()).toBe(0);
        // It went to the public address: unreachable from here, or no answer within the timeout.
        expect(outcome).toMatchObject({ ok: false, responseStatus: null });
        expect(outcome.error).toMatch(/^(Timed out after 1000 ms|Connection failed: .*)$/);
        if (outcome.error!.startsWith("Connection failed")) expect(outcome.error).toContain(publicV6);
      } finally {
        await listener.close();
      }
    });

    it("a name that answers a public and a private address is not called at all", async () => {
      const listener = await loopbackListener();
      try {
        const resolve = vi.fn<ResolveHost>(async () => ["93.184.216.34", "127.0.0.1"]);
        const row = await storedHook(`http://mixed.example.com:${listener.port}/hooks`);
        const outcome = await sendOnce(
          row,
          { id: "evt_test", type: "ping", createdAt: new Date(), data: {} },
          { resolve, livemode: true },
        );
        expect(outcome).toMatchObject({ ok: false, responseStatus: null, durationMs: null, error: `Not sent: ${REFUSED}` });
        expect(listener.connections()).toBe(0);
      } finally {
        await listener.close();
      }
    });
  });
});
