// Which address every per-IP limit and the sessions see: the socket's peer,
// and forwarded headers only when that peer is a trusted proxy; never a header
// the client made up.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturePeerAddresses, CLIENT_IP_HEADER, clientIpOf, parseRanges, resolveClientIp, withClientIp } from "./client-ip";

const none = parseRanges([]);
const lb = parseRanges(["10.0.0.0/8", "fd00::/8", "192.0.2.7"]);
const req = (peer: string | null, forwardedFor: string | null = null, realIp: string | null = null) => ({
  peer,
  forwardedFor,
  realIp,
});

describe("resolveClientIp", () => {
  it("without trusted proxies, every forwarded header is ignored", () => {
    expect(resolveClientIp(req("198.51.100.4", "203.0.113.9", "203.0.113.10"), none)).toBe("198.51.100.4");
    expect(resolveClientIp(req("10.1.2.3", "203.0.113.9"), none)).toBe("10.1.2.3");
  });

  it("an unknown or malformed peer gives no address", () => {
    expect(resolveClientIp(req(null, "203.0.113.9"), lb)).toBeNull();
    expect(resolveClientIp(req(""), lb)).toBeNull();
    expect(resolveClientIp(req("203.0.113.9, 1.2.3.4"), none)).toBeNull();
  });

  it("a peer outside TRUSTED_PROXIES cannot forward for anyone", () => {
    expect(resolveClientIp(req("198.51.100.4", "10.0.0.1, 203.0.113.9", "203.0.113.10"), lb)).toBe("198.51.100.4");
  });

  it("behind trusted proxies, X-Forwarded-For is read from the right up to the first untrusted hop", () => {
    // The client prepended a lie; the load balancer appended the real address.
    expect(resolveClientIp(req("10.0.0.5", "6.6.6.6, 203.0.113.9"), lb)).toBe("203.0.113.9");
    expect(resolveClientIp(req("10.0.0.5", "6.6.6.6, 203.0.113.9, 10.0.0.6, 192.0.2.7"), lb)).toBe("203.0.113.9");
    expect(resolveClientIp(req("fd00::5", "2001:db8::1"), lb)).toBe("2001:db8::1");
    // IPv4-mapped IPv6 forms are the IPv4 address, for peers and hops.
    expect(resolveClientIp(req("::ffff:10.0.0.5", "::ffff:203.0.113.9"), lb)).toBe("203.0.113.9");
    // Garbage further left is not believed; the last good hop is.
    expect(resolveClientIp(req("10.0.0.5", "evil, 10.0.0.7"), lb)).toBe("10.0.0.7");
    // Only trusted hops: the leftmost of them.
    expect(resolveClientIp(req("10.0.0.5", "10.0.0.9, 10.0.0.7"), lb)).toBe("10.0.0.9");
  });

  it("behind a trusted proxy without a forwarded client, X-Real-IP is used", () => {
    expect(resolveClientIp(req("10.0.0.5", null, "203.0.113.9"), lb)).toBe("203.0.113.9");
    // As Next passes it on: X-Forwarded-For filled in with the peer itself.
    expect(resolveClientIp(req("10.0.0.5", "10.0.0.5", "203.0.113.9"), lb)).toBe("203.0.113.9");
    // An untrusted hop in X-Forwarded-For wins over X-Real-IP.
    expect(resolveClientIp(req("10.0.0.5", "203.0.113.9", "198.51.100.1"), lb)).toBe("203.0.113.9");
    expect(resolveClientIp(req("10.0.0.5", null, "not-an-ip"), lb)).toBe("10.0.0.5");
  });
});

describe("clientIpOf, over real sockets", () => {
  // A Node HTTP server handing each request to the code under test as Next does: a Request built from its headers.
  let server: http.Server;
  let port = 0;
  let seen: (request: Request) => unknown = () => null;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers });
      res.setHeader("Content-Type", "application/json").end(JSON.stringify(seen(request) ?? null));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** What the handler saw, for a request sent from the loopback address `source` with `headers`. */
  const from = (source: string, headers: Record<string, string> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path: "/", localAddress: source, agent: false, headers }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString("utf8")));
        res.on("end", () => resolve(JSON.parse(body)));
      });
      req.on("error", reject);
    });

  const lies = {
    "X-Coverdesk-Client-Ip": "203.0.113.77",
    "X-Forwarded-For": "198.51.100.1",
    "X-Real-IP": "192.0.2.1",
    Forwarded: "for=192.0.2.2",
    "True-Client-IP": "192.0.2.3",
    "CF-Connecting-IP": "192.0.2.4",
  };

  it("before the peer capture starts, no address is known (whatever the headers say)", async () => {
    seen = (request) => clientIpOf(request);
    expect(await from("127.0.0.1", lies)).toBeNull();
  });

  it("is the TCP peer, whatever headers the client sends", async () => {
    capturePeerAddresses();
    seen = (request) => clientIpOf(request);
    expect(await from("127.0.0.1")).toBe("127.0.0.1");
    expect(await from("127.20.30.40", lies)).toBe("127.20.30.40");
    expect(await from("127.20.30.41", { "X-Coverdesk-Client-Ip": "127.20.30.40" })).toBe("127.20.30.41");
  });

  it("reads X-Forwarded-For only from a peer in TRUSTED_PROXIES, from the right", async () => {
    const proxies = parseRanges(["127.0.0.0/8"]);
    seen = (request) => clientIpOf(request, proxies);
    expect(await from("127.0.0.5", { "X-Forwarded-For": "6.6.6.6, 203.0.113.9", "X-Coverdesk-Client-Ip": "1.2.3.4" })).toBe(
      "203.0.113.9",
    );
    seen = (request) => clientIpOf(request, parseRanges(["10.0.0.0/8"]));
    expect(await from("127.0.0.5", { "X-Forwarded-For": "203.0.113.9" })).toBe("127.0.0.5");
  });

  it("hands better-auth only the resolved address, under a header name no client knows", async () => {
    expect(CLIENT_IP_HEADER).toMatch(/^x-coverdesk-client-ip-[0-9a-f]{24}$/);
    seen = (request) => {
      const passed = withClientIp(request);
      return { ip: passed.headers.get(CLIENT_IP_HEADER), legacy: passed.headers.get("x-coverdesk-client-ip") };
    };
    expect(await from("127.9.9.9", lies)).toEqual({ ip: "127.9.9.9", legacy: null });
    // A client that learnt the name still cannot set it: the resolved address replaces it.
    expect(await from("127.9.9.8", { [CLIENT_IP_HEADER]: "203.0.113.1" })).toEqual({ ip: "127.9.9.8", legacy: null });
  });
});
