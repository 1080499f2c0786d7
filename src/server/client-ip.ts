// The client's IP address, for every per-IP limit (the portal's codes and
// sign-ins; better-auth's sign-in, sign-up and password-reset throttling) and
// the session record: `clientIpOf` is the one place it is read.
//
// Next gives a route handler no socket, and under `next start` it fills
// X-Forwarded-For from the socket only when the request has none
// (`??=` in next/dist/server/base-server.js): a client that sends its own
// header is believed. So the direct peer is captured from Node's HTTP server
// through its public diagnostics channel into a request header, before Next
// sees the request; the header's name is random per process, so no client can
// send it (a request that arrived before the capture started has no known
// peer). Forwarded headers count only when that peer is a trusted proxy
// (TRUSTED_PROXIES, default none): X-Forwarded-For is then read from the
// right, skipping trusted hops. No other header a client sends is ever read as
// the address.
import crypto from "node:crypto";
import dc from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "@/server/env";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

const g = globalThis as unknown as {
  __coverdeskPeerHeader?: string;
  __coverdeskClientIpHeader?: string;
  __coverdeskTrustedProxies?: Range[];
};

/**
 * The header that hands the resolved address to better-auth
 * (`advanced.ipAddress.ipAddressHeaders`), set by `withClientIp`. Its name is
 * random per process (kept on globalThis: every bundle of the server sees the
 * same), so a client cannot send it: a header it sends under the old fixed
 * name (LEGACY_CLIENT_IP_HEADER) is meaningless and removed.
 */
export const CLIENT_IP_HEADER =
  (g.__coverdeskClientIpHeader ??= `x-coverdesk-client-ip-${crypto.randomBytes(12).toString("hex")}`);
const LEGACY_CLIENT_IP_HEADER = "x-coverdesk-client-ip";

/** Called once at server start (instrumentation): every request then carries its socket's address. */
export function capturePeerAddresses(): void {
  if (g.__coverdeskPeerHeader) return;
  const header = `x-coverdesk-peer-${crypto.randomBytes(12).toString("hex")}`;
  dc.subscribe("http.server.request.start", (message) => {
    const { request } = message as { request: IncomingMessage };
    request.headers[header] = request.socket?.remoteAddress ?? "";
  });
  g.__coverdeskPeerHeader = header;
}

/** A strictly written IPv4 or IPv6 address (IPv4-mapped IPv6 turned into IPv4), else null. */
function parse(value: string | null | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const v = value?.trim() ?? "";
  return net.isIP(v) ? ipaddr.process(v) : null;
}

export function parseRanges(list: string[]): Range[] {
  return list.map((entry) => {
    if (entry.includes("/")) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  });
}

const trustedProxies = () => (g.__coverdeskTrustedProxies ??= parseRanges(env.TRUSTED_PROXIES));

function within(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]): boolean {
  return ranges.some(([range, bits]) => {
    if (address.kind() === range.kind()) return address.match(range, bits);
    // An IPv4 range also covers the IPv4-mapped IPv6 form, and the reverse.
    if (address.kind() === "ipv4" && range.kind() === "ipv6")
      return (address as ipaddr.IPv4).toIPv4MappedAddress().match(range, bits);
    return false;
  });
}

/**
 * The client address from the direct peer and the forwarded headers, or null
 * when the peer is unknown. Without a trusted peer, forwarded headers are ignored.
 */
export function resolveClientIp(
  request: { peer: string | null; forwardedFor: string | null; realIp: string | null },
  trusted: Range[] = trustedProxies(),
): string | null {
  const peer = parse(request.peer);
  if (!peer) return null;
  if (!within(peer, trusted)) return peer.toString();
  const hops = (request.forwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parse(hops[i]);
    if (!hop) break; // garbage from further left is not believed
    client = hop;
    if (!within(hop, trusted)) return client.toString();
  }
  // Only trusted hops (Next fills a missing X-Forwarded-For with the peer): X-Real-IP, set by the proxy, if any.
  return (parse(request.realIp) ?? client).toString();
}

/**
 * The client address of a request: the TCP peer, or — only when that peer is
 * in TRUSTED_PROXIES — the address its X-Forwarded-For / X-Real-IP name. Null
 * when the peer is unknown (the request arrived before capturePeerAddresses).
 */
export function clientIpOf(request: { headers: Headers }, trusted?: Range[]): string | null {
  const peerHeader = g.__coverdeskPeerHeader;
  if (!peerHeader) return null;
  const { headers } = request;
  return resolveClientIp(
    { peer: headers.get(peerHeader), forwardedFor: headers.get("x-forwarded-for"), realIp: headers.get("x-real-ip") },
    trusted,
  );
}

/** The request with CLIENT_IP_HEADER set to `clientIpOf` (or absent when unknown), for better-auth. */
export function withClientIp(request: Request): Request {
  const headers = new Headers(request.headers);
  const ip = clientIpOf(request);
  headers.delete(LEGACY_CLIENT_IP_HEADER);
  headers.delete(CLIENT_IP_HEADER);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  return new Request(request, { headers });
}
