// A saturated database sheds requests with 503 service_unavailable (issue 23:
// 400 simultaneous POST /claims answered 122 × 500 P2028), and the ambient
// transaction of db/client.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { toAppError } from "@/server/errors";
import { ownerWithOrganization } from "@/test/fixtures";
import { connectDatabase, db, POOL_MAX, runInTransaction } from "./client";

beforeAll(connectDatabase);

describe("a saturated database", () => {
  it("a transaction that cannot start in time (every connection busy) maps to 503 service_unavailable", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Every connection of the pool (embedded: the one database) held by an open transaction.
    const holders = Array.from({ length: POOL_MAX }, () => db.$transaction(() => gate));
    await new Promise((r) => setTimeout(r, 300));
    const err = await db
      .$transaction(async () => "never", { maxWait: 100 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    release();
    await Promise.allSettled(holders);
    expect(err).not.toBeNull();
    expect(toAppError(err)).toMatchObject({ code: "service_unavailable", status: 503 });
  });
});

describe("the ambient transaction", () => {
  it("joins every db call made inside it and commits or rolls back as one", async () => {
    const { org } = await ownerWithOrganization();
    await expect(
      runInTransaction(async () => {
        await db.organization.update({ where: { id: org.id }, data: { name: "Inside" } });
        expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe("Inside");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe(org.name);

    await runInTransaction(async () => {
      await db.$executeRaw`UPDATE organization SET name = ${"Committed"} WHERE id = ${org.id}`;
      const [row] = await db.$queryRaw<{ name: string }[]>`SELECT name FROM organization WHERE id = ${org.id}`;
      expect(row!.name).toBe("Committed");
    });
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe("Committed");
  });
});
