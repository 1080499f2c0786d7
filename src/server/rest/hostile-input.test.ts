// Hostile input is ordinary input: the REST adapter answers every malformed
// request with a 4xx problem, never a 5xx (contract §2).
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/api-keys/service";
import { ownerWithOrganization } from "@/test/fixtures";
import { handleRestRequest } from "@/server/operations/pipeline";

const BASE = "http://localhost/api/v1";

async function keyOf() {
  const owner = await ownerWithOrganization();
  return (await createApiKey(owner.actor, { name: "Hostile", permissions: ["read", "write"] })).key;
}

async function call(key: string, method: string, path: string, body?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await handleRestRequest(new Request(`${BASE}${path}`, { method, headers, body }));
  const problem = (await res.json()) as { code: string; requestId: string; errors?: { path: string }[] };
  return { ...problem, status: res.status, contentType: res.headers.get("content-type") };
}

const cursorOf = (text: string) => Buffer.from(text).toString("base64url");
const policy = '{"name":"Fleet","type":"auto","duration":"yearly","price":"10.00"}';

describe("hostile input", () => {
  let key: string;
  beforeAll(async () => {
    key = await keyOf();
  });

  it("refuses NUL in a path, a query and a body field with 422", async () => {
    expect(await call(key, "GET", "/business/policies/%00")).toMatchObject({ status: 422, code: "validation_failed", errors: [{ path: "id" }] });
    expect(await call(key, "GET", "/business/policies?q=%00")).toMatchObject({ status: 422, errors: [{ path: "q" }] });
    expect(await call(key, "POST", "/business/policies", '{"name":"a\\u0000b","type":"auto","duration":"yearly","price":"10.00"}')).toMatchObject({
      status: 422,
      errors: [{ path: "name" }],
    });
    const created = (await call(key, "POST", "/business/policies", policy)) as unknown as { id: string };
    expect(await call(key, "PUT", `/business/policies/${created.id}`, '{"description":"x\\u0000"}')).toMatchObject({
      status: 422,
      errors: [{ path: "description" }],
    });
  });

  it("refuses a lone surrogate and unsafe object keys with 422", async () => {
    expect(await call(key, "POST", "/business/policies", '{"name":"a\\ud800","type":"auto","duration":"yearly","price":"10.00"}')).toMatchObject({
      status: 422,
      errors: [{ path: "name" }],
    });
    expect(await call(key, "POST", "/business/policies", '{"n\\u0000":1}')).toMatchObject({ status: 422, code: "validation_failed" });
  });

  it("refuses cursors it did not issue with 400 invalid_query: NUL in the id, dates out of range", async () => {
    for (const cursor of [
      cursorOf("2026-01-01T00:00:00.000Z|a\u0000b"),
      cursorOf("-271821-04-20T00:00:00.000Z|abc"),
      cursorOf("+275760-09-13T00:00:00.000Z|abc"),
      cursorOf("0001-01-01T00:00:00.000Z|abc"),
      cursorOf("2026-01-01T00:00:00.000Z|abc|def"),
    ]) {
      expect(await call(key, "GET", `/business/policies?cursor=${cursor}`), cursor).toMatchObject({ status: 400, code: "invalid_query" });
    }
    // Its own cursors still work.
    await call(key, "POST", "/business/policies", policy);
    await call(key, "POST", "/business/policies", policy);
    const first = (await call(key, "GET", "/business/policies?limit=1")) as unknown as { nextCursor: string };
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(await call(key, "GET", `/business/policies?limit=1&cursor=${first.nextCursor}`)).toMatchObject({ status: 200, data: [expect.anything()] });
  });

  it("answers a bad percent-encoding in the path with 400 invalid_path", async () => {
    for (const bad of ["%ff", "%", "%zz", "%E0%A4%A", "%ED%A0%80", "%C0%AE%C0%AE"]) {
      const res = await call(key, "GET", `/business/policies/${bad}`);
      expect(res, bad).toMatchObject({ status: 400, code: "invalid_path", contentType: expect.stringMatching(/^application\/problem\+json/) });
      expect(res.requestId).toMatch(/^req_/);
    }
  });
});
