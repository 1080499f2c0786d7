// The sample business (npm run demo, the dashboard's "Load sample data"): made
// in the test twin through the services, every claim state present, nothing
// added on a second run, the live organization untouched.
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { ensureTestTwin } from "@/server/organizations/twin";
import { checkLedger } from "@/server/ledger/check";
import { addMember, ownerWithOrganization, refusal } from "@/test/fixtures";
import type { Actor } from "@/server/actor";
import { loadSampleData } from "./service";

beforeAll(connectDatabase);

async function testView() {
  const owner = await ownerWithOrganization();
  const twin = await ensureTestTwin(owner.org.id);
  const actor: Actor = { ...owner.actor, organizationId: twin, accountId: owner.org.id, livemode: false };
  return { ...owner, twin, actor };
}

const liveCounts = (organizationId: string) =>
  Promise.all([
    db.policy.count({ where: { organizationId } }),
    db.payment.count({ where: { organizationId } }),
    db.claim.count({ where: { organizationId } }),
    db.withdrawal.count({ where: { organizationId } }),
  ]);

describe("loadSampleData", () => {
  it("makes the light sample business in the test twin, once", async () => {
    const { org, twin, actor } = await testView();
    const first = await loadSampleData(actor, "light");
    expect(first).toMatchObject({ created: true, policies: 3, claims: 7 });

    const where = { organizationId: twin };
    const payments = await db.payment.groupBy({ by: ["status"], where, _count: true });
    const byStatus = Object.fromEntries(payments.map((p) => [p.status, p._count]));
    expect(byStatus.success).toBeGreaterThanOrEqual(5);
    expect(byStatus.failed).toBeGreaterThanOrEqual(1);
    // Renewals charged a saved card (a renewal payment per auto-renewing cover).
    expect(await db.payment.count({ where: { ...where, renewalAttempt: { not: null } } })).toBeGreaterThan(0);
    const durations = await db.policy.findMany({ where, select: { duration: true } });
    expect(new Set(durations.map((p) => p.duration))).toEqual(new Set(["monthly", "quarterly", "yearly"]));

    const claims = await db.claim.findMany({ where, select: { status: true, amountMinor: true, approvedAmountMinor: true } });
    expect(new Set(claims.map((c) => c.status))).toEqual(new Set(["submitted", "under_review", "approved", "rejected", "paid"]));
    // One approved in part.
    expect(claims.some((c) => c.approvedAmountMinor !== null && c.approvedAmountMinor < c.amountMinor)).toBe(true);
    // Each claim's evidence: a photo and a PDF.
    expect(await db.claimAttachment.count({ where })).toBe(14);
    expect(await db.claimPayout.count({ where })).toBe(1);
    expect(await db.withdrawal.count({ where })).toBe(1);
    expect(await db.bankAccount.count({ where: { ...where, status: "verified" } })).toBe(1);
    const phones = await db.payment.findMany({ where: { ...where, renewalAttempt: null }, select: { customerPhone: true } });
    expect(phones.length).toBe(6);
    expect(phones.every((p) => p.customerPhone?.startsWith("+234"))).toBe(true);
    expect(await db.apiUsage.count({ where })).toBeGreaterThan(0);
    // Every state change wrote its event.
    expect(await db.event.count({ where: { ...where, type: "claim.updated" } })).toBeGreaterThan(0);
    expect((await checkLedger(twin)).problems).toEqual([]);

    // The load claimed the organization; a second run adds nothing.
    expect((await db.organization.findUniqueOrThrow({ where: { id: twin } })).sampleDataLoadedAt).not.toBeNull();
    const before = await db.payment.count({ where });
    const again = await loadSampleData(actor, "light");
    expect(again.created).toBe(false);
    expect(await db.payment.count({ where })).toBe(before);
    expect(await db.claim.count({ where })).toBe(7);

    // The live organization is untouched.
    expect(await liveCounts(org.id)).toEqual([0, 0, 0, 0]);
  });

  it("refuses live mode and a member", async () => {
    const { org, actor } = await testView();
    const live = await refusal(loadSampleData({ ...actor, organizationId: org.id, accountId: undefined, livemode: true }));
    expect(live.code).toBe("test_mode_only");
    const member = await addMember(org.id, "MEMBER");
    const asMember = await refusal(loadSampleData({ ...actor, userId: member.user.id, role: "MEMBER" }));
    expect(asMember.code).toBe("forbidden");
    expect(await liveCounts(org.id)).toEqual([0, 0, 0, 0]);
    expect(await db.policy.count({ where: { organizationId: actor.organizationId } })).toBe(0);
  });

  it("does nothing when another load has claimed the organization", async () => {
    const { actor } = await testView();
    // As a load on another instance would have left it, a moment before.
    await db.organization.update({ where: { id: actor.organizationId }, data: { sampleDataLoadedAt: new Date() } });
    expect(await loadSampleData(actor, "light")).toMatchObject({ created: false, policies: 0, payments: 0, claims: 0 });
    expect(await db.policy.count({ where: { organizationId: actor.organizationId } })).toBe(0);
  });
});
