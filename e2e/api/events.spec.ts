// The events API: a receiver that missed deliveries reads them back. Each
// event is byte for byte the JSON its webhook delivery carried; newest first,
// a page at a time; filtered by type and by dates or date-times; internal
// events (a KYB submission) never shown; a test key sees test mode's only.
import { expect, test } from "@playwright/test";
import { problem, unique } from "../support/api";
import { pdfPart, pngPart } from "./_files";
import { buyPolicy, createPolicyFor, ISO, listAll, ok, otherSide, startReceiver, tenantWithClients } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

test("each event reads back exactly as its webhook delivered it, newest first, filtered by type and date or date-time", async () => {
  const t = await tenantWithClients();
  const receiver = await startReceiver();
  try {
    await ok(await t.write.post("business/webhooks", { data: { url: receiver.url, events: ["payment.completed", "policy.purchased"] } }), 201);
    const policy = await createPolicyFor(t.write);
    const before = new Date().toISOString();
    for (const n of [1, 2]) await buyPolicy(t.write, policy, `reader-${n}-${unique()}@example.test`);
    const delivered = await receiver.waitFor(4);

    const all = await ok(await t.read.get("events?limit=100"));
    expect(all.nextCursor).toBeNull();
    const ids = all.data.map((e: any) => e.id);
    for (const d of delivered) {
      const body = JSON.parse(d.body);
      const one = await ok(await t.read.get(`events/${body.id}`));
      expect(JSON.stringify(one)).toBe(d.body);
      expect(ids).toContain(body.id);
    }
    // Newest first; each has the delivery's fields and nothing else.
    const times = all.data.map((e: any) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    for (const e of all.data) {
      expect(Object.keys(e).sort()).toEqual(["createdAt", "data", "id", "livemode", "type"]);
      expect(e.createdAt).toMatch(ISO);
      expect(e.livemode).toBe(true);
    }

    // A page at a time: the pages together are the whole list, none twice.
    const paged = await listAll<any>(t.read, "events", 1);
    expect(paged.map((e) => e.id)).toEqual(ids);

    const payments = await ok(await t.read.get("events?type=payment.completed"));
    expect(payments.data).toHaveLength(2);
    expect(payments.data.every((e: any) => e.type === "payment.completed")).toBe(true);
    // A date-time as a client sends it, and a day.
    const since = await ok(await t.read.get(`events?from=${encodeURIComponent(before)}&type=policy.purchased`));
    expect(since.data).toHaveLength(2);
    const today = new Date().toISOString().slice(0, 10);
    expect((await ok(await t.read.get(`events?from=${today}&to=${today}`))).data.length).toBe(all.data.length);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await ok(await t.read.get(`events?from=${encodeURIComponent(future)}`))).data).toEqual([]);
    expect((await ok(await t.read.get(`events?to=${encodeURIComponent(before)}`))).data.filter((e: any) => e.type === "payment.completed")).toEqual([]);

    // Bad input: 400 naming the parameter.
    const badType = await problem(await t.read.get("events?type=kyb.submitted"), 400, "invalid_query");
    expect(badType.errors?.map((e) => e.path)).toEqual(["type"]);
    await problem(await t.read.get("events?from=yesterday"), 400, "invalid_query");
    await problem(await t.read.get("events?limit=0"), 400, "invalid_query");
    await problem(await t.read.get(`events/evt_${unique()}`), 404, "not_found");
  } finally {
    await receiver.close();
  }
});

test("internal events are never shown; a test key reads test mode's events only", async () => {
  const t = await tenantWithClients();
  await ok(
    await t.write.post("business/compliance/kyb/submit", {
      multipart: { certificateOfIncorporation: await pdfPart("incorporation.pdf"), taxCertificate: pngPart("tin.png") },
    }),
    201,
  );
  const policy = await createPolicyFor(t.write);
  await buyPolicy(t.write, policy, `live-${unique()}@example.test`);
  const live = await ok(await t.read.get("events?limit=100"));
  expect(live.data.map((e: any) => e.type).sort()).toEqual(["payment.completed", "policy.purchased"]);

  const sandbox = await otherSide(t, "test");
  expect((await ok(await sandbox.read.get("events"))).data).toEqual([]);
  await problem(await sandbox.read.get(`events/${live.data[0].id}`), 404, "not_found");
  const testPolicy = await createPolicyFor(sandbox.write);
  await buyPolicy(sandbox.write, testPolicy, `test-${unique()}@example.test`);
  const tested = await ok(await sandbox.read.get("events"));
  expect(tested.data).toHaveLength(2);
  expect(tested.data.every((e: any) => e.livemode === false)).toBe(true);
  expect((await ok(await t.read.get("events?limit=100"))).data).toHaveLength(2);
});
