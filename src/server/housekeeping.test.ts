import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { ownerWithOrganization } from "@/test/fixtures";
import { sweepExpiredRows } from "./housekeeping";

describe("sweepExpiredRows", () => {
  it("deletes expired idempotency records and old rate-limit windows, keeps the rest", async () => {
    const { org } = await ownerWithOrganization();
    const now = new Date();
    const past = new Date(now.getTime() - 1000);
    const future = new Date(now.getTime() + 3_600_000);
    await db.idempotencyKey.createMany({
      data: [
        { organizationId: org.id, key: "old", requestHash: "h", state: "completed", expiresAt: past },
        { organizationId: org.id, key: "live", requestHash: "h", state: "completed", expiresAt: future },
      ],
    });
    await db.rateLimitWindow.createMany({
      data: [
        { organizationId: org.id, windowStart: new Date(now.getTime() - 2 * 3_600_000), count: 3 },
        { organizationId: org.id, windowStart: new Date(Math.floor(now.getTime() / 60_000) * 60_000), count: 3 },
      ],
    });
    await sweepExpiredRows(now);
    expect((await db.idempotencyKey.findMany({ where: { organizationId: org.id } })).map((k) => k.key)).toEqual(["live"]);
    expect(await db.rateLimitWindow.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it("sweeps events dispatched over 30 days ago, keeps newer and undispatched ones", async () => {
    const { org } = await ownerWithOrganization();
    const now = new Date();
    const days = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const data = { organizationId: org.id, type: "claim.submitted", data: {} };
    await db.event.createMany({
      data: [
        { ...data, id: `evt_old_${org.id}`, createdAt: days(31), dispatchedAt: days(31) },
        { ...data, id: `evt_new_${org.id}`, createdAt: days(29), dispatchedAt: days(29) },
        { ...data, id: `evt_waiting_${org.id}`, createdAt: days(31) },
      ],
    });
    const swept = await sweepExpiredRows(now);
    expect(swept.events).toBeGreaterThanOrEqual(1);
    expect((await db.event.findMany({ where: { organizationId: org.id }, orderBy: { id: "asc" } })).map((e) => e.id)).toEqual([
      `evt_new_${org.id}`,
      `evt_waiting_${org.id}`,
    ]);
  });

  it("sweeps event streams' expired places (a crashed instance's), keeps the live ones", async () => {
    const now = new Date();
    const key = `key_${Date.now()}_${Math.random()}`;
    await db.eventStreamLease.createMany({
      data: [
        { id: `${key}_dead`, apiKeyId: key, expiresAt: new Date(now.getTime() - 1) },
        { id: `${key}_live`, apiKeyId: key, expiresAt: new Date(now.getTime() + 30_000) },
      ],
    });
    const swept = await sweepExpiredRows(now);
    expect(swept.streamLeases).toBeGreaterThanOrEqual(1);
    expect((await db.eventStreamLease.findMany({ where: { apiKeyId: key } })).map((l) => l.id)).toEqual([`${key}_live`]);
  });
});
