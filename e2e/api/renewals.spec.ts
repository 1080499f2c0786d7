// Recurring premiums over HTTP (issue 27), as an integrator runs
// them with a test key and the test clock: a checkout with "Renew
// automatically" saves the card; simulate-end → the worker charges it and the
// cover renews (4242…); with 4000 0000 0000 0341 the charge is declined, the
// cover is past_due (valid, listed under Renewals) and the policyholder is
// mailed a link to pay by hand; simulate-end again → expired. PATCH
// /business/coverages/{id} {autoRenew}: off → never charged, bad input → 400
// with nothing changed, on without a card → 409. The 401/403/404-other-
// organization cases are the generated security matrix's.
import { expect, test } from "@playwright/test";
import { problem, unique } from "../support/api";
import { CARDS, createPolicyFor, errorPaths, mailTo, ok, payReference, tenantWithClients } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const DECLINES_LATER = "4000000000000341";

test.describe.configure({ mode: "parallel" });

/** A test-mode business selling a monthly policy, and a way to buy it with a card (and consent or not). */
async function testShop() {
  const t = await tenantWithClients(`Renewals ${unique()}`, "test");
  const policy = await createPolicyFor(t.write, { duration: "monthly", price: "5000.00" });
  const buy = async (card: string, autoRenew: boolean) => {
    const email = `holder-${unique()}@example.test`;
    const payment = await ok(
      await t.write.post("payments/initialize", { data: { amount: 5000, policyId: policy.id, email } }),
      201,
    );
    const paid = await payReference(payment.reference, card, { autoRenew });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const list = await ok(await t.write.get(`business/coverages?policyId=${policy.id}&limit=100`));
    return { email, coverage: list.data.find((c: any) => c.customerEmail === email) };
  };
  const coverage = async (id: string) => {
    const list = await ok(await t.write.get(`business/coverages?policyId=${policy.id}&limit=100`));
    return list.data.find((c: any) => c.id === id);
  };
  const renewalsOf = async (email: string) => {
    const list = await ok(await t.write.get(`payments?policyId=${policy.id}&limit=100`));
    return list.data.filter((p: any) => p.email === email && p.renewal);
  };
  return { ...t, policy, buy, coverage, renewalsOf };
}

test("a checkout with consent saves the card; simulate-end renews it on the saved card", async () => {
  const s = await testShop();
  const { email, coverage } = await s.buy(CARDS.success, true);
  expect(coverage).toMatchObject({
    status: "active",
    autoRenew: true,
    card: { brand: "visa", last4: "4242", expMonth: 12 },
    renewalCount: 0,
  });
  expect(JSON.stringify(coverage)).not.toMatch(/AUTH_|authorization/i);

  const summary = await ok(await s.write.get("business/renewals/summary"));
  expect(summary).toMatchObject({ recurringPremiumPerMonth: "5000.00", autoRenewing: 1, pastDue: 0 });

  const ended = await ok(await s.write.post(`business/coverages/${coverage.id}/simulate-end`, { data: {} }));
  expect(ended.status).toBe("past_due"); // its end is now: due, and valid, until the charge
  await expect.poll(async () => (await s.coverage(coverage.id)).renewalCount, { timeout: 20_000 }).toBe(1);
  const renewed = await s.coverage(coverage.id);
  expect(renewed).toMatchObject({ status: "active", autoRenew: true });
  expect(new Date(renewed.endsAt).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
  const [charge] = await s.renewalsOf(email);
  expect(charge).toMatchObject({ status: "success", amount: "5000.00", renewal: { attempt: 1 } });
  // The receipt of the renewal goes to the policyholder, as a checkout's does.
  await expect.poll(async () => (await mailTo(email)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
});

test("a declined renewal: past_due and listed, the policyholder told with a link to pay; then expired", async () => {
  const s = await testShop();
  const { email, coverage } = await s.buy(DECLINES_LATER, true);
  await ok(await s.write.post(`business/coverages/${coverage.id}/simulate-end`));
  await expect.poll(async () => (await s.renewalsOf(email)).map((p: any) => p.status), { timeout: 20_000 }).toEqual(["failed"]);
  const pastDue = await s.coverage(coverage.id);
  expect(pastDue.status).toBe("past_due");
  expect(new Date(pastDue.graceEndsAt).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  const listed = await ok(await s.write.get("business/renewals?view=past_due"));
  expect(listed.data).toEqual([
    expect.objectContaining({ coverageId: coverage.id, status: "past_due", attempts: 1, lastFailureReason: expect.any(String) }),
  ]);
  expect(listed.data[0].nextAttemptAt).not.toBeNull();
  const [charge] = await s.renewalsOf(email);
  await expect
    .poll(async () => (await mailTo(email)).find((m) => /could not renew/.test(m.subject))?.body ?? "", { timeout: 20_000 })
    .toContain(`/pay/${charge.reference}`);

  // The test clock again: the grace period ends now, and the cover expires.
  const ending = await ok(await s.write.post(`business/coverages/${coverage.id}/simulate-end`, { data: { endsInDays: 0 } }));
  expect(ending.graceEndsAt).not.toBeNull();
  await expect.poll(async () => (await s.coverage(coverage.id)).status, { timeout: 20_000 }).toBe("expired");
  expect((await ok(await s.write.get("business/renewals?view=past_due"))).data).toEqual([]);
});

test("PATCH autoRenew: off is never charged; bad input changes nothing; on without a card is refused", async () => {
  const s = await testShop();
  const { email, coverage } = await s.buy(CARDS.success, true);
  const path = `business/coverages/${coverage.id}`;

  for (const body of [{ autoRenew: "yes" }, {}, { autoRenew: false, extra: 1 }]) {
    const res = await s.write.patch(path, { data: body });
    const p = await problem(res, 422, "validation_failed");
    if ("autoRenew" in body && body.autoRenew === "yes") expect(errorPaths(p)).toEqual(["autoRenew"]);
  }
  expect((await s.coverage(coverage.id)).autoRenew).toBe(true);

  const off = await ok(await s.write.patch(path, { data: { autoRenew: false } }));
  expect(off).toMatchObject({ id: coverage.id, autoRenew: false, graceEndsAt: null, card: { last4: "4242" } });
  // The same again: no change.
  expect(await ok(await s.write.patch(path, { data: { autoRenew: false } }))).toMatchObject({ autoRenew: false });
  // Back on (the card is still saved), and off again.
  expect(await ok(await s.write.patch(path, { data: { autoRenew: true } }))).toMatchObject({ autoRenew: true });
  await ok(await s.write.patch(path, { data: { autoRenew: false } }));

  // Off: its end passes without a charge, and it expires.
  await ok(await s.write.post(`business/coverages/${coverage.id}/simulate-end`));
  await expect.poll(async () => (await s.coverage(coverage.id)).status, { timeout: 20_000 }).toBe("expired");
  expect(await s.renewalsOf(email)).toEqual([]);

  // Bought without consent: no card, so it cannot be switched on.
  const manual = await s.buy(CARDS.success, false);
  expect(manual.coverage).toMatchObject({ autoRenew: false, card: null });
  await problem(
    await s.write.patch(`business/coverages/${manual.coverage.id}`, { data: { autoRenew: true } }),
    409,
    "invalid_state",
  );
  expect((await s.coverage(manual.coverage.id)).autoRenew).toBe(false);
});

test("the Renewals list refuses an unknown view, and pages", async () => {
  const s = await testShop();
  const p = await problem(await s.read.get("business/renewals?view=soon"), 400, "invalid_query");
  expect(errorPaths(p)).toEqual(["view"]);
  const empty = await ok(await s.read.get("business/renewals?view=due&limit=1"));
  expect(empty).toEqual({ data: [], nextCursor: null });
});
