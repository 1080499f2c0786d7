// Database data exceptions (SQLSTATE class 22) caused by input answer 422, as
// the embedded database and PostgreSQL report them through Prisma.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { AppError, dataExceptionCode, toAppError } from "./errors";

async function thrown(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected the database to refuse the query");
    },
    (e: unknown) => e,
  );
}

describe("toAppError", () => {
  beforeAll(() => db.$connect());

  it("maps a NUL the database refuses (22021) to 422 validation_failed, without database text", async () => {
    const err = await thrown(db.policy.findFirst({ where: { name: "a\u0000b" } }));
    expect(dataExceptionCode(err)).toBe("22021");
    const app = toAppError(err);
    expect(app).toBeInstanceOf(AppError);
    expect(app?.status).toBe(422);
    expect(app?.code).toBe("validation_failed");
    expect(app?.message).not.toMatch(/prisma|22021|UTF8/i);
  });

  it("maps an out-of-range timestamp (22008/22009) to 422", async () => {
    const err = await thrown(db.policy.findFirst({ where: { createdAt: { lt: new Date(-8.64e15) } } }));
    expect(dataExceptionCode(err)).toMatch(/^22/);
    expect(toAppError(err)?.status).toBe(422);
  });

  it("keeps AppErrors and leaves other failures to the caller as a 500", () => {
    const own = new AppError("not_found");
    expect(toAppError(own)).toBe(own);
    expect(toAppError(new Error("boom"))).toBeNull();
    expect(toAppError({ code: "P2002" })).toBeNull();
    expect(toAppError({ code: "23505" })).toBeNull();
  });
});
