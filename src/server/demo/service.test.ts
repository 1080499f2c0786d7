// The sample business (npm run demo, the dashboard's "Load sample data"): made
// in the test twin through the services, every claim state present, nothing
// added on a second run, the live organization untouched; a load stopped at any
// point (an error, or a crash that leaves its lease) is resumed by the next one
// into exactly the set a clean load makes.
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { ensureTestTwin } from "@/server/organizations/twin";
import { checkLedger } from "@/server/ledger/check";
import { addMember, ownerWithOrganization, refusal } from "@/test/fixtures";
import type { Actor } from "@/server/actor";
import { createPolicy } from "@/server/policies/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { processClock } from "./clock";
import { HISTORY_DAYS, loadSampleData, SAMPLE_DATA_LEASE_MS, sampleDataState, type SampleSize } from "./service";

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
    // The webhook to example.com too, on a machine without DNS as well (its deliveries then fail and retry).
    expect(first).toMatchObject({ created: true, policies: 3, claims: 7, webhooks: 1 });

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

    // The load claimed the organization and completed; a second run adds nothing.
    const state = await db.organization.findUniqueOrThrow({ where: { id: twin } });
    expect(state.sampleDataLoadedAt).not.toBeNull();
    expect(state.sampleDataCompletedAt).not.toBeNull();
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

  it("leaves test data alone that holds policies of its own (no load ever started there)", async () => {
    const { actor } = await testView();
    await createPolicy(
      actor,
      CreatePolicyInput.parse({ name: "Own cover", type: "other", duration: "yearly", price: "1000.00" }),
    );
    expect(await loadSampleData(actor, "light")).toMatchObject({ created: false, policies: 1, payments: 0, claims: 0 });
    const state = await db.organization.findUniqueOrThrow({ where: { id: actor.organizationId } });
    expect(state).toMatchObject({ sampleDataLoadedAt: null, sampleDataCompletedAt: null, sampleDataStep: 0 });
  });
});

/** Everything a load makes, as sorted lists and counts: two loads that made the same set answer equal snapshots. */
async function snapshot(twin: string, account: string) {
  const where = { organizationId: twin };
  const sorted = (xs: string[]) => xs.sort();
  const [payments, coverages, claims, usage] = await Promise.all([
    db.payment.findMany({ where, select: { email: true, status: true, renewalAttempt: true } }),
    db.coverage.findMany({ where, select: { customerEmail: true, autoRenew: true } }),
    db.claim.findMany({ where, select: { description: true, status: true, amountMinor: true, approvedAmountMinor: true } }),
    db.apiUsage.aggregate({ where, _sum: { requests: true } }),
  ]);
  return {
    policies: sorted((await db.policy.findMany({ where, select: { name: true } })).map((p) => p.name)),
    payments: sorted(payments.map((p) => `${p.email} ${p.renewalAttempt === null ? "purchase" : "renewal"} ${p.status}`)),
    coverages: sorted(coverages.map((c) => `${c.customerEmail} ${c.autoRenew}`)),
    claims: sorted(claims.map((c) => `${c.description} ${c.status} ${c.amountMinor} ${c.approvedAmountMinor}`)),
    attachments: await db.claimAttachment.count({ where }),
    claimPayouts: await db.claimPayout.count({ where }),
    kybDocuments: await db.kybDocument.count({ where }),
    bankAccounts: await db.bankAccount.count({ where }),
    verifiedBankAccounts: await db.bankAccount.count({ where: { ...where, status: "verified" } }),
    withdrawals: await db.withdrawal.count({ where }),
    webhooks: await db.webhook.count({ where }),
    apiKeys: await db.apiKey.count({ where: { organizationId: account } }),
    apiRequests: usage._sum.requests,
  };
}

/** A clean load's snapshot of each size, made once. */
const clean = new Map<SampleSize, ReturnType<typeof snapshot>>();
function cleanSnapshot(size: SampleSize) {
  if (!clean.has(size)) {
    clean.set(
      size,
      (async () => {
        const { org, twin, actor } = await testView();
        expect((await loadSampleData(actor, size)).created).toBe(true);
        return snapshot(twin, org.id);
      })(),
    );
  }
  return clean.get(size)!;
}

class Crash extends Error {}
/** A progress callback that stops the load where `label` is told, as a crash there would. */
const crashAt = (label: string) => (told: string) => {
  if (told === label) throw new Crash(`stopped at ${label}`);
};

describe("a load stopped part-way is resumed by the next one", () => {
  it.each<[string, { step?: string; checkpoint?: string }]>([
    ["after the webhook", { step: "webhook" }],
    ["after the purchases", { step: "purchases" }],
    ["after the claims", { step: "claims" }],
    ["inside the renewals: the covers ended, not charged yet", { checkpoint: "renewal cycle 1: covers ended" }],
    ["inside the claims: some not filed yet", { checkpoint: "claim 3: submitted" }],
    ["inside the claims: one approved, its payout not asked for", { checkpoint: "claim 6: approved" }],
    ["inside the claims: one to be paid outside, its review under way", { checkpoint: "claim 7: under_review" }],
  ])(
    "stopped %s: the next load completes the set a clean load makes",
    async (_, at) => {
      const expected = await cleanSnapshot("light");
      const { org, twin, actor } = await testView();
      const stopped = loadSampleData(
        actor,
        "light",
        at.step ? crashAt(at.step) : undefined,
        at.checkpoint ? { checkpoint: crashAt(at.checkpoint) } : {},
      );
      await expect(stopped).rejects.toBeInstanceOf(Crash);
      // The failed load released its lease and kept its progress.
      const state = await db.organization.findUniqueOrThrow({ where: { id: twin } });
      expect(state).toMatchObject({ sampleDataLoadedAt: null, sampleDataCompletedAt: null });
      expect(state.sampleDataStep).toBeGreaterThan(0);

      const steps: string[] = [];
      const resumed = await loadSampleData(actor, "light", (label) => steps.push(label));
      expect(resumed).toMatchObject({ created: true, policies: 3, claims: 7 });
      expect(steps).toEqual(["webhook", "policies", "purchases", "renewals", "claims", "money out", "API usage"]);
      expect(await snapshot(twin, org.id)).toEqual(expected);
      expect((await checkLedger(twin)).problems).toEqual([]);
      expect((await db.organization.findUniqueOrThrow({ where: { id: twin } })).sampleDataCompletedAt).not.toBeNull();
      expect(await liveCounts(org.id)).toEqual([0, 0, 0, 0]);
    },
    90_000,
  );

  it("stopped several times, at different points, it still ends with one set", async () => {
    const expected = await cleanSnapshot("light");
    const { org, twin, actor } = await testView();
    await expect(loadSampleData(actor, "light", crashAt("policies"))).rejects.toBeInstanceOf(Crash);
    await expect(
      loadSampleData(actor, "light", undefined, { checkpoint: crashAt("claim 2: under_review") }),
    ).rejects.toBeInstanceOf(Crash);
    await expect(loadSampleData(actor, "light", crashAt("money out"))).rejects.toBeInstanceOf(Crash);
    expect((await loadSampleData(actor, "light")).created).toBe(true);
    expect(await snapshot(twin, org.id)).toEqual(expected);
    expect((await checkLedger(twin)).problems).toEqual([]);
  }, 90_000);

  it("a full load stopped inside its second renewal cycle charges no cover twice in it", async () => {
    // In the second cycle the covers whose renewal was declined in the first are past due: the cycle ends their
    // grace period. Ended again on resuming, they would be charged (as the third cycle does): the resume must
    // skip them.
    const expected = await cleanSnapshot("full");
    const { org, twin, actor } = await testView();
    await expect(
      loadSampleData(actor, "full", undefined, { checkpoint: crashAt("renewal cycle 2: covers ended") }),
    ).rejects.toBeInstanceOf(Crash);
    expect((await loadSampleData(actor, "full")).created).toBe(true);
    expect(await snapshot(twin, org.id)).toEqual(expected);
    expect((await checkLedger(twin)).problems).toEqual([]);
  }, 120_000);

  it("a lease left by a load that died holds until it runs out; then the next load resumes", async () => {
    const expected = await cleanSnapshot("light");
    const { org, twin, actor } = await testView();
    // A load killed after its purchases (SIGKILL: no catch runs, so its lease stays): partial data, lease held.
    await expect(loadSampleData(actor, "light", crashAt("purchases"))).rejects.toBeInstanceOf(Crash);
    await db.organization.update({ where: { id: twin }, data: { sampleDataLoadedAt: new Date() } });
    const partial = await snapshot(twin, org.id);
    expect(partial.claims).toEqual([]);

    // While the lease holds, another load may still be at work: nothing is added.
    expect(await loadSampleData(actor, "light")).toMatchObject({ created: false, policies: 3, claims: 0 });
    expect(await snapshot(twin, org.id)).toEqual(partial);

    // Run out: the load is taken for dead and resumed.
    await db.organization.update({
      where: { id: twin },
      data: { sampleDataLoadedAt: new Date(Date.now() - SAMPLE_DATA_LEASE_MS - 1_000) },
    });
    expect(await loadSampleData(actor, "light")).toMatchObject({ created: true, policies: 3, claims: 7 });
    expect(await snapshot(twin, org.id)).toEqual(expected);
    expect((await checkLedger(twin)).problems).toEqual([]);
  }, 90_000);

  it("a completed load is final: later loads add nothing, whatever its lease's age", async () => {
    const { org, twin, actor } = await testView();
    expect((await loadSampleData(actor, "light")).created).toBe(true);
    const made = await snapshot(twin, org.id);
    await db.organization.update({
      where: { id: twin },
      data: { sampleDataLoadedAt: new Date(Date.now() - SAMPLE_DATA_LEASE_MS - 1_000) },
    });
    expect(await loadSampleData(actor, "light")).toMatchObject({ created: false, policies: 3, claims: 7 });
    expect(await loadSampleData(actor, "full")).toMatchObject({ created: false, policies: 3, claims: 7 });
    expect(await snapshot(twin, org.id)).toEqual(made);
  }, 90_000);

  it("its state for the dashboard: none, loading while a lease holds, interrupted once it ran out, completed; none in live mode", async () => {
    const { org, twin, actor } = await testView();
    expect(await sampleDataState(actor)).toEqual({ state: "none" });
    expect(await sampleDataState({ ...actor, organizationId: org.id, accountId: undefined, livemode: true })).toEqual({
      state: "none",
    });
    await db.organization.update({ where: { id: twin }, data: { sampleDataLoadedAt: new Date() } });
    expect(await sampleDataState(actor)).toEqual({ state: "loading" });
    await db.organization.update({
      where: { id: twin },
      data: { sampleDataLoadedAt: new Date(Date.now() - SAMPLE_DATA_LEASE_MS - 1_000) },
    });
    expect(await sampleDataState(actor)).toEqual({ state: "interrupted" });
    // A failed load released its lease but left progress: interrupted too.
    await db.organization.update({ where: { id: twin }, data: { sampleDataLoadedAt: null, sampleDataStep: 2 } });
    expect(await sampleDataState(actor)).toEqual({ state: "interrupted" });
    expect((await loadSampleData(actor, "light")).created).toBe(true);
    expect(await sampleDataState(actor)).toEqual({ state: "completed" });
  }, 90_000);
});

describe("npm run demo's history (a clock: src/server/demo/clock.ts)", () => {
  it("dates six months as they happened: purchases then, monthly renewals each month, a declined card lapsing, claims over four months; a load stopped among the days resumes into the same set", async () => {
    const RealDate = Date;
    const { org, twin, actor } = await testView();
    const before = Date.now();
    expect((await loadSampleData(actor, "full", undefined, { clock: processClock() })).created).toBe(true);
    // The process's clock is real again, and the load's own state is dated now.
    expect(Date).toBe(RealDate);
    expect(Math.abs(Date.now() - performance.timeOrigin - performance.now())).toBeLessThan(1_000);
    const state = await db.organization.findUniqueOrThrow({ where: { id: twin } });
    expect(state.sampleDataCompletedAt!.getTime()).toBeGreaterThanOrEqual(before);

    const where = { organizationId: twin };
    const DAY = 86_400_000;
    const payments = await db.payment.findMany({
      where,
      select: { createdAt: true, paidAt: true, status: true, renewalAttempt: true, reference: true },
    });
    // The first purchase HISTORY_DAYS ago, nothing after now.
    const created = payments.map((p) => p.createdAt.getTime());
    expect(Math.min(...created)).toBeLessThan(before - (HISTORY_DAYS - 1) * DAY);
    expect(Math.max(...created)).toBeLessThanOrEqual(Date.now());
    // Paid renewals in each of the last five months (a monthly cover renews every month).
    const months = (ps: typeof payments) => new Set(ps.map((p) => p.paidAt!.toISOString().slice(0, 7)));
    const renewed = payments.filter((p) => p.renewalAttempt !== null && p.status === "success");
    expect(months(renewed).size).toBeGreaterThanOrEqual(5);
    const monthly = await db.coverage.findMany({
      where: { ...where, policy: { duration: "monthly" } },
      select: { renewalCount: true, cancelledAt: true, graceEndsAt: true, endsAt: true },
    });
    expect(Math.max(...monthly.map((c) => c.renewalCount))).toBeGreaterThanOrEqual(5);
    // A card that declines later: its renewal failed, was retried, and the cover lapsed months ago.
    expect(payments.some((p) => p.renewalAttempt !== null && p.status === "failed")).toBe(true);
    expect(await db.event.count({ where: { ...where, type: "coverage.expired", createdAt: { lt: new Date(before - 30 * DAY) } } })).toBeGreaterThan(0);
    // The ledger is dated with its payments: the daily rollups show the history month by month.
    const ledger = await db.ledgerTransaction.findMany({ where: { ...where, type: "payment" }, select: { reference: true, createdAt: true } });
    const paidAt = new Map(payments.map((p) => [p.reference, p.paidAt]));
    expect(ledger.length).toBe(payments.filter((p) => p.status === "success").length);
    for (const l of ledger) expect(l.createdAt.toISOString().slice(0, 10)).toBe(paidAt.get(l.reference)!.toISOString().slice(0, 10));
    const days = await db.dailyStats.findMany({ where: { ...where, grossMinor: { gt: 0 } }, select: { day: true } });
    expect(new Set(days.map((d) => d.day.toISOString().slice(0, 7))).size).toBeGreaterThanOrEqual(6);
    // Claims over the last four months and a half, each move after its filing.
    const claims = await db.claim.findMany({ where, select: { createdAt: true, updatedAt: true } });
    expect(Math.min(...claims.map((c) => c.createdAt.getTime()))).toBeLessThan(before - 120 * DAY);
    expect(Math.max(...claims.map((c) => c.createdAt.getTime()))).toBeGreaterThan(before - 7 * DAY);
    for (const c of claims) expect(c.updatedAt.getTime()).toBeGreaterThanOrEqual(c.createdAt.getTime());
    expect((await checkLedger(twin)).problems).toEqual([]);

    // Stopped among the days (three months in), then resumed: the set a clean dated load makes, each
    // period charged once.
    const expected = await snapshot(twin, org.id);
    const other = await testView();
    const midway = new Date(Math.floor(before / DAY) * DAY - 90 * DAY).toISOString().slice(0, 10);
    await expect(
      loadSampleData(other.actor, "full", undefined, { clock: processClock(), checkpoint: crashAt(`day ${midway}`) }),
    ).rejects.toBeInstanceOf(Crash);
    expect(Date).toBe(RealDate);
    expect((await loadSampleData(other.actor, "full", undefined, { clock: processClock() })).created).toBe(true);
    expect(await snapshot(other.twin, other.org.id)).toEqual(expected);
    expect((await checkLedger(other.twin)).problems).toEqual([]);
  }, 180_000);
});
