import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { ownerWithOrganization } from "@/test/fixtures";
import { emptyHistogram, LATENCY_BOUNDS_MS, latencyBucketOf, Meter, percentileMs } from "./metering";

const at = new Date("2026-03-01T10:15:30Z");
const request = (organizationId: string, over: Partial<Parameters<Meter["record"]>[0]> = {}) => ({
  organizationId,
  apiKeyId: "key_a",
  method: "GET",
  route: "/business/policies",
  status: 200,
  durationMs: 4,
  at,
  ...over,
});

describe("latency buckets", () => {
  it("puts a latency in the first bucket whose bound holds it", () => {
    expect(latencyBucketOf(0)).toBe(0);
    expect(latencyBucketOf(1)).toBe(0);
    expect(latencyBucketOf(1.01)).toBe(1);
    expect(latencyBucketOf(10_000)).toBe(LATENCY_BOUNDS_MS.length - 1);
    expect(latencyBucketOf(10_001)).toBe(LATENCY_BOUNDS_MS.length);
  });

  it("interpolates percentiles inside a bucket", () => {
    const h = emptyHistogram();
    expect(percentileMs(h, 0.5)).toBeNull();
    h[latencyBucketOf(4)] = 100; // (3, 5]
    expect(percentileMs(h, 0.5)).toBe(4);
    expect(percentileMs(h, 0.95)).toBe(4.9);
    h[latencyBucketOf(400)] = 100; // (300, 500]
    expect(percentileMs(h, 0.5)).toBe(5);
    expect(percentileMs(h, 0.95)).toBe(480);
    const slow = emptyHistogram();
    slow[LATENCY_BOUNDS_MS.length] = 3;
    expect(percentileMs(slow, 0.5)).toBe(10_000);
  });
});

describe("metering", () => {
  it("writes nothing until flushed, then one row per minute, key, method and route", async () => {
    const { org } = await ownerWithOrganization();
    const m = new Meter();
    m.record(request(org.id));
    m.record(request(org.id, { status: 404, durationMs: 12 }));
    m.record(request(org.id, { status: 503, durationMs: 400 }));
    m.record(request(org.id, { route: "/business/policies/{id}" }));
    m.record(request(org.id, { at: new Date(at.getTime() + 60_000) }));
    expect(await db.apiUsage.count({ where: { organizationId: org.id } })).toBe(0);
    expect(m.pending).toBe(3);
    await m.flush();
    expect(m.pending).toBe(0);
    const rows = await db.apiUsage.findMany({
      where: { organizationId: org.id },
      orderBy: [{ minute: "asc" }, { route: "asc" }],
    });
    expect(rows.map((r) => [r.minute.toISOString(), r.route, r.requests, r.errors, r.serverErrors])).toEqual([
      ["2026-03-01T10:15:00.000Z", "/business/policies", 3, 2, 1],
      ["2026-03-01T10:15:00.000Z", "/business/policies/{id}", 1, 0, 0],
      ["2026-03-01T10:16:00.000Z", "/business/policies", 1, 0, 0],
    ]);
    expect(rows[0]!.latencyMsSum).toBe(416);
    expect(rows[0]!.latencyBuckets[latencyBucketOf(4)]).toBe(1);
    expect(rows[0]!.latencyBuckets[latencyBucketOf(12)]).toBe(1);
    expect(rows[0]!.latencyBuckets[latencyBucketOf(400)]).toBe(1);
    expect(rows[0]!.latencyBuckets.reduce((a, b) => a + b, 0)).toBe(3);
    // The same flush added the hour: both minutes of GET /business/policies in one row.
    const hours = await db.apiUsageHourly.findMany({ where: { organizationId: org.id }, orderBy: { route: "asc" } });
    expect(hours.map((r) => [r.hour.toISOString(), r.route, r.requests, r.errors, r.serverErrors, r.latencyMsSum])).toEqual([
      ["2026-03-01T10:00:00.000Z", "/business/policies", 4, 2, 1, 420],
      ["2026-03-01T10:00:00.000Z", "/business/policies/{id}", 1, 0, 0, 4],
    ]);
    expect(hours[0]!.latencyBuckets[latencyBucketOf(4)]).toBe(2);
    expect(hours[0]!.latencyBuckets.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it("adds the counts of several instances flushing the same bucket at once", async () => {
    const { org } = await ownerWithOrganization();
    const instances = [new Meter(), new Meter(), new Meter()];
    for (const [i, m] of instances.entries()) {
      for (let n = 0; n <= i; n++) m.record(request(org.id, { durationMs: 40 }));
      m.record(request(org.id, { route: "/claims", method: "POST", status: 201 }));
    }
    await Promise.all(instances.map((m) => m.flush()));
    await instances[0]!.flush(); // nothing left: adds nothing
    const rows = await db.apiUsage.findMany({ where: { organizationId: org.id }, orderBy: { route: "asc" } });
    expect(rows.map((r) => [r.method, r.route, r.requests])).toEqual([
      ["GET", "/business/policies", 6],
      ["POST", "/claims", 3],
    ]);
    expect(rows[0]!.latencyBuckets[latencyBucketOf(40)]).toBe(6);
    const hours = await db.apiUsageHourly.findMany({ where: { organizationId: org.id }, orderBy: { route: "asc" } });
    expect(hours.map((r) => [r.method, r.route, r.requests])).toEqual([
      ["GET", "/business/policies", 6],
      ["POST", "/claims", 3],
    ]);
  });

  it("drops the counts of an organization that no longer exists, and writes the others", async () => {
    const { org } = await ownerWithOrganization();
    const m = new Meter();
    m.record(request("org_that_does_not_exist"));
    m.record(request(org.id));
    await m.flush();
    expect(m.pending).toBe(0);
    expect(await db.apiUsage.count({ where: { organizationId: "org_that_does_not_exist" } })).toBe(0);
    expect(await db.apiUsage.count({ where: { organizationId: org.id } })).toBe(1);
  });
});
