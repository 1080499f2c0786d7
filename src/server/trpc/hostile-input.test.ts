// The dashboard's tRPC endpoint over its fetch adapter (as the route mounts
// it): hostile input is refused with 4xx, and a failure that is not a
// service's refusal never shows its text (Prisma, SQL) to the browser.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { ownerWithOrganization, signedInUser } from "@/test/fixtures";
import type { Context } from "./init";
import { appRouter } from "./root";

let user: NonNullable<Context["user"]>;
let organizationId: string;

beforeAll(async () => {
  const { user: created, org } = await ownerWithOrganization();
  user = (await signedInUser(created.id)) as NonNullable<Context["user"]>;
  organizationId = org.id;
});

async function call(path: string, input: unknown, kind: "query" | "mutation") {
  const payload = encodeURIComponent(JSON.stringify(superjson.serialize(input)));
  const req =
    kind === "query"
      ? new Request(`http://localhost/api/trpc/${path}?input=${payload}`)
      : new Request(`http://localhost/api/trpc/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(superjson.serialize(input)),
        });
  const res = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => ({ headers: req.headers, user, requestId: "req_test_trpc" }),
  });
  const body = (await res.json()) as { error?: { json: { message: string; data: { code: string; httpStatus: number } } } };
  return { status: res.status, message: body.error?.json.message ?? "", code: body.error?.json.data.code, text: JSON.stringify(body) };
}

describe("tRPC and hostile input", () => {
  it("refuses NUL and lone surrogates in any input with 422, before the database", async () => {
    const base = { type: "auto", duration: "yearly", price: "10.00" };
    for (const name of ["a\u0000b", "a\uD800"]) {
      const res = await call("policies.create", { ...base, name }, "mutation");
      expect(res.status, res.text).toBe(422);
      expect(res.code).toBe("validation_failed");
      expect(res.text).not.toMatch(/prisma|22021|invocation/i);
    }
    expect((await call("policies.get", { id: "\u0000" }, "query")).status).toBe(422);
    expect((await call("policies.list", { limit: 20, q: "\u0000" }, "query")).status).toBe(422);
  });

  it("refuses a cursor it did not issue with 400", async () => {
    for (const text of ["2026-01-01T00:00:00.000Z|a\u0000b", "-271821-04-20T00:00:00.000Z|abc"]) {
      const res = await call("policies.list", { limit: 20, cursor: Buffer.from(text).toString("base64url") }, "query");
      expect(res.status, res.text).toBe(400);
    }
  });

  it("answers an unexpected failure with a generic message quoting the request id", async () => {
    const key = await call("apiKeys.create", { name: "CI", permissions: ["read"] }, "mutation");
    expect(key.status, key.text).toBe(200);
    // A row the API cannot describe, written around the service: the answer fails its output schema.
    await db.apiKey.updateMany({ where: { organizationId }, data: { permissions: ["admin"] } });
    const res = await call("apiKeys.list", { limit: 20 }, "query");
    expect(res.status).toBe(500);
    expect(res.code).toBe("internal_error");
    expect(res.message).toBe("Something went wrong on our side. Quote req_test_trpc when you contact support.");
    expect(res.text).not.toMatch(/output|admin|zod|stack/i);
  });
});
