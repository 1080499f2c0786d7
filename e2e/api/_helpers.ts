// Small helpers shared by the REST specs (black-box: HTTP only).
import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { restClient, signUp, createKey, tenant, trpc, type Account } from "../support/api";

export const KEY_PATTERN = /^cd_live_[0-9A-Za-z]{32}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export type Tenant = Awaited<ReturnType<typeof tenant>>;

/** A tenant plus REST clients for its write and read keys. */
export async function tenantWithClients(organizationName?: string) {
  const t = await tenant(organizationName);
  return { ...t, write: await restClient(t.writeKey), read: await restClient(t.readKey) };
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
  const fields = ["id", "name", "permissions", "prefix", "status", "createdAt", "lastUsedAt", ...(withSecret ? ["key"] : [])];
  expect(Object.keys(k).sort()).toEqual(fields.sort());
  expect(typeof k.id).toBe("string");
  expect(k.createdAt).toMatch(ISO);
  expect(k.lastUsedAt === null || ISO.test(String(k.lastUsedAt))).toBe(true);
  expect(["active", "revoked"]).toContain(k.status);
  expect(k.prefix).toMatch(/^cd_live_[0-9A-Za-z]{4}$/);
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
