// Webhook targets must be public http(s) addresses: private, loopback,
// link-local, reserved… ones are refused (also after DNS resolution) unless
// allowed. The host is resolved once; the delivery connects to the addresses
// that were checked, never to a second DNS answer (DNS rebinding).
import dns from "node:dns/promises";
import type { LookupAddress, LookupOptions } from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent } from "undici";
import { env } from "@/server/env";

/** A host name's addresses (IPv4 or IPv6 strings); injectable for tests. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

const DNS_TIMEOUT_MS = 5_000;
const REFUSED = "Use a public address: private, loopback and link-local addresses are not allowed";

export const systemResolve: ResolveHost = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Public unicast only, by ipaddr.js's range classification. IPv4 carried in
 * IPv6 (mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by
 * the IPv4 address it reaches; IPv4-compatible (::/96), Teredo, local-use NAT64
 * (64:ff9b:1::/48) and every other special range are refused.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv4") return addr.range() === "unicast";
  const v6 = addr as ipaddr.IPv6;
  const [p0, p1, p2, p3, p4, p5, p6, p7] = v6.parts as [number, number, number, number, number, number, number, number];
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  switch (v6.range()) {
    case "ipv4Mapped":
      return v4(p6, p7).range() === "unicast";
    case "rfc6052": // 64:ff9b::/96 embeds the IPv4 in its last 32 bits; 64:ff9b:1::/48 is local use
      return p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0 && v4(p6, p7).range() === "unicast";
    case "6to4":
      return v4(p1, p2).range() === "unicast";
    case "unicast":
      // ::a.b.c.d (IPv4-compatible, deprecated) is "unicast" to ipaddr.js
      return !(p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0);
    default:
      return false;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type Target =
  | { ok: true; hostname: string; addresses: string[] }
  /** unresolved: the host gave no address (no answer, an error, a timeout), rather than a refused one. */
  | { ok: false; reason: string; unresolved?: true };

/**
 * Resolves the URL's host once and checks every address it answers (one
 * private address among public ones refuses the host). With
 * WEBHOOK_ALLOW_PRIVATE_URLS the addresses are resolved but not checked.
 */
export async function resolveTarget(url: string, resolve: ResolveHost = systemResolve): Promise<Target> {
  const parsed = new URL(url); // WHATWG parsing: `2130706433`, `0x7f.1`, `017700000001` become 127.0.0.1
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return { ok: false, reason: "Use an address starting with http:// or https://" };
  const hostname = parsed.hostname.replace(/^\[|\]$/g, "");
  const name = hostname.replace(/\.$/, "");
  // RFC 6761: localhost and *.localhost are loopback, whatever a resolver says.
  if (!env.WEBHOOK_ALLOW_PRIVATE_URLS && (name === "localhost" || name.endsWith(".localhost")))
    return { ok: false, reason: REFUSED };
  let addresses: string[];
  try {
    addresses = net.isIP(hostname) ? [hostname] : await withTimeout(resolve(hostname), DNS_TIMEOUT_MS);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0)
    return { ok: false, reason: `The host ${hostname} does not resolve: check the address`, unresolved: true };
  if (!env.WEBHOOK_ALLOW_PRIVATE_URLS && !addresses.every(isPublicAddress)) return { ok: false, reason: REFUSED };
  return { ok: true, hostname, addresses };
}

export interface UrlCheckOptions {
  /**
   * "allow": a host that does not resolve (no answer, a DNS error, a timeout) is
   * accepted; localhost, private/loopback/reserved literal addresses and private
   * DNS answers are still refused. Safe because every delivery resolves and
   * checks the host again (resolveTarget): to an unresolved host it just fails
   * and is retried. Internal only (the sample data's webhook on a machine
   * without DNS): the REST and dashboard registration refuse such a host.
   */
  unresolvedHost?: "refuse" | "allow";
}

/** Null when the URL may be called; else the reason it may not. Registration asks DNS only when private URLs are refused. */
export async function unsafeUrlReason(url: string, resolve?: ResolveHost, options: UrlCheckOptions = {}): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "Use an address starting with http:// or https://";
  if (env.WEBHOOK_ALLOW_PRIVATE_URLS) return null;
  const target = await resolveTarget(url, resolve);
  if (target.ok || (target.unresolved && options.unresolvedHost === "allow")) return null;
  return target.reason;
}

/**
 * An undici dispatcher that connects to the checked addresses only: its DNS
 * lookup answers them without asking DNS again. The URL keeps its host name,
 * so the Host header and TLS SNI/certificate check stay on the name.
 */
export function pinnedAgent({ hostname, addresses }: { hostname: string; addresses: string[] }): Agent {
  const answers: LookupAddress[] = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  const lookup = (
    host: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const usable = answers.filter((a) => !options.family || a.family === options.family);
    if (host !== hostname || usable.length === 0) {
      callback(Object.assign(new Error(`no checked address for ${host}`), { code: "ENOTFOUND" }), []);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
  return new Agent({ connect: { lookup } });
}
