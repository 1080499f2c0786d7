// The auth routes take hostile input as ordinary input: a NUL, a lone
// surrogate or invalid UTF-8 never reaches better-auth (and so never the
// database, where it was a 22021 and an empty 500); what better-auth throws
// answers problem+json — a data exception the input caused 422, never 500.
import { beforeAll, describe, expect, it } from "vitest";
import { getAuth, guardAuthInput } from "@/server/auth";
import { db } from "@/server/db/client";
import { env } from "@/server/env";

const handler = (request: Request) => getAuth().handler(request);
const url = (path: string) => `${env.APP_URL}/api/auth${path}`;
const post = (path: string, body: string | Buffer<ArrayBuffer>, type = "application/json") =>
  new Request(url(path), { method: "POST", headers: { "Content-Type": type, Origin: env.APP_URL }, body });

async function problem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = await res.json();
  expect(body).toMatchObject({ status, code, requestId: res.headers.get("x-request-id") });
  return body;
}

// Opening the database (migrations) takes a while the first time: not inside a test's time.
beforeAll(async () => {
  await db.$queryRaw`SELECT 1`;
});

describe("auth routes and hostile input", () => {
  it("refuses NUL and lone surrogates in the body, path or query with 422 before better-auth sees them", async () => {
    for (const token of ["a\u0000b", "a\ud800b"]) {
      const body = await problem(
        await guardAuthInput(post("/reset-password", JSON.stringify({ token, newPassword: "correct-horse-battery" })), handler),
        422,
        "validation_failed",
      );
      expect(body.errors).toEqual([{ path: "token", message: expect.any(String) }]);
    }
    await problem(
      await guardAuthInput(post("/sign-in/email", JSON.stringify({ email: "a@b.test", password: "x\u0000".repeat(5) })), handler),
      422,
      "validation_failed",
    );
    await problem(
      await guardAuthInput(
        post("/sign-in/email", "email=a%00b%40c.test&password=x", "application/x-www-form-urlencoded"),
        handler,
      ),
      422,
      "validation_failed",
    );
    await problem(
      await guardAuthInput(new Request(url("/reset-password/a%00b?callbackURL=/x")), handler),
      422,
      "validation_failed",
    );
    await problem(
      await guardAuthInput(new Request(url("/reset-password/abc?callbackURL=%00")), handler),
      422,
      "validation_failed",
    );
  });

  it("refuses a body that is not UTF-8 with 400", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"email":"a'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('@b.test","password":"12345678"}'),
    ]);
    await problem(await guardAuthInput(post("/sign-in/email", bytes), handler), 400, "malformed_json");
  });

  it("hands everything else to better-auth unchanged", async () => {
    const res = await guardAuthInput(
      post("/sign-in/email", JSON.stringify({ email: "nobody@example.test", password: "wrong-password" })),
      handler,
    );
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe("INVALID_EMAIL_OR_PASSWORD");
  });

  it("throws what better-auth cannot answer (no empty 500), and answers a database data exception with 422", async () => {
    // Straight to better-auth, a NUL reaches the database: the error now comes out instead of an empty 500.
    await expect(
      handler(post("/reset-password", JSON.stringify({ token: "a\u0000b", newPassword: "correct-horse-battery" }))),
    ).rejects.toThrow();
    // Whatever the input check misses: the database's own 22xxx (here 22021, a NUL) is the client's, 422.
    const res = await guardAuthInput(post("/sign-in/email", "{}"), async () => {
      await db.$queryRaw`SELECT ${"a\u0000b"}::text`;
      return new Response(null, { status: 204 });
    });
    await problem(res, 422, "validation_failed");
    // Anything else is ours: 500 with the request id, never the error's text.
    const bug = await guardAuthInput(post("/sign-in/email", "{}"), async () => {
      throw new Error("SELECT secret FROM somewhere");
    });
    const body = await problem(bug, 500, "internal_error");
    expect(JSON.stringify(body)).not.toContain("secret");
  });
});
