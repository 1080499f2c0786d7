import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { getPolicyAnalytics } from "./analytics";
import { CreatePolicyInput, UpdatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy, deletePolicy, getPolicy, listPolicies, setPolicyStatus, updatePolicy } from "./service";

const input = (over: Record<string, unknown> = {}) =>
  CreatePolicyInput.parse({ name: "Fleet cover", type: "auto", duration: "yearly", price: "150.00", ...over });

async function expectCode(p: Promise<unknown>, code: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
}

describe("policies", () => {
  it("creates with integer minor units and answers the organization's currency", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await createPolicy(actor, input({ price: "1234.5", benefits: ["Towing", "Windscreen"] }));
    expect(policy).toMatchObject({
      price: "1234.50",
      currency: "NGN",
      isActive: true,
      benefits: ["Towing", "Windscreen"],
      exclusions: [],
    });
    const row = await db.policy.findUniqueOrThrow({ where: { id: policy.id } });
    expect(row.priceMinor).toBe(123450n);
  });

  it("rejects prices with more than 4 decimals, zero or negative (a currency's own decimals: src/server/money.test.ts)", () => {
    for (const price of ["1.23456", "0", "0.00", "-5", "abc", "1e3"]) {
      expect(CreatePolicyInput.safeParse({ name: "X", type: "auto", duration: "yearly", price }).success, price).toBe(false);
    }
    expect(UpdatePolicyInput.safeParse({}).success).toBe(false);
  });

  it("updates only the given fields", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createPolicy(actor, input({ description: "Cars", benefits: ["A"] }));
    const updated = await updatePolicy(actor, created.id, UpdatePolicyInput.parse({ price: "200" }));
    expect(updated).toMatchObject({ name: "Fleet cover", description: "Cars", benefits: ["A"], price: "200.00" });
  });

  it("soft-deletes: inactive, still readable and listed", async () => {
    const { actor } = await ownerWithOrganization();
    const created = await createPolicy(actor, input());
    await deletePolicy(actor, created.id);
    expect((await getPolicy(actor, created.id)).isActive).toBe(false);
    const listed = await listPolicies(actor, { limit: 20 });
    expect(listed.data.map((p) => p.id)).toEqual([created.id]);
    expect((await setPolicyStatus(actor, created.id, true)).isActive).toBe(true);
  });

  it("filters by status, type and name", async () => {
    const { actor } = await ownerWithOrganization();
    const home = await createPolicy(actor, input({ name: "Home Shield", type: "home" }));
    const auto = await createPolicy(actor, input({ name: "Auto Plus", type: "auto" }));
    await setPolicyStatus(actor, auto.id, false);
    const ids = async (q: Parameters<typeof listPolicies>[1]) => (await listPolicies(actor, q)).data.map((p) => p.id);
    expect(await ids({ limit: 20, isActive: true })).toEqual([home.id]);
    expect(await ids({ limit: 20, type: "auto" })).toEqual([auto.id]);
    expect(await ids({ limit: 20, q: "shield" })).toEqual([home.id]);
    // A literal search: LIKE wildcards match only themselves.
    expect(await ids({ limit: 20, q: "%" })).toEqual([]);
    expect(await ids({ limit: 20, q: "home_" })).toEqual([]);
    const percent = await createPolicy(actor, input({ name: "100% Cover_Plus" }));
    expect(await ids({ limit: 20, q: "0% cover_" })).toEqual([percent.id]);
  });

  it("hides another organization's policies (404, row unchanged)", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    const policy = await createPolicy(a.actor, input());
    await expectCode(getPolicy(b.actor, policy.id), "not_found");
    await expectCode(updatePolicy(b.actor, policy.id, UpdatePolicyInput.parse({ name: "Stolen" })), "not_found");
    await expectCode(deletePolicy(b.actor, policy.id), "not_found");
    await expectCode(getPolicyAnalytics(b.actor, policy.id), "not_found");
    expect((await listPolicies(b.actor, { limit: 20 })).data).toEqual([]);
    expect(await getPolicy(a.actor, policy.id)).toEqual(policy);
  });

  it("lets MEMBERs manage policies but not read-only keys", async () => {
    const { org, actor } = await ownerWithOrganization();
    const member = await addMember(org.id, "MEMBER");
    const created = await createPolicy(member.actor, input());
    const readKey: Actor = { ...actor, apiKey: { id: "k", permissions: ["read"] } };
    await expectCode(createPolicy(readKey, input()), "insufficient_permissions");
    await expectCode(setPolicyStatus(readKey, created.id, false), "insufficient_permissions");
    expect((await getPolicy(readKey, created.id)).isActive).toBe(true);
  });

  it("answers zeros and a 30-day series before any sale", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await createPolicy(actor, input());
    const now = new Date("2026-03-10T12:00:00Z");
    const a = await getPolicyAnalytics(actor, policy.id, {}, now);
    expect(a).toMatchObject({
      purchases: 0,
      renewals: 0,
      activeCoverages: 0,
      revenue: { gross: "0.00", fees: "0.00", net: "0.00" },
      claims: { count: 0, amount: "0.00" },
      lossRatio: null,
      conversionRate: null,
    });
    expect(a.series).toHaveLength(30);
    expect(a.series[0]!.date).toBe("2026-02-09");
    expect(a.series[29]).toEqual({ date: "2026-03-10", purchases: 0, renewals: 0, gross: "0.00" });
  });

  it("counts sales, fees, claims and conversion from the money tables", async () => {
    const { actor, org } = await ownerWithOrganization();
    const policy = await createPolicy(actor, input());
    const now = new Date();
    const scope = { organizationId: org.id, policyId: policy.id, currency: "NGN" };
    await db.payment.createMany({
      data: [
        { ...scope, reference: `ref_${policy.id}_1`, email: "a@x.test", amountMinor: 15000n, status: "success", paidAt: now },
        { ...scope, reference: `ref_${policy.id}_2`, email: "a@x.test", amountMinor: 15000n, status: "success", paidAt: now },
        { ...scope, reference: `ref_${policy.id}_3`, email: "b@x.test", amountMinor: 15000n, status: "failed" },
        { ...scope, reference: `ref_${policy.id}_4`, email: "c@x.test", amountMinor: 15000n },
      ],
    });
    await db.coverage.create({
      data: {
        organizationId: org.id,
        policyId: policy.id,
        customerEmail: "a@x.test",
        startsAt: now,
        periodStartsAt: now,
        endsAt: new Date(now.getTime() + 1e10),
        renewalCount: 1,
      },
    });
    await db.ledgerTransaction.createMany({
      data: [
        { ...scope, type: "payment", amountMinor: 30000n, reference: "r", description: "2 payments" },
        { ...scope, type: "fee", amountMinor: -450n, reference: "r", description: "fees" },
      ],
    });
    await db.claim.createMany({
      data: [
        { ...scope, type: "accident", description: "Dent", amountMinor: 6000n, status: "approved" },
        { ...scope, type: "theft", description: "Gone", amountMinor: 9000n, status: "rejected" },
      ],
    });
    const a = await getPolicyAnalytics(actor, policy.id, {}, now);
    expect(a).toMatchObject({
      purchases: 1,
      renewals: 1,
      activeCoverages: 1,
      revenue: { gross: "300.00", fees: "4.50", net: "295.50" },
      claims: { count: 2, amount: "150.00" },
      lossRatio: 0.2,
      conversionRate: 0.5,
    });
    expect(a.series.at(-1)).toEqual({ date: now.toISOString().slice(0, 10), purchases: 1, renewals: 1, gross: "300.00" });
  });
});
