// Recurring premiums against a real database (PostgreSQL with DATABASE_URL):
// the saved card and the consent from the checkout, the renewal charge at the
// period's end through the settlement (ledger, policy.renewed, receipt), the
// dunning (retries 1, 3 and 5 days after the end, past_due during 7 days of
// grace, then coverage.expired), a renewal paid by hand in the grace period,
// covers never charged (auto-renew off, cancelled, policy off sale), the price
// rule (a new price only when announced 14 days before), the card notice, and
// two runners at once over 200 due covers.
//
// The clock is passed in: times are a month or more ahead of the real one, and
// each run is limited to the test's own organizations (other test files share
// the database and run the jobs at the real time).
import { describe, expect, it } from "vitest";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { CreatePolicyInput, UpdatePolicyInput } from "@/lib/schemas/policies";
import { runCoverageLifecycle } from "@/server/coverages/lifecycle";
import { cancelCoverageOf } from "@/server/coverages/cancel";
import { listCoverages } from "@/server/coverages/service";
import { db } from "@/server/db/client";
import { composeMail } from "@/server/mail/compose";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { initializePayment } from "@/server/payments/service";
import { createPolicy, setPolicyStatus, updatePolicy } from "@/server/policies/service";
import { UpdateSettingsInput } from "@/lib/schemas/settings";
import { updateSettings } from "@/server/settings/service";
import { codeOf, ownerWithOrganization, unique } from "@/test/fixtures";
import { RENEWAL_RETRY_DAYS } from "./dunning";
import { renewalReference, runRenewals } from "./job";
import { listRenewals, renewalSummary, setAutoRenew } from "./service";

const DAY = 86_400_000;
const MIN = 60_000;
const at = (t: Date, deltaMs: number) => new Date(t.getTime() + deltaMs);
const nextYear = new Date().getUTCFullYear() + 2;

const cardOf = (cardNumber: string, autoRenew: boolean | undefined, exp = { month: 12, year: nextYear }) =>
  CheckoutInput.parse({ cardNumber, expMonth: exp.month, expYear: exp.year, cvc: "123", autoRenew });

/** A business selling a monthly policy at 5,000.00; `buy` pays for it through the hosted checkout. */
async function shop(duration: "monthly" | "quarterly" | "yearly" = "monthly") {
  const owner = await ownerWithOrganization();
  const actor = owner.actor;
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Shop cover", type: "property", duration, price: "5000.00" }),
  );
  const buy = async (
    opts: { card?: string; autoRenew?: boolean; email?: string; exp?: { month: number; year: number } } = {},
  ) => {
    const email = opts.email ?? `holder-${unique()}@example.test`;
    const p = await initializePayment(actor, InitializePaymentInput.parse({ amount: 5000, policyId: policy.id, email }));
    await payWithCard(p.reference, cardOf(opts.card ?? SANDBOX_CARDS.success, opts.autoRenew ?? true, opts.exp));
    return db.coverage.findFirstOrThrow({ where: { organizationId: actor.organizationId, customerEmail: email } });
  };
  const orgs = { organizationIds: [actor.organizationId] };
  const renew = (now: Date) => runRenewals(now, orgs);
  const lifecycle = (now: Date) => runCoverageLifecycle(now, orgs);
  return { ...owner, actor, policy, buy, renew, lifecycle, orgId: actor.organizationId };
}

const coverage = (id: string) => db.coverage.findUniqueOrThrow({ where: { id } });
const renewalPayments = (coverageId: string) =>
  db.payment.findMany({
    where: { coverageId, renewalAttempt: { not: null } },
    orderBy: [{ renewalPeriodEndsAt: "asc" }, { renewalAttempt: "asc" }],
  });
const eventsOf = (organizationId: string, type: string) =>
  db.event.findMany({ where: { organizationId, type }, orderBy: { createdAt: "asc" } });
const mailsOf = (organizationId: string, kind: string) =>
  db.mailTask.findMany({ where: { organizationId, kind }, orderBy: { createdAt: "asc" } });
const ledgerOf = (organizationId: string) =>
  db.ledgerTransaction.findMany({ where: { organizationId, type: "payment" }, orderBy: { createdAt: "asc" } });

describe("the saved card and the consent", () => {
  it("a checkout with consent saves the card (sealed) and plans the renewal at the period's end", async () => {
    const s = await shop();
    const c = await s.buy({ autoRenew: true });
    expect(c.autoRenew).toBe(true);
    expect(c).toMatchObject({ cardProvider: "sandbox", cardBrand: "visa", cardLast4: "4242", cardExpMonth: 12, cardExpYear: nextYear });
    // The reusable authorization is stored sealed, never in clear.
    expect(c.cardAuthorizationSealed).toMatch(/^v1:/);
    expect(c.cardAuthorizationSealed).not.toContain("AUTH_sandbox");
    expect(c.renewAt?.getTime()).toBe(c.endsAt.getTime());
    expect(c.graceEndsAt?.getTime()).toBe(c.endsAt.getTime() + 7 * DAY);
    expect(c.lapseAt?.getTime()).toBe(c.graceEndsAt?.getTime());
    expect(c.premiumMinor).toBe(500000n);
    const [listed] = (await listCoverages(s.actor, { limit: 20 })).data;
    expect(listed).toMatchObject({
      autoRenew: true,
      card: { brand: "visa", last4: "4242", expMonth: 12, expYear: nextYear },
      status: "active",
    });
    expect(JSON.stringify(listed)).not.toContain("AUTH_");
  });

  it("without consent nothing is saved and nothing is planned", async () => {
    const s = await shop();
    const c = await s.buy({ autoRenew: false });
    expect(c).toMatchObject({ autoRenew: false, cardAuthorizationSealed: null, cardLast4: null, renewAt: null, graceEndsAt: null });
    expect(c.lapseAt?.getTime()).toBe(c.endsAt.getTime());
    // And it cannot be switched on without a card.
    expect(await codeOf(setAutoRenew(s.actor, { id: c.id, autoRenew: true }))).toBe("invalid_state");
  });
});

describe("the renewal charge", () => {
  it("renews at the end through the settlement: payment, ledger, policy.renewed, receipt, new period", async () => {
    const s = await shop();
    const c = await s.buy();
    // Not due a minute before the end.
    expect((await s.renew(at(c.endsAt, -MIN))).charged).toBe(0);
    const r = await s.renew(at(c.endsAt, MIN));
    expect(r).toMatchObject({ charged: 1, renewed: 1, declined: 0 });
    const after = await coverage(c.id);
    expect(after.renewalCount).toBe(1);
    expect(after.periodStartsAt.getTime()).toBe(c.endsAt.getTime());
    expect(after.endsAt.getTime()).toBeGreaterThan(at(c.endsAt, 27 * DAY).getTime());
    expect(after.renewAt?.getTime()).toBe(after.endsAt.getTime());
    expect(after.renewalAttempts).toBe(0);
    const [payment] = await renewalPayments(c.id);
    expect(payment).toMatchObject({
      status: "success",
      amountMinor: 500000n,
      renewalAttempt: 1,
      coverageAction: "renewed",
      reference: renewalReference(c.id, c.endsAt, 1),
    });
    expect(payment!.renewalPeriodEndsAt?.getTime()).toBe(c.endsAt.getTime());
    expect((await ledgerOf(s.orgId)).map((l) => l.amountMinor)).toEqual([500000n, 500000n]);
    const renewed = await eventsOf(s.orgId, "policy.renewed");
    expect(renewed.map((e) => e.subject)).toEqual([payment!.reference]);
    // Run again at the same time: nothing more.
    expect((await s.renew(at(c.endsAt, 2 * MIN))).charged).toBe(0);
    expect(await renewalPayments(c.id)).toHaveLength(1);
  });

  it("auto-renew off, cancelled or a policy off sale: never charged (the last is told, and expires)", async () => {
    const s = await shop();
    const off = await s.buy();
    const cancelled = await s.buy();
    await setAutoRenew(s.actor, { id: off.id, autoRenew: false });
    expect(await coverage(off.id)).toMatchObject({ renewAt: null, graceEndsAt: null });
    expect((await eventsOf(s.orgId, "coverage.updated")).map((e) => e.subject)).toEqual([off.id]);
    await cancelCoverageOf(s.orgId, cancelled.id, { reason: "moving", refund: "none" });
    const end = at(off.endsAt, 2 * MIN);
    expect((await s.renew(end)).charged).toBe(0);

    const s2 = await shop();
    const stopped = await s2.buy();
    await setPolicyStatus(s2.actor, s2.policy.id, false);
    const r = await s2.renew(at(stopped.endsAt, MIN));
    expect(r).toMatchObject({ charged: 0, stopped: 1 });
    const after = await coverage(stopped.id);
    expect(after).toMatchObject({ renewAt: null, graceEndsAt: null });
    expect(after.lapseAt?.getTime()).toBe(stopped.endsAt.getTime());
    const [told] = await mailsOf(s2.orgId, "renewal_stopped");
    expect(told?.recipient).toBe(stopped.customerEmail);
    const mail = (await composeMail(told!))!;
    expect(mail.subject).toContain("was not renewed");
    expect((await s2.lifecycle(at(stopped.endsAt, 2 * MIN))).expired).toBe(1);
    expect(await renewalPayments(stopped.id)).toHaveLength(0);
  });
});

describe("dunning and grace", () => {
  it("a declined card: payment.failed, past_due, retries after 1, 3 and 5 days, then expired after 7", async () => {
    const s = await shop();
    const c = await s.buy({ card: SANDBOX_CARDS.declinesLater });
    const end = c.endsAt;
    const first = await s.renew(at(end, MIN));
    expect(first).toMatchObject({ charged: 1, declined: 1, renewed: 0 });
    let row = await coverage(c.id);
    expect(row.renewalAttempts).toBe(1);
    expect(row.renewAt?.getTime()).toBe(end.getTime() + RENEWAL_RETRY_DAYS[0] * DAY);
    const then = at(end, 2 * MIN);
    const [listed] = (await listCoverages(s.actor, { limit: 20, status: "past_due" }, then)).data;
    expect(listed).toMatchObject({ id: c.id, status: "past_due", graceEndsAt: at(end, 7 * DAY).toISOString() });
    expect((await listCoverages(s.actor, { limit: 20, status: "active" }, then)).data).toHaveLength(0);
    expect((await listCoverages(s.actor, { limit: 20, status: "expired" }, then)).data).toHaveLength(0);
    const failed = await eventsOf(s.orgId, "payment.failed");
    expect(failed).toHaveLength(1);
    expect((failed[0]!.data as { failureReason: string }).failureReason).toMatch(/declined/);
    const [mail] = await mailsOf(s.orgId, "renewal_failed");
    const composed = (await composeMail(mail!))!;
    expect(composed.subject).toContain("could not renew");
    expect(composed.text).toContain(`/pay/${renewalReference(c.id, end, 1)}`);

    // Not before the retry's day; then at 1, 3 and 5 days.
    expect((await s.renew(at(end, DAY - MIN))).charged).toBe(0);
    for (const [i, days] of RENEWAL_RETRY_DAYS.entries()) {
      const r = await s.renew(at(end, days * DAY + MIN));
      expect(r).toMatchObject({ charged: 1, declined: 1 });
      row = await coverage(c.id);
      expect(row.renewalAttempts).toBe(i + 2);
    }
    expect(row.renewAt).toBeNull();
    expect((await renewalPayments(c.id)).map((p) => [p.renewalAttempt, p.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
      [3, "failed"],
      [4, "failed"],
    ]);
    expect((await s.renew(at(end, 6 * DAY))).charged).toBe(0);
    // Valid (past_due) until the grace period ends; then expired, once.
    expect((await s.lifecycle(at(end, 7 * DAY - MIN))).expired).toBe(0);
    expect((await s.lifecycle(at(end, 7 * DAY + MIN))).expired).toBe(1);
    expect((await s.lifecycle(at(end, 8 * DAY))).expired).toBe(0);
    expect(await eventsOf(s.orgId, "coverage.expired")).toHaveLength(1);
    expect((await listCoverages(s.actor, { limit: 20, status: "expired" }, at(end, 8 * DAY))).data).toHaveLength(1);
    // Nothing was credited for the declines.
    expect(await ledgerOf(s.orgId)).toHaveLength(1);
  });

  it("renewed by hand in the grace period: continues from the old end, and is not charged again", async () => {
    const s = await shop();
    const c = await s.buy({ card: SANDBOX_CARDS.declinesLater });
    const end = c.endsAt;
    await s.renew(at(end, MIN));
    // The policyholder pays by hand with another card (saved for the next renewals).
    const p = await initializePayment(
      s.actor,
      InitializePaymentInput.parse({ amount: 5000, policyId: s.policy.id, email: c.customerEmail }),
    );
    await payWithCard(p.reference, cardOf(SANDBOX_CARDS.success, true));
    const after = await coverage(c.id);
    expect(after.periodStartsAt.getTime()).toBe(end.getTime());
    expect(after.cardLast4).toBe("4242");
    expect(after.renewAt?.getTime()).toBe(after.endsAt.getTime());
    expect(after.renewalAttempts).toBe(0);
    // The retry day comes: nothing is charged.
    expect((await s.renew(at(end, DAY + MIN))).charged).toBe(0);
    expect((await renewalPayments(c.id)).map((r) => r.status)).toEqual(["failed"]);
    // The Renewals view: recovered lists renewals paid after a decline (by the job only), past_due is empty.
    expect((await listRenewals(s.actor, { view: "past_due", limit: 20 }, at(end, DAY))).data).toHaveLength(0);
  });

  it("a retry that pays is listed as recovered", async () => {
    const s = await shop();
    const c = await s.buy({ card: SANDBOX_CARDS.declinesLater });
    const end = c.endsAt;
    await s.renew(at(end, MIN));
    const pastDue = await listRenewals(s.actor, { view: "past_due", limit: 20 }, at(end, 2 * MIN));
    expect(pastDue.data).toEqual([
      expect.objectContaining({
        coverageId: c.id,
        status: "past_due",
        attempts: 1,
        amount: "5000.00",
        nextAttemptAt: at(end, DAY).toISOString(),
        paymentReference: renewalReference(c.id, end, 1),
        lastFailureReason: expect.stringMatching(/declined/),
      }),
    ]);
    // The card is replaced by the business's support (as the policyholder would by paying): a direct update here.
    await db.coverage.update({
      where: { id: c.id },
      data: { cardAuthorizationSealed: (await (await shop()).buy()).cardAuthorizationSealed },
    });
    const r = await s.renew(at(end, DAY + MIN));
    expect(r).toMatchObject({ charged: 1, renewed: 1 });
    const recovered = await listRenewals(s.actor, { view: "recovered", limit: 20 }, at(end, DAY + 2 * MIN));
    expect(recovered.data.map((x) => [x.coverageId, x.attempts])).toEqual([[c.id, 2]]);
    const summary = await renewalSummary(s.actor, at(end, DAY + 2 * MIN));
    expect(summary.recoveredLast30Days).toBe(1);
  });
});

describe("the price of a renewal", () => {
  it("a new price is charged only when announced at least 14 days before the period starts", async () => {
    const s = await shop();
    const late = await s.buy();
    // Announced now: the period ends in about a month, more than 14 days away → the new price.
    await updatePolicy(s.actor, s.policy.id, UpdatePolicyInput.parse({ price: "6000.00" }));
    const [told] = await mailsOf(s.orgId, "premium_change");
    expect(told?.recipient).toBe(late.customerEmail);
    expect((await composeMail(told!))!.text).toContain("6,000.00");
    await s.renew(at(late.endsAt, MIN));
    expect((await renewalPayments(late.id)).map((p) => p.amountMinor)).toEqual([600000n]);
    expect((await coverage(late.id)).nextPremiumMinor).toBeNull();

    // Announced 10 days before the end (simulated by the date the notice applies from): the old price.
    const s2 = await shop();
    const soon = await s2.buy();
    await updatePolicy(s2.actor, s2.policy.id, UpdatePolicyInput.parse({ price: "7000.00" }));
    await db.coverage.update({ where: { id: soon.id }, data: { nextPremiumFrom: at(soon.endsAt, 4 * DAY) } });
    await s2.renew(at(soon.endsAt, MIN));
    expect((await renewalPayments(soon.id)).map((p) => p.amountMinor)).toEqual([500000n]);
    // …and the period after that one, the new price.
    const renewed = await coverage(soon.id);
    expect(renewed.nextPremiumMinor).toBe(700000n);
    await s2.renew(at(renewed.endsAt, MIN));
    expect((await renewalPayments(soon.id)).map((p) => p.amountMinor)).toEqual([500000n, 700000n]);
  });
});

describe("the renewal reminder", () => {
  it("of an auto-renewing cover says it renews by itself, the amount and the card; of a manual one, to renew", async () => {
    const s = await shop();
    const auto = await s.buy();
    const manual = await s.buy({ autoRenew: false });
    await s.lifecycle(at(auto.endsAt, -3 * DAY + MIN));
    const mails = await mailsOf(s.orgId, "renewal_reminder");
    const of = async (email: string) => (await composeMail(mails.find((m) => m.recipient === email)!))!;
    const a = await of(auto.customerEmail);
    // (Days counted from the real clock when the mail is composed.)
    expect(a.subject).toMatch(/ renews in \d+ days?$/);
    expect(a.text).toContain("₦5,000.00 to your card ending 4242");
    expect((await of(manual.customerEmail)).subject).toMatch(/ ends in \d+ days?$/);
  });
});

describe("the card notice", () => {
  it("a card expiring before the renewal: the policyholder is asked to update it a week before", async () => {
    const s = await shop("quarterly");
    const now = new Date();
    // Valid for the checkout, expired before the end of the quarter.
    const exp = { month: now.getUTCMonth() + 1, year: now.getUTCFullYear() };
    const c = await s.buy({ exp });
    expect(c.cardNoticeAt?.getTime()).toBe(c.endsAt.getTime() - 7 * DAY);
    expect((await s.renew(at(c.endsAt, -8 * DAY))).cardNotices).toBe(0);
    expect((await s.renew(at(c.endsAt, -7 * DAY + MIN))).cardNotices).toBe(1);
    expect((await s.renew(at(c.endsAt, -6 * DAY))).cardNotices).toBe(0);
    const [mail] = await mailsOf(s.orgId, "card_expiring");
    expect((await composeMail(mail!))!.subject).toContain("Update your card");
    // A card valid past the end gets none.
    const fine = await s.buy();
    expect(fine.cardNoticeAt).toBeNull();
  });
});

describe("two runners at once", () => {
  it("over 200 due covers (each with its own connections, as two instances have): exactly one charge per cover and period", async () => {
    const s = await shop();
    // No mail to the owner for each of the 400 payments: other files' workers share this database's mail queue.
    await updateSettings(s.actor, UpdateSettingsInput.parse({ notifications: { email: false } }));
    const covers = [];
    for (let i = 0; i < 200; i++) covers.push(await s.buy());
    const end = new Date(Math.max(...covers.map((c) => c.endsAt.getTime())) + MIN);
    const results = await Promise.all([s.renew(end), s.renew(end)]);
    // Both took part (the batches are claimed with SKIP LOCKED), and none was charged twice.
    expect(results.every((r) => r.charged > 0)).toBe(true);
    expect(results.reduce((n, r) => n + r.charged, 0)).toBe(200);
    expect(results.reduce((n, r) => n + r.renewed, 0)).toBe(200);
    const payments = await db.payment.findMany({ where: { organizationId: s.orgId, renewalAttempt: { not: null } } });
    expect(payments).toHaveLength(200);
    expect(new Set(payments.map((p) => p.coverageId)).size).toBe(200);
    const rows = await db.coverage.findMany({ where: { organizationId: s.orgId } });
    expect(rows.every((r) => r.renewalCount === 1)).toBe(true);
    expect(await ledgerOf(s.orgId)).toHaveLength(400);
    const summary = await renewalSummary(s.actor, end);
    expect(summary.autoRenewing).toBe(200);
    expect(summary.recurringPremiumPerMonth).toBe("1000000.00");
  });
});
