// Hostile input is ordinary input (contract §2): no request, however
// malformed, answers 5xx — NUL and lone surrogates 422, cursors this API did
// not issue 400, malformed percent-encodings 400 invalid_path (pages: the
// not-found page), unknown methods 405 with Allow; tRPC never shows database text.
import net from "node:net";
import { expect, test } from "@playwright/test";
import { BASE_URL, problem, signUp, trpcRaw } from "../support/api";
import { tenantWithClients } from "./_helpers";

const { hostname, port } = new URL(BASE_URL);

/** A raw HTTP/1.1 request: any method, the request target exactly as written. */
function raw(method: string, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${extra}Connection: close\r\n\r\n`);
    });
    let data = "";
    socket.setTimeout(30_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.on("data", (d) => (data += d.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () => {
      const at = data.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = data.slice(0, at).split("\r\n");
      const hs = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers: hs, body: data.slice(at + 4) });
    });
  });
}

const cursorOf = (text: string) => Buffer.from(text).toString("base64url");
const policy = { name: "Fleet cover", type: "auto", duration: "yearly", price: "150.00" };

test("NUL and lone surrogates in a path, a query or a body answer 422 on the REST API", async () => {
  const { write } = await tenantWithClients();
  await problem(await write.get("business/policies/%00"), 422, "validation_failed");
  await problem(await write.get("business/policies?q=%00"), 422, "validation_failed");
  await problem(await write.get("claims?policyId=%00"), 422, "validation_failed");
  for (const name of ["a\u0000b", "a\ud800"]) {
    const p = await problem(await write.post("business/policies", { data: { ...policy, name } }), 422, "validation_failed");
    expect(p.errors).toEqual([{ path: "name", message: expect.any(String) }]);
  }
  const created = await (await write.post("business/policies", { data: policy })).json();
  await problem(
    await write.put(`business/policies/${created.id}`, { data: { description: "x\u0000" } }),
    422,
    "validation_failed",
  );
  await problem(
    await write.post("business/webhooks", { data: { url: "https://example.com/\u0000", events: ["claim.submitted"] } }),
    422,
    "validation_failed",
  );
});

test("cursors this API did not issue answer 400 invalid_query, never 500", async () => {
  const { write } = await tenantWithClients();
  for (const text of ["2026-01-01T00:00:00.000Z|a\u0000b", "-271821-04-20T00:00:00.000Z|abc", "0001-01-01T00:00:00.000Z|abc"]) {
    await problem(await write.get(`business/policies?cursor=${cursorOf(text)}`), 400, "invalid_query");
  }
});

test("tRPC refuses NUL with 422 and never shows database text", async () => {
  const account = await signUp();
  const res = await trpcRaw(account, "policies.create", { ...policy, name: "a\u0000b" });
  const text = await res.text();
  expect(res.status(), text).toBe(422);
  expect(text).not.toMatch(/prisma|invocation|22021|UTF8/i);
  expect(JSON.parse(text).error.json.data.code).toBe("validation_failed");
  expect((await trpcRaw(account, "policies.get", { id: "\u0000" }, "query")).status()).toBe(422);
  const cursor = cursorOf("-271821-04-20T00:00:00.000Z|abc");
  expect((await trpcRaw(account, "policies.list", { limit: 20, cursor }, "query")).status()).toBe(400);
});

const BAD_ENCODINGS = ["%ff", "%", "%zz", "%E0%A4%A", "%ED%A0%80", "%C0%AE%C0%AE"];

test("a malformed percent-encoding answers 400 invalid_path on API paths, with a request id", async () => {
  for (const bad of BAD_ENCODINGS) {
    for (const path of [`/api/v1/business/policies/${bad}`, `/api/checkout/${bad}`, `/api/v1/${bad}`]) {
      const res = await raw("GET", path, { "X-Request-Id": "req-hostile-1" });
      expect(res.status, path).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.headers["x-request-id"]).toBe("req-hostile-1");
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: "invalid_path", requestId: "req-hostile-1" });
    }
  }
});

test("a malformed percent-encoding on a page renders the branded not-found page", async () => {
  for (const bad of BAD_ENCODINGS) {
    for (const path of [`/pay/${bad}`, `/invite/${bad}`]) {
      const res = await raw("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("Page not found");
    }
  }
});

test("methods the server does not know answer 405 with Allow on every route", async () => {
  for (const method of ["TRACE", "PROPFIND", "PURGE"]) {
    for (const path of ["/api/v1/business/policies", "/api/trpc/policies.list", "/api/health", "/", "/policies", "/pay/abc"]) {
      const res = await raw(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toContain("GET");
      if (path.startsWith("/api/"))
        expect(JSON.parse(res.body)).toMatchObject({ code: "method_not_allowed", requestId: expect.stringMatching(/^req_/) });
    }
  }
  const connect = await raw("CONNECT", `${hostname}:${port}`);
  expect(connect.status).toBe(405);
});

test("the auth routes refuse NUL, lone surrogates and invalid UTF-8 as problem+json, never an empty 500", async ({ request }) => {
  const headers = { "Content-Type": "application/json", Origin: BASE_URL };
  for (const [path, data] of [
    ["/api/auth/reset-password", { token: "a\u0000b", newPassword: "correct-horse-battery" }],
    ["/api/auth/reset-password", { token: "a\ud800b", newPassword: "correct-horse-battery" }],
    ["/api/auth/sign-in/email", { email: "a\u0000@example.test", password: "correct-horse-battery" }],
    ["/api/auth/request-password-reset", { email: "a@example.test\u0000", redirectTo: "/reset-password" }],
  ] as const) {
    const res = await request.post(`${BASE_URL}${path}`, { headers, data: JSON.stringify(data) });
    expect(res.status(), path).toBe(422);
    expect(res.headers()["content-type"]).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 422, code: "validation_failed", requestId: res.headers()["x-request-id"] });
  }
  const notUtf8 = await request.post(`${BASE_URL}/api/auth/sign-in/email`, {
    headers,
    data: Buffer.concat([Buffer.from('{"email":"a'), Buffer.from([0xff]), Buffer.from('@example.test","password":"12345678"}')]),
  });
  expect(notUtf8.status()).toBe(400);
  expect(await notUtf8.json()).toMatchObject({ code: "malformed_json" });
  const link = await request.get(`${BASE_URL}/api/auth/reset-password/a%00b?callbackURL=%2Freset-password`, { maxRedirects: 0 });
  expect(link.status()).toBe(422);
  expect(await link.json()).toMatchObject({ code: "validation_failed" });
});
