// Webhook targets must be public http(s) addresses: private, loopback and
// link-local ones are refused (also after DNS resolution) unless allowed.
import dns from "node:dns/promises";
import net from "node:net";
import { env } from "@/server/env";

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["224.0.0.0", 3],
] as const) {
  blocked.addSubnet(net4, prefix, "ipv4");
}
for (const [net6, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net6, prefix, "ipv6");
}

/** `::ffff:7f00:1` and `::ffff:127.0.0.1` are IPv4 addresses in IPv6 clothing. */
function embeddedIpv4(v6: string): string | null {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/i.exec(v6);
  if (!m) return null;
  const tail = m[1]!;
  if (net.isIPv4(tail)) return tail;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return blocked.check(ip, "ipv4");
  const v4 = embeddedIpv4(ip);
  if (v4) return blocked.check(v4, "ipv4");
  return blocked.check(ip, "ipv6");
}

/** Null when the URL may be called; else the reason it may not. */
export async function unsafeUrlReason(url: string): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "only http(s) URLs are allowed";
  if (env.WEBHOOK_ALLOW_PRIVATE_URLS) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "private, loopback and link-local addresses are not allowed";
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `the host ${host} does not resolve`;
  }
  return addresses.some(isPrivateAddress) ? "private, loopback and link-local addresses are not allowed" : null;
}
