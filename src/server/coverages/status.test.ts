// One boundary everywhere: a coverage is active while its end is in the
// future and expired from its end on. Every place that counts or lists
// coverages by status agrees, one millisecond before the end and at it.
import { describe, expect, it } from "vitest";
import { getAnalyticsOverview, getDashboardStats } from "@/server/analytics/service";
import { db } from "@/server/db/client";
import { getCustomer, listCustomers } from "@/server/customers/service";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { getPolicyAnalytics } from "@/server/policies/analytics";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { listCoverages, toCoverage } from "./service";
import { coverageStatus, isActiveAt } from "./status";

const card = CheckoutInput.parse({
  cardNumber: SANDBOX_CARDS.success,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: "123",
});

describe("coverage status", () => {
  it("is active strictly before the end, expired at it", () => {
    const end = new Date("2030-01-01T12:00:00.000Z");
    expect([
      isActiveAt({ endsAt: end, cancelledAt: null }, new Date(end.getTime() - 1)),
      coverageStatus({ endsAt: end, cancelledAt: null }, new Date(end.getTime() - 1)),
    ]).toEqual([true, "active"]);
    expect([
      isActiveAt({ endsAt: end, cancelledAt: null }, end),
      coverageStatus({ endsAt: end, cancelledAt: null }, end),
    ]).toEqual([false, "expired"]);
  });

  it("every count and list agrees at the boundary", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await createPolicy(
      actor,
      CreatePolicyInput.parse({ name: "Boundary cover", type: "property", duration: "yearly", price: "20.00" }),
    );
    const email = `b-${unique()}@example.test`;
    const p = await initializePayment(actor, InitializePaymentInput.parse({ amount: 20, policyId: policy.id, email }));
    await payWithCard(p.reference, card);
    const end = new Date(Date.now() + 40 * 86_400_000);
    const row = await db.coverage.update({
      where: { policyId_customerEmail: { policyId: policy.id, customerEmail: email } },
      data: { endsAt: end },
    });
    const customer = await db.customer.findFirstOrThrow({ where: { organizationId: actor.organizationId, email } });

    const views = async (now: Date) => ({
      resource: toCoverage(row, now).status,
      listed: (await listCoverages(actor, { limit: 10 }, now)).data.map((c) => c.status),
      activeFilter: (await listCoverages(actor, { limit: 10, status: "active" }, now)).data.length,
      expiredFilter: (await listCoverages(actor, { limit: 10, status: "expired" }, now)).data.length,
      overview: (await getAnalyticsOverview(actor, now)).coverages.active,
      dashboard: (await getDashboardStats(actor, {}, now)).activeCoverages,
      policy: (await getPolicyAnalytics(actor, policy.id, {}, now)).activeCoverages,
      customers: (await listCustomers(actor, { limit: 10 }, now)).data.map((c) => c.coverages),
      customer: (await getCustomer(actor, customer.id, now)).coverages,
      customerList: (await getCustomer(actor, customer.id, now)).coverageList.map((c) => c.status),
    });
    expect(await views(new Date(end.getTime() - 1))).toEqual({
      resource: "active",
      listed: ["active"],
      activeFilter: 1,
      expiredFilter: 0,
      overview: 1,
      dashboard: 1,
      policy: 1,
      customers: [{ total: 1, active: 1 }],
      customer: { total: 1, active: 1 },
      customerList: ["active"],
    });
    expect(await views(end)).toEqual({
      resource: "expired",
      listed: ["expired"],
      activeFilter: 0,
      expiredFilter: 1,
      overview: 0,
      dashboard: 0,
      policy: 0,
      customers: [{ total: 1, active: 0 }],
      customer: { total: 1, active: 0 },
      customerList: ["expired"],
    });
  });
});
