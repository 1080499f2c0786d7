// Black-box helpers: everything goes through the app's public surfaces over
// HTTP — better-auth sign-up, the dashboard's tRPC endpoint, the REST API.
import "./stack-traces";
import crypto from "node:crypto";
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";

export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3210}`;
export const unique = () => crypto.randomBytes(5).toString("hex");

export interface Account {
  /** Carries the dashboard session cookie. */
  session: APIRequestContext;
  email: string;
  password: string;
  userId: string;
}

/** Signs a new user up (which creates their first organization, as OWNER). */
export async function signUp(opts: { organizationName?: string; email?: string; name?: string } = {}): Promise<Account> {
  const session = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });
  const email = opts.email ?? `user-${unique()}@example.test`;
  const password = "correct-horse-battery";
  const res = await session.post("/api/auth/sign-up/email", {
    data: { name: opts.name ?? "Test User", email, password, organizationName: opts.organizationName ?? `Org ${unique()}` },
  });
  if (!res.ok()) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  const body = await res.json();
  return { session, email, password, userId: body.user.id };
}

/** Calls a tRPC procedure as the signed-in user; returns the unwrapped result or throws with the error. */
export async function trpc<T = unknown>(
  account: Account,
  path: string,
  input?: unknown,
  kind: "query" | "mutation" = "mutation",
): Promise<T> {
  const res = await trpcRaw(account, path, input, kind);
  const body = await res.json();
  if (!res.ok())
    throw Object.assign(new Error(`tRPC ${path}: ${res.status()} ${JSON.stringify(body)}`), { status: res.status(), body });
  return body.result.data.json as T;
}

export function trpcRaw(
  account: Account,
  path: string,
  input?: unknown,
  kind: "query" | "mutation" = "mutation",
): Promise<APIResponse> {
  const payload = { json: input ?? null };
  return kind === "query"
    ? account.session.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(payload))}`)
    : account.session.post(`/api/trpc/${path}`, { data: payload });
}

export interface KeyInfo {
  id: string;
  key: string;
  organizationId: string;
}

/** Creates an API key in the user's active organization through the dashboard's tRPC API. */
export async function createKey(
  account: Account,
  permissions: ("read" | "write")[] = ["read", "write"],
  name = `key-${unique()}`,
  mode: "live" | "test" = "live",
): Promise<KeyInfo> {
  const created = await newKey(account, permissions, name, mode);
  const org = await trpc<{ id: string }>(account, "organizations.current", undefined, "query");
  return { id: created.id, key: created.key, organizationId: org.id };
}

/** Creates an API key as createKey does, without asking which organization it is in. */
const newKey = (account: Account, permissions: ("read" | "write")[], name: string, mode: "live" | "test") =>
  trpc<{ id: string; key: string }>(account, "apiKeys.create", { name, permissions, mode });

/** A signed-up owner with a read+write key and a read-only key in their organization (of the mode asked for). */
export async function tenant(organizationName?: string, mode: "live" | "test" = "live") {
  const account = await signUp({ organizationName });
  return keysOf(account, mode);
}

/** An account's read+write and read-only keys of one mode (the same account's other side, for test mode). */
export async function keysOf(account: Account, mode: "live" | "test" = "live") {
  const write = await createKey(account, ["read", "write"], `key-${unique()}`, mode);
  // The same organization as the write key's (asked once: the suite makes some 400 tenants).
  const read = await newKey(account, ["read"], `key-${unique()}`, mode);
  return {
    mode,
    account,
    organizationId: write.organizationId,
    writeKey: write.key,
    writeKeyId: write.id,
    readKey: read.key,
    readKeyId: read.id,
  };
}

/** A REST client bound to one API key. */
export async function restClient(
  key?: string,
  extraHeaders: Record<string, string> = {},
  base = BASE_URL,
): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: `${base}/api/v1/`,
    extraHTTPHeaders: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...extraHeaders },
  });
}

/** Asserts a problem+json answer and returns its body. */
export async function problem(res: APIResponse, status: number, code: string) {
  const text = await res.text();
  if (res.status() !== status) throw new Error(`expected ${status} ${code}, got ${res.status()}: ${text}`);
  const type = res.headers()["content-type"] ?? "";
  if (!type.startsWith("application/problem+json")) throw new Error(`expected problem+json, got ${type}`);
  const body = JSON.parse(text);
  if (body.code !== code) throw new Error(`expected code ${code}, got ${body.code}: ${text}`);
  return body as {
    code: string;
    status: number;
    detail: string;
    requestId: string;
    errors?: { path: string; message: string }[];
  };
}

/**
 * The platform admin the e2e server starts with: playwright.config.ts runs
 * `npm run admin:grant -- --email … --password …` before `npm start`.
 */
export const PLATFORM_ADMIN = { email: "platform-admin@e2e.test", password: "correct-horse-battery" } as const;

/** Signs the platform admin in: a session for the admin.* tRPC procedures. */
export async function signInPlatformAdmin(): Promise<Account> {
  const session = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });
  const { email, password } = PLATFORM_ADMIN;
  const res = await session.post("/api/auth/sign-in/email", { data: { email, password } });
  if (!res.ok()) {
    throw new Error(
      `platform admin sign-in failed (${res.status()} ${await res.text()}): the server must start after ` +
        `\`npm run admin:grant -- --email ${email} --password ${password}\` (playwright.config.ts webServer)`,
    );
  }
  return { session, email, password, userId: (await res.json()).user.id };
}
