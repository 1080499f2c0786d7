// Small helpers shared by the REST specs (black-box: HTTP only, plus the
// app's local mail outbox for invitation links).
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { BASE_URL, restClient, signUp, createKey, keysOf, tenant, trpc, trpcRaw, unique, type Account } from "../support/api";

export const KEY_PATTERN = /^cd_(live|test)_[0-9A-Za-z]{32}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export type Tenant = Awaited<ReturnType<typeof tenant>>;

/** A tenant plus REST clients for its write and read keys (live keys unless `mode` says test). */
export async function tenantWithClients(organizationName?: string, mode: "live" | "test" = "live") {
  const t = await tenant(organizationName, mode);
  return { ...t, write: await restClient(t.writeKey), read: await restClient(t.readKey) };
}

/** The same account seen through keys of the other mode: its test side (or live side). */
export async function otherSide(t: Tenant, mode: "live" | "test") {
  const side = await keysOf(t.account, mode);
  return { ...side, write: await restClient(side.writeKey), read: await restClient(side.readKey) };
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Sends a request with an optional JSON body. */
export function send(
  client: APIRequestContext,
  method: HttpMethod,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return client.fetch(path, { method, ...(body !== undefined ? { data: body } : {}), headers });
}

// Specs read loosely-typed JSON and assert on it, so `any` is the honest type here.
/* eslint-disable @typescript-eslint/no-explicit-any */

/** Parses a JSON success answer, failing with the body when the status is not the expected one. */
export async function ok<T = any>(res: APIResponse, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status(), text).toBe(status);
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

/** Asserts an API key object's exact shape; `withSecret` when the response must carry `key`. */
export function expectApiKeyShape(k: Record<string, unknown>, withSecret: boolean) {
  const fields = ["id", "name", "mode", "permissions", "prefix", "status", "createdAt", "lastUsedAt", ...(withSecret ? ["key"] : [])];
  expect(Object.keys(k).sort()).toEqual(fields.sort());
  expect(typeof k.id).toBe("string");
  expect(k.createdAt).toMatch(ISO);
  expect(k.lastUsedAt === null || ISO.test(String(k.lastUsedAt))).toBe(true);
  expect(["active", "revoked"]).toContain(k.status);
  expect(["live", "test"]).toContain(k.mode);
  expect(k.prefix).toMatch(new RegExp(`^cd_${String(k.mode)}_[0-9A-Za-z]{4}$`));
  if (withSecret) {
    expect(k.key).toMatch(KEY_PATTERN);
    expect(k.prefix).toBe(String(k.key).slice(0, 12));
  }
}

export function expectOrganizationShape(o: Record<string, unknown>) {
  expect(Object.keys(o).sort()).toEqual(["address", "createdAt", "currency", "email", "id", "name", "phone", "role"]);
  expect(o.createdAt).toMatch(ISO);
  expect(o.currency).toMatch(/^[A-Z]{3}$/);
}

/** Every page of a list endpoint, following nextCursor. */
export async function listAll<T = any>(client: APIRequestContext, path: string, limit = 100): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const qs: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: { data: T[]; nextCursor: string | null } = await ok<{ data: T[]; nextCursor: string | null }>(
      await client.get(`${path}?${qs}`),
    );
    out.push(...page.data);
    cursor = page.nextCursor;
    if (!cursor) return out;
  }
  throw new Error("pagination did not end");
}

/** The organization's keys without `lastUsedAt` (which moves on every use), for before/after comparisons. */
export async function keysSnapshot(client: APIRequestContext) {
  const keys = await listAll<Record<string, unknown>>(client, "business/api-keys");
  return keys.map(({ lastUsedAt: _ignored, ...rest }) => rest);
}

/** The error field paths of a 422 body. */
export const errorPaths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

/** True when a key authenticates (GET settings answers 200). */
export async function keyWorks(key: string): Promise<boolean> {
  const client = await restClient(key);
  const res = await client.get("business/settings");
  await client.dispose();
  return res.status() === 200;
}

/** The signed-in user's active organization, as the dashboard sees it. */
export const currentOrganization = (account: Account) =>
  trpc<{ id: string; name: string }>(account, "organizations.current", undefined, "query");

/** Nothing in an error body may look like a stack trace, a source path or SQL. */
export function expectNoInternals(text: string) {
  expect(text).not.toMatch(/\bat .+\(.*:\d+:\d+\)|\.tsx?:\d+|node_modules|"stack"|prisma|SELECT |INSERT /i);
}

export { restClient, signUp, createKey, tenant, trpc };

/** What a request could change in a tenant: keys, settings, organizations, the dashboard's active one. */
export async function tenantState(t: Tenant & { write: APIRequestContext }) {
  return {
    keys: await keysSnapshot(t.write),
    settings: await ok(await t.write.get("business/settings")),
    organizations: await listAll(t.write, "organizations"),
    active: (await currentOrganization(t.account)).id,
  };
}

// ---------- Team: the local outbox (no SMTP_URL: DATA_DIR/mail/*.eml) ----------

/** Undoes quoted-printable: soft line breaks (`=` at line end) and `=XX` escapes. */
export const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The server's outbox: its DATA_DIR is E2E_DATA_DIR (set by playwright.config.ts). */
export const mailDirectory = () => path.join(process.env.E2E_DATA_DIR ?? "", "mail");

/** Messages addressed to `to`, oldest first (files are named by time), decoded. */
export async function mailTo(to: string): Promise<{ file: string; subject: string; body: string }[]> {
  const dir = mailDirectory();
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
  const out: { file: string; subject: string; body: string }[] = [];
  for (const file of files) {
    const raw = await fs.readFile(path.join(dir, file), "utf8").catch(() => "");
    if (/^To: *(.+)$/im.exec(raw)?.[1]?.trim().toLowerCase() !== to.toLowerCase()) continue;
    out.push({ file, subject: /^Subject: *(.+)$/im.exec(raw)?.[1] ?? "", body: decodeQuotedPrintable(raw) });
  }
  return out;
}

const INVITE_LINK = /https?:\/\/[^\s"<>]+\/invite\/[A-Za-z0-9_-]+/g;

/** The invitation links mailed to `to`, one per message, oldest first; waits until there are `count`. */
export async function invitationLinks(to: string, count = 1): Promise<string[]> {
  let links: string[] = [];
  for (let i = 0; i < 50; i++) {
    links = (await mailTo(to)).map((m) => {
      const found = [...new Set(m.body.match(INVITE_LINK) ?? [])];
      if (found.length !== 1) throw new Error(`expected one invitation link in a mail to ${to}, found ${found.length}`);
      return found[0]!;
    });
    if (links.length >= count) return links;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`expected ${count} invitation email(s) to ${to} in ${mailDirectory()}, found ${links.length}`);
}

/** The newest invitation link mailed to `to`. */
export const latestInvitationLink = async (to: string, count = 1) => (await invitationLinks(to, count)).at(-1)!;
export const tokenOf = (link: string) => link.split("/invite/")[1]!;

/** Signs up the way the invitation page does: no organization of one's own. */
export async function signUpWithoutOrganization(email: string, name = "Invited Person"): Promise<Account> {
  const session = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });
  const password = "correct-horse-battery";
  const res = await session.post("/api/auth/sign-up/email", { data: { name, email, password } });
  if (!res.ok()) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  return { session, email, password, userId: (await res.json()).user.id };
}

/** A refused tRPC call: its HTTP status, the service's error code and message. */
export async function trpcError(account: Account, procedure: string, input?: unknown, kind: "query" | "mutation" = "mutation") {
  const res = await trpcRaw(account, procedure, input, kind);
  const body = await res.json();
  if (res.ok()) throw new Error(`expected tRPC ${procedure} to be refused, got ${res.status()} ${JSON.stringify(body)}`);
  const error = body.error.json as { message: string; data: { code: string; httpStatus: number } };
  return { status: res.status(), code: error.data.code, message: error.message };
}

/**
 * Invites an address into the tenant's organization (REST, with the write key)
 * and has that person accept the mailed link (tRPC, their own session): a new
 * user signed up without an organization, or the given existing account.
 */
export async function joinTeam(
  t: { write: APIRequestContext; organizationId: string },
  role: "ADMIN" | "MEMBER",
  existing?: Account,
) {
  const email = existing?.email ?? `invitee-${unique()}@example.test`;
  const before = (await mailTo(email)).length;
  const invitation = await ok(await t.write.post(`organizations/${t.organizationId}/invite`, { data: { email, role } }), 201);
  const link = await latestInvitationLink(email, before + 1);
  const account = existing ?? (await signUpWithoutOrganization(email));
  await trpc(account, "team.accept", { token: tokenOf(link) });
  const members = await listAll<{ id: string; email: string }>(t.write, `organizations/${t.organizationId}/members`);
  const member = members.find((m) => m.email === email);
  if (!member) throw new Error(`${email} did not join`);
  return { account, email, invitationId: invitation.id as string, memberId: member.id };
}

/** Members and invitations of an organization, for before/after comparisons. */
export async function teamSnapshot(client: APIRequestContext, organizationId: string) {
  return {
    members: await listAll(client, `organizations/${organizationId}/members`),
    invitations: await listAll(client, `organizations/${organizationId}/invitations`),
  };
}

// ---------- Money in: policies for sale, the hosted checkout, payments ----------

/** The sandbox's test cards. */
export const CARDS = { success: "4242424242424242", declined: "4000000000000002", other: "5555555555554444" } as const;

/** A card body for the checkout: expiry next year. */
export const cardBody = (cardNumber: string, overrides: Record<string, unknown> = {}) => ({
  cardNumber,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 1,
  cvc: "123",
  ...overrides,
});

/** Creates a policy on sale over REST; answers the policy. */
export async function createPolicyFor(
  client: APIRequestContext,
  overrides: { name?: string; type?: string; duration?: "monthly" | "quarterly" | "yearly"; price?: string } = {},
) {
  return ok(
    await client.post("business/policies", {
      data: { name: `Cover ${unique()}`, type: "property", duration: "yearly", price: "150.00", ...overrides },
    }),
    201,
  );
}

/** The hosted checkout's endpoint: no API key, rooted at the origin (not /api/v1). */
export const checkoutClient = () => playwrightRequest.newContext({ baseURL: `${BASE_URL}/` });

/** Pays (or tries to) a reference on the hosted checkout's endpoint. */
export async function payReference(reference: string, cardNumber: string = CARDS.success, extra: Record<string, unknown> = {}) {
  const client = await checkoutClient();
  const res = await client.post(`api/checkout/${reference}`, { data: cardBody(cardNumber, extra) });
  const out = { status: res.status(), body: await res.json().catch(() => null) };
  await client.dispose();
  return out;
}

/** Initializes a payment for the policy's price; answers the payment. */
export async function initializeFor(client: APIRequestContext, policy: { id: string; price: string }, email: string) {
  return ok(
    await client.post("payments/initialize", { data: { amount: Number(policy.price), policyId: policy.id, email } }),
    201,
  );
}

/** A payment for the policy, paid with the success card: the verified payment (with its coverage). */
export async function buyPolicy(
  client: APIRequestContext,
  policy: { id: string; price: string },
  email: string,
  /** More of the checkout's form, e.g. `{ autoRenew: true }`. */
  checkout: Record<string, unknown> = {},
) {
  const payment = await initializeFor(client, policy, email);
  const paid = await payReference(payment.reference, CARDS.success, checkout);
  if (paid.status !== 200) throw new Error(`checkout failed: ${paid.status} ${JSON.stringify(paid.body)}`);
  return ok(await client.get(`payments/verify/${payment.reference}`));
}

// ---------- Webhooks: a receiver in the spec's own process ----------

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
export type ReceiverReply = { status: number; headers?: Record<string, string>; body?: string } | "hang";

/**
 * An HTTP server on a random 127.0.0.1 port that records every request;
 * `reply(n)` answers the n-th one (1-based). The app must allow private URLs
 * (WEBHOOK_ALLOW_PRIVATE_URLS=true, as playwright.config.ts sets).
 */
export async function startReceiver(reply: (n: number) => ReceiverReply = () => ({ status: 200, body: "ok" })) {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers, body: Buffer.concat(chunks).toString("utf8") });
      const r = reply(requests.length);
      if (r !== "hang") res.writeHead(r.status, r.headers).end(r.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/coverdesk`;
  return {
    url,
    requests,
    /** Waits until at least `count` requests arrived (the app's worker polls every second). */
    async waitFor(count: number, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`receiver ${url}: expected ${count} request(s), got ${requests.length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
