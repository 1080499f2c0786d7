// The coverage lifecycle job against a real database (PostgreSQL with
// DATABASE_URL): renewal reminders exactly once per period even with runs at
// the same time, the most urgent due reminder only, a renewal's new period,
// coverage.expiring at the first reminder, coverage.expired once at the end
// (expired AT endsAt), reminder days changed or emptied, test twins on the
// account's days, and the mail to the policyholder.
//
// Times are chosen a month or more ahead of the real clock, and every run is
// limited to the test's own organizations: other test files share the
// database, and their workers run the job at the real time.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { composeMail } from "@/server/mail/compose";
import { sessionActor } from "@/server/organizations/service";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { updateSettings } from "@/server/settings/service";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { reminderPlan, runCoverageLifecycle } from "./lifecycle";
import { scheduleCoverage } from "./schedule";
import { listCoverages, toCoverage } from "./service";

const DAY = 86_400_000;
const MIN = 60_000;
const at = (t: Date, deltaMs: number) => new Date(t.getTime() + deltaMs);

const card = CheckoutInput.parse({
  cardNumber: SANDBOX_CARDS.success,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: "123",
});

/** An organization selling a yearly policy; `buy` makes (or renews) a coverage through a real payment. */
async function shop(mode: "live" | "test" = "live") {
  const owner = await ownerWithOrganization();
  const actor: Actor =
    mode === "live" ? owner.actor : await sessionActor(owner.user.id, { organizationId: owner.org.id, role: "OWNER" }, true);
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Shop cover", type: "property", duration: "yearly", price: "100.00" }),
  );
  const buy = async (email = `holder-${unique()}@example.test`) => {
    const p = await initializePayment(actor, InitializePaymentInput.parse({ amount: 100, policyId: policy.id, email }));
    await payWithCard(p.reference, card);
    return db.coverage.findFirstOrThrow({ where: { organizationId: actor.organizationId, customerEmail: email } });
  };
  const run = (now: Date) => runCoverageLifecycle(now, { organizationIds: [actor.organizationId] });
  return { ...owner, actor, policy, buy, run, orgId: actor.organizationId };
}

/** Moves a coverage's end (as a renewal or the test tool would) and schedules its new period. */
async function endAt(coverageId: string, endsAt: Date) {
  await db.$transaction(async (tx) => {
    await tx.coverage.update({ where: { id: coverageId }, data: { endsAt, startsAt: at(endsAt, -365 * DAY) } });
    await scheduleCoverage(tx, { id: coverageId });
  });
  return db.coverage.findUniqueOrThrow({ where: { id: coverageId } });
}

const remindersOf = (coverageId: string) =>
  db.coverageReminder.findMany({ where: { coverageId }, orderBy: [{ periodEndsAt: "asc" }, { daysBefore: "desc" }] });
const mailsOf = (organizationId: string) =>
  db.mailTask.findMany({ where: { organizationId, kind: "renewal_reminder" }, orderBy: { createdAt: "asc" } });
const eventsOf = (organizationId: string, type: string) =>
  db.event.findMany({ where: { organizationId, type }, orderBy: { createdAt: "asc" } });

describe("reminderPlan (which reminder is due)", () => {
  const end = new Date("2031-06-30T12:00:00.000Z");
  it.each([
    ["before the first day", [14, 3], -15 * DAY, [], { send: null, next: -14 * DAY }],
    ["exactly 14 days before", [14, 3], -14 * DAY, [], { send: 14, next: -3 * DAY }],
    ["between 14 and 3, 14 sent", [14, 3], -10 * DAY, [14], { send: null, next: -3 * DAY }],
    ["2 days before, nothing sent: only the 3-day one", [14, 3], -2 * DAY, [], { send: 3, next: null }],
    ["2 days before, 3 sent", [14, 3], -2 * DAY, [14, 3], { send: null, next: null }],
    ["days [14, 3, 1] half a day before, 3 sent", [3, 14, 1], -DAY / 2, [14, 3], { send: 1, next: null }],
    ["a larger day added after a smaller one went", [30, 3], -20 * DAY, [3], { send: null, next: -3 * DAY }],
    ["no days", [], -DAY, [], { send: null, next: null }],
  ] as const)("%s", (_, days, offset, sent, expected) => {
    const plan = reminderPlan(end, [...days], [...sent], at(end, offset));
    expect({ send: plan.send, next: plan.next && plan.next.getTime() - end.getTime() }).toEqual(expected);
  });
});

describe("renewal reminders", () => {
  it("go exactly once per coverage and period with two runs at the same time, repeated", async () => {
    const s = await shop();
    const end = at(new Date(), 60 * DAY);
    const coverages = [];
    for (let i = 0; i < 6; i++) coverages.push(await endAt((await s.buy()).id, end));
    expect(coverages.every((c) => c.remindAt?.getTime() === end.getTime() - 14 * DAY)).toBe(true);

    // Not yet due: nothing.
    expect(await s.run(at(end, -14 * DAY - 1))).toEqual({ reminders: 0, expired: 0 });

    for (const [now, days] of [
      [at(end, -14 * DAY + MIN), [14]],
      [at(end, -3 * DAY + MIN), [14, 3]],
    ] as const) {
      let total = 0;
      for (let round = 0; round < 4; round++) {
        const results = await Promise.all([s.run(now), s.run(now)]);
        total += results.reduce((n, r) => n + r.reminders, 0);
      }
      expect(total).toBe(coverages.length);
      for (const c of coverages) {
        const reminders = await remindersOf(c.id);
        expect(reminders.map((r) => [r.daysBefore, r.periodEndsAt.toISOString()])).toEqual(
          days.map((d) => [d, end.toISOString()]),
        );
      }
      const mails = await mailsOf(s.orgId);
      expect(mails).toHaveLength(coverages.length * days.length);
      expect(new Set(mails.map((m) => m.sourceId)).size).toBe(mails.length);
      // Sequential reruns find nothing new.
      expect(await s.run(now)).toEqual({ reminders: 0, expired: 0 });
    }
    // coverage.expiring once per coverage: at the first reminder only.
    const expiring = await eventsOf(s.orgId, "coverage.expiring");
    expect(expiring.map((e) => e.subject).sort()).toEqual(coverages.map((c) => c.id).sort());
    const after = await db.coverage.findMany({ where: { organizationId: s.orgId } });
    expect(after.every((c) => c.remindAt === null)).toBe(true);

    // The end: one coverage.expired each, even from two runs at once.
    const results = await Promise.all([s.run(end), s.run(end)]);
    expect(results[0]!.expired + results[1]!.expired).toBe(coverages.length);
    expect(results[0]!.reminders + results[1]!.reminders).toBe(0);
    expect(await s.run(at(end, DAY))).toEqual({ reminders: 0, expired: 0 });
    expect((await eventsOf(s.orgId, "coverage.expired")).map((e) => e.subject).sort()).toEqual(coverages.map((c) => c.id).sort());
  });

  it("a coverage first seen 2 days before its end gets the 3-day reminder only, with coverage.expiring", async () => {
    const s = await shop();
    const end = at(new Date(), 45 * DAY);
    const c = await endAt((await s.buy()).id, end);
    expect(await s.run(at(end, -2 * DAY))).toEqual({ reminders: 1, expired: 0 });
    expect((await remindersOf(c.id)).map((r) => r.daysBefore)).toEqual([3]);
    const [event] = await eventsOf(s.orgId, "coverage.expiring");
    expect(event!.data).toEqual(toCoverage(c, at(end, -2 * DAY)));
    expect(event!.data).toMatchObject({ id: c.id, status: "active", endsAt: end.toISOString() });
    expect((await db.coverage.findUniqueOrThrow({ where: { id: c.id } })).remindAt).toBeNull();
    expect(await s.run(at(end, -DAY))).toEqual({ reminders: 0, expired: 0 });
  });

  it("go to the policyholder, with the business, policy, end date, days left and the portal's renewal link", async () => {
    const s = await shop();
    const email = `mail-${unique()}@example.test`;
    const end = at(new Date(), 40 * DAY);
    const c = await endAt((await s.buy(email)).id, end);
    await s.run(at(end, -14 * DAY));
    const [task] = await mailsOf(s.orgId);
    expect(task).toMatchObject({ recipient: email, kind: "renewal_reminder", sentAt: null });
    const reminder = (await remindersOf(c.id))[0]!;
    expect(task!.sourceId).toBe(reminder.id);
    expect(task!.data).toEqual({ coverageId: c.id, policyId: s.policy.id, endsAt: end.toISOString(), daysBefore: 14 });
    const mail = (await composeMail(task!))!;
    expect(mail.to).toBe(email);
    expect(mail.subject).toMatch(/^Your Shop cover with Org [0-9a-f]+ ends in (39|40) days$/);
    expect(mail.text).toContain(`${env.APP_URL}/portal/${s.orgId}/coverages/${c.id}`);
    expect(mail.text).toContain("Shop cover");
    expect(mail.text).toContain(s.org.name);
  });

  it("a renewal starts a new period: its reminders and its coverage.expiring come again", async () => {
    const s = await shop();
    const email = `renew-${unique()}@example.test`;
    const end = at(new Date(), 30 * DAY);
    const c = await endAt((await s.buy(email)).id, end);
    await s.run(at(end, -3 * DAY));
    expect((await remindersOf(c.id)).map((r) => r.daysBefore)).toEqual([3]);

    // Paid again: the end moves a year on, and the new period is scheduled.
    const renewed = await s.buy(email);
    expect(renewed.renewalCount).toBe(1);
    const newEnd = renewed.endsAt;
    expect(newEnd.getTime()).toBeGreaterThan(end.getTime());
    expect(renewed.remindAt?.getTime()).toBe(newEnd.getTime() - 14 * DAY);
    expect(renewed.lapseAt?.getTime()).toBe(newEnd.getTime());

    // The old end passes without an expiry: the coverage goes on.
    expect(await s.run(at(end, MIN))).toEqual({ reminders: 0, expired: 0 });
    await s.run(at(newEnd, -14 * DAY));
    await s.run(at(newEnd, -3 * DAY));
    expect((await remindersOf(c.id)).map((r) => [r.periodEndsAt.getTime(), r.daysBefore])).toEqual([
      [end.getTime(), 3],
      [newEnd.getTime(), 14],
      [newEnd.getTime(), 3],
    ]);
    expect(await eventsOf(s.orgId, "coverage.expiring")).toHaveLength(2);
    expect(await mailsOf(s.orgId)).toHaveLength(3);
  });

  it("new reminder days reschedule the coverages that have not ended; none when emptied", async () => {
    const s = await shop();
    const end = at(new Date(), 50 * DAY);
    const c = await endAt((await s.buy()).id, end);
    const ended = await endAt((await s.buy()).id, at(new Date(), -DAY));

    await updateSettings(s.actor, { reminders: { daysBefore: [7, 30] } });
    expect((await db.coverage.findUniqueOrThrow({ where: { id: c.id } })).remindAt?.getTime()).toBe(end.getTime() - 30 * DAY);
    // An ended coverage is not rescheduled (a worker on the real clock may have expired it meanwhile: remindAt null).
    expect((await db.coverage.findUniqueOrThrow({ where: { id: ended.id } })).remindAt?.getTime()).not.toBe(
      ended.endsAt.getTime() - 30 * DAY,
    );

    expect(await s.run(at(end, -14 * DAY))).toMatchObject({ reminders: 1 });
    expect((await remindersOf(c.id)).map((r) => r.daysBefore)).toEqual([30]);

    // Days changed again after the 30-day one went: 30 is not sent again; 7 still comes.
    await updateSettings(s.actor, { reminders: { daysBefore: [30, 7, 2] } });
    expect(await s.run(at(end, -10 * DAY))).toMatchObject({ reminders: 0 });
    expect(await s.run(at(end, -7 * DAY))).toMatchObject({ reminders: 1 });
    expect((await remindersOf(c.id)).map((r) => r.daysBefore)).toEqual([30, 7]);

    // No days: no reminder at all.
    await updateSettings(s.actor, { reminders: { daysBefore: [] } });
    expect((await db.coverage.findUniqueOrThrow({ where: { id: c.id } })).remindAt).toBeNull();
    expect(await s.run(at(end, -2 * DAY))).toMatchObject({ reminders: 0 });
    const fresh = await endAt((await s.buy()).id, end);
    expect(fresh.remindAt).toBeNull();
    expect(await s.run(at(end, -DAY))).toMatchObject({ reminders: 0 });
    expect((await remindersOf(c.id)).map((r) => r.daysBefore)).toEqual([30, 7]);
    expect(await eventsOf(s.orgId, "coverage.expiring")).toHaveLength(1);
  });

  it("a test twin's coverages follow the account's days, and their mail says [Test]", async () => {
    const s = await shop("test");
    expect(s.orgId).not.toBe(s.org.id);
    await updateSettings(s.actor, { reminders: { daysBefore: [5] } });
    const end = at(new Date(), 35 * DAY);
    const email = `twin-${unique()}@example.test`;
    const c = await endAt((await s.buy(email)).id, end);
    expect(c.remindAt?.getTime()).toBe(end.getTime() - 5 * DAY);
    expect(await s.run(at(end, -5 * DAY))).toEqual({ reminders: 1, expired: 0 });
    expect((await remindersOf(c.id)).map((r) => [r.daysBefore, r.organizationId])).toEqual([[5, s.orgId]]);
    const [task] = await mailsOf(s.orgId);
    expect(task!.recipient).toBe(email);
    const mail = (await composeMail(task!))!;
    expect(mail.subject).toMatch(/^\[Test\] Your Shop cover with /);
    expect(mail.text).toContain(`/portal/${s.orgId}/coverages/${c.id}`);
    expect(await eventsOf(s.orgId, "coverage.expiring")).toHaveLength(1);
    expect(await eventsOf(s.org.id, "coverage.expiring")).toHaveLength(0);

    // The account's days change: the twin's coverages are rescheduled too.
    const other = await endAt((await s.buy()).id, at(end, DAY));
    await updateSettings(s.actor, { reminders: { daysBefore: [9] } });
    expect((await db.coverage.findUniqueOrThrow({ where: { id: other.id } })).remindAt).toEqual(at(end, DAY - 9 * DAY));
  });
});

describe("expiry", () => {
  it("a coverage is expired at its end exactly: not one millisecond before", async () => {
    const s = await shop();
    await updateSettings(s.actor, { reminders: { daysBefore: [] } });
    const end = at(new Date(), 33 * DAY);
    const c = await endAt((await s.buy()).id, end);

    const before = at(end, -1);
    expect(await s.run(before)).toEqual({ reminders: 0, expired: 0 });
    expect(toCoverage(c, before).status).toBe("active");
    expect((await listCoverages(s.actor, { limit: 10, status: "active" })).data.map((x) => x.id)).toEqual([c.id]);

    expect(toCoverage(c, end).status).toBe("expired");
    expect(await s.run(end)).toEqual({ reminders: 0, expired: 1 });
    const [event] = await eventsOf(s.orgId, "coverage.expired");
    expect(event).toMatchObject({ subject: c.id });
    expect(event!.data).toMatchObject({ id: c.id, status: "expired", endsAt: end.toISOString() });
    expect(await db.coverage.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ lapseAt: null, remindAt: null });
    expect(await s.run(at(end, 10 * DAY))).toEqual({ reminders: 0, expired: 0 });
    expect(await eventsOf(s.orgId, "coverage.expired")).toHaveLength(1);
  });

  it("an end that moved on meanwhile is rescheduled instead of expired", async () => {
    const s = await shop();
    const end = at(new Date(), 31 * DAY);
    const c = await endAt((await s.buy()).id, end);
    // The end moved without a new schedule (lapseAt stale): the job notices.
    const later = at(end, 90 * DAY);
    await db.coverage.update({ where: { id: c.id }, data: { endsAt: later } });
    expect(await s.run(at(end, MIN))).toEqual({ reminders: 0, expired: 0 });
    expect(await db.coverage.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({
      lapseAt: later,
      remindAt: at(later, -14 * DAY),
    });
    expect(await eventsOf(s.orgId, "coverage.expired")).toHaveLength(0);
  });

  it("a coverage that ended before its reminder was sent gets no reminder, only its expiry", async () => {
    const s = await shop();
    const end = at(new Date(), 32 * DAY);
    const c = await endAt((await s.buy()).id, end);
    expect(await s.run(at(end, DAY))).toEqual({ reminders: 0, expired: 1 });
    expect(await remindersOf(c.id)).toEqual([]);
    expect(await db.coverage.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ lapseAt: null, remindAt: null });
  });

  it("runs are limited to the organizations asked for", async () => {
    const a = await shop();
    const b = await shop();
    const end = at(new Date(), 34 * DAY);
    await endAt((await a.buy()).id, end);
    const cb = await endAt((await b.buy()).id, end);
    expect(await a.run(end)).toMatchObject({ expired: 1 });
    expect(await db.coverage.findUniqueOrThrow({ where: { id: cb.id } })).toMatchObject({ lapseAt: end });
    expect(await runCoverageLifecycle(end, { organizationIds: [] })).toEqual({ reminders: 0, expired: 0 });
  });
});
