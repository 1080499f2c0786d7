// Which address the sign-in limits and sessions see: the socket's peer, and
// forwarded headers only when that peer is a trusted proxy.
import { describe, expect, it } from "vitest";
import { parseRanges, resolveClientIp } from "./client-ip";

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
