// coverage.expiring and coverage.expired over real HTTP: a test-mode coverage
// bought through the hosted checkout, its end moved with the dashboard's test
// clock (tRPC coverages.simulateEnd, and POST /business/coverages/{id}/simulate-end), and the app's own worker sending the
// renewal reminder mail and delivering both events, signed like every other,
// to a receiver on 127.0.0.1 — once each. Live, the test clock is refused.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { problem, trpc, unique } from "../support/api";
import {
  buyPolicy,
  createPolicyFor,
  ISO,
  mailTo,
  ok,
  startReceiver,
  tenantWithClients,
  trpcError,
  type ReceivedRequest,
  type Receiver,
} from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** Both signatures hold (hex HMAC and Standard Webhooks); answers the parsed body. */
function verified(secret: string, r: ReceivedRequest) {
  const hex = crypto.createHmac("sha256", secret).update(r.body).digest("hex");
  expect(r.headers["x-coverdesk-signature"]).toBe(hex);
  const body = new StandardWebhook(secret).verify(r.body, r.headers) as any;
  expect(r.headers["webhook-id"]).toBe(body.id);
  expect(r.headers["x-coverdesk-event"]).toBe(body.type);
  expect(Object.keys(body)).toEqual(["id", "type", "createdAt", "livemode", "data"]);
  expect(body.createdAt).toMatch(ISO);
  return body as { id: string; type: string; livemode: boolean; data: any };
}

const COVERAGE_FIELDS = [
  "autoRenew",
  "card",
  "graceEndsAt",
  "cancellationReason",
  "cancelledAt",
  "certificateNumber",
  "customerEmail",
  "endsAt",
  "id",
  "periodStartsAt",
  "policyId",
  "renewalCount",
  "startsAt",
  "status",
].sort();

test("coverage.expiring at the first reminder, coverage.expired at the end: delivered once each, signed and logged", async () => {
  test.setTimeout(120_000);
  const t = await tenantWithClients(undefined, "test");
  const rx = await startReceiver();
  receivers.push(rx);
  const hook = await ok(
    await t.write.post("business/webhooks", { data: { url: rx.url, events: ["coverage.expiring", "coverage.expired"] } }),
    201,
  );
  const policy = await createPolicyFor(t.write, { name: `Shop cover ${unique()}` });
  const email = `holder-${unique()}@example.test`;
  const paid = await buyPolicy(t.write, policy, email);
  const coverageId = paid.coverage.id as string;
  // Bought a year ahead: nothing is due, nothing arrives.
  await new Promise((r) => setTimeout(r, 2500));
  expect(rx.requests).toHaveLength(0);

  // The dashboard in test mode moves the end to 2 days from now: the 3-day reminder is due (not the 14-day one).
  await trpc(t.account, "organizations.setMode", { livemode: false });
  // The test twin: the organization the test key's data belongs to (t.organizationId is the account).
  const twinId = (await trpc<{ organizationId: string }>(t.account, "settings.portal", undefined, "query")).organizationId;
  expect(twinId).not.toBe(t.organizationId);
  const moved = await trpc<any>(t.account, "coverages.simulateEnd", { coverageId, endsInDays: 2 });
  expect(moved).toMatchObject({ id: coverageId, status: "active" });
  const [expiringReq] = await rx.waitFor(1);
  const expiring = verified(hook.secret, expiringReq!);
  expect(expiring).toMatchObject({ type: "coverage.expiring", livemode: false });
  expect(Object.keys(expiring.data).sort()).toEqual(COVERAGE_FIELDS);
  expect(expiring.data).toMatchObject({
    id: coverageId,
    policyId: policy.id,
    customerEmail: email,
    status: "active",
    endsAt: moved.endsAt,
  });

  // The policyholder's reminder: the business, the policy, the end, and the portal's renewal link.
  let mails: Awaited<ReturnType<typeof mailTo>> = [];
  for (let i = 0; i < 100 && mails.length === 0; i++) {
    mails = (await mailTo(email)).filter((m) => m.subject.includes("ends in"));
    if (mails.length === 0) await new Promise((r) => setTimeout(r, 200));
  }
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toContain(`[Test] Your ${policy.name} with`);
  expect(mails[0]!.body).toContain(`/portal/${twinId}/coverages/${coverageId}`);

  // Now: expired at once — the test clock over REST, as an integrator runs it with a test key (no body: now).
  const ended = await ok(await t.write.post(`business/coverages/${coverageId}/simulate-end`));
  expect(ended.status).toBe("expired");
  const [, expiredReq] = await rx.waitFor(2);
  const expired = verified(hook.secret, expiredReq!);
  expect(expired).toMatchObject({ type: "coverage.expired", livemode: false });
  expect(expired.data).toMatchObject({ id: coverageId, status: "expired", endsAt: ended.endsAt });
  expect(expired.id).not.toBe(expiring.id);

  // Logged like every delivery, and nothing more arrives.
  for (const [event, id] of [
    ["coverage.expiring", expiring.id],
    ["coverage.expired", expired.id],
  ] as const) {
    const logs = (await ok(await t.read.get(`business/webhooks/logs?event=${event}`))).data as any[];
    expect(logs.map((l) => [l.eventId, l.event, l.status, l.responseStatus])).toEqual([[id, event, "succeeded", 200]]);
  }
  await new Promise((r) => setTimeout(r, 3000));
  expect(rx.requests.map((r) => JSON.parse(r.body).type)).toEqual(["coverage.expiring", "coverage.expired"]);
  expect((await mailTo(email)).filter((m) => m.subject.includes("ends in"))).toHaveLength(1);
});

test("the test clock is refused live (409 test_mode_only), the coverage unchanged", async () => {
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write);
  const paid = await buyPolicy(t.write, policy, `live-${unique()}@example.test`);
  const refused = await trpcError(t.account, "coverages.simulateEnd", { coverageId: paid.coverage.id, endsInDays: 0 });
  expect(refused).toMatchObject({ status: 409, code: "test_mode_only" });
  expect(refused.message).toContain("test mode");
  // Over REST with a live key: the same; bad input 422 first.
  const path = `business/coverages/${paid.coverage.id}/simulate-end`;
  await problem(await t.write.post(path, { data: { endsInDays: 0.5 } }), 422, "validation_failed");
  const live = await problem(await t.write.post(path, { data: { endsInDays: 0 } }), 409, "test_mode_only");
  expect(live.detail).toContain("test key");
  const after = await ok(await t.read.get(`payments/verify/${paid.reference}`));
  expect(after.coverage).toEqual(paid.coverage);
});
