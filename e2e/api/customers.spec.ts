// Customers over REST: one per email, created by their first successful
// payment; `totalPaid` is their successful payments less what was refunded to
// them; searched by email or name; a test key sees test mode's only.
import { expect, test } from "@playwright/test";
import { problem, unique } from "../support/api";
import { buyPolicy, createPolicyFor, listAll, ok, otherSide, tenantWithClients } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const FIELDS = ["coverages", "createdAt", "currency", "email", "id", "lastPaidAt", "name", "paymentsCount", "phone", "totalPaid"];

test("list, search and read customers; totalPaid net of refunds", async () => {
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write, { price: "100.00" });
  const tag = unique();
  const [ada, bayo] = [`ada-${tag}@example.test`, `bayo-${tag}@example.test`];
  const first = await buyPolicy(t.write, policy, ada);
  await buyPolicy(t.write, policy, bayo);
  await buyPolicy(t.write, policy, ada);

  const all = await listAll<any>(t.read, "business/customers", 1);
  expect(all.map((c) => c.email)).toEqual([bayo, ada]);
  for (const c of all) expect(Object.keys(c).sort()).toEqual(FIELDS);
  const found = await ok(await t.read.get(`business/customers?q=${encodeURIComponent(`ADA-${tag}`)}`));
  expect(found.data.map((c: any) => c.email)).toEqual([ada]);
  const customer = found.data[0];
  expect(customer).toMatchObject({ paymentsCount: 2, totalPaid: "200.00", currency: "NGN", coverages: { total: 1, active: 1 } });
  expect(await ok(await t.read.get(`business/customers/${customer.id}`))).toEqual(customer);

  // A refund of 40.50: what they paid, net.
  await ok(await t.write.post(`payments/${first.reference}/refund`, { data: { amount: 40.5 } }), 201);
  expect((await ok(await t.read.get(`business/customers/${customer.id}`))).totalPaid).toBe("159.50");
  expect((await ok(await t.read.get(`business/customers?q=${encodeURIComponent(ada)}`))).data[0].totalPaid).toBe("159.50");

  await problem(await t.read.get(`business/customers/cus_${unique()}`), 404, "not_found");
  await problem(await t.read.get("business/customers?limit=101"), 400, "invalid_query");
  await problem(await t.read.get(`business/customers?q=${"x".repeat(300)}`), 400, "invalid_query");
  // A wildcard is a character, not a pattern.
  expect((await ok(await t.read.get("business/customers?q=%25"))).data).toEqual([]);

  const sandbox = await otherSide(t, "test");
  expect((await ok(await sandbox.read.get("business/customers"))).data).toEqual([]);
  await problem(await sandbox.read.get(`business/customers/${customer.id}`), 404, "not_found");
});
