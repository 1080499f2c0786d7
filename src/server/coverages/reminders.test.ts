// The test clock (simulate the end of a test-mode coverage) and a customer's
// reminders with the state of their mail, against a real database.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { MAIL_MAX_ATTEMPTS } from "@/server/mail/kinds";
import { sessionActor } from "@/server/organizations/service";
import { payWithCard } from "@/server/payments/checkout";
import { InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { addMember, codeOf, ownerWithOrganization, unique } from "@/test/fixtures";
import { runCoverageLifecycle } from "./lifecycle";
import { SimulateEndInput } from "@/lib/schemas/coverage-reminders";
import { listCustomerReminders, simulateCoverageEnd } from "./reminders";
import { card as testCard } from "@/test/money";

const DAY = 86_400_000;
const card = testCard();

async function shop(mode: "live" | "test") {
  const owner = await ownerWithOrganization();
  const actor: Actor =
    mode === "live" ? owner.actor : await sessionActor(owner.user.id, { organizationId: owner.org.id, role: "OWNER" }, true);
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: `Cover ${unique()}`, type: "property", duration: "yearly", price: "50.00" }),
  );
  const email = `holder-${unique()}@example.test`;
  const p = await initializePayment(actor, InitializePaymentInput.parse({ amount: 50, policyId: policy.id, email }));
  await payWithCard(p.reference, card);
  const coverage = await db.coverage.findFirstOrThrow({ where: { organizationId: actor.organizationId, customerEmail: email } });
  const customer = await db.customer.findFirstOrThrow({ where: { organizationId: actor.organizationId, email } });
  return { ...owner, actor, policy, coverage, customer, email };
}

describe("simulate the end of cover (test mode only)", () => {
  it("moves a test coverage's end and schedules its period again", async () => {
    const s = await shop("test");
    // A month ahead of the real clock: workers of other test files (on the same database) leave it alone.
    const now = new Date(Date.now() + 30 * DAY);
    const moved = await simulateCoverageEnd(s.actor, { coverageId: s.coverage.id, endsInDays: 2 }, now);
    expect(moved).toMatchObject({ id: s.coverage.id, status: "active", endsAt: new Date(now.getTime() + 2 * DAY).toISOString() });
    const row = await db.coverage.findUniqueOrThrow({ where: { id: s.coverage.id } });
    expect(row.lapseAt).toEqual(row.endsAt);
    expect(row.remindAt).toEqual(new Date(row.endsAt.getTime() - 14 * DAY));
    expect(row.startsAt).toEqual(s.coverage.startsAt);

    // Ended 10 days ago: expired at once, its start moved back with it.
    const ended = await simulateCoverageEnd(s.actor, { coverageId: s.coverage.id, endsInDays: -10 }, now);
    expect(ended.status).toBe("expired");
    const after = await db.coverage.findUniqueOrThrow({ where: { id: s.coverage.id } });
    expect(after.startsAt.getTime()).toBeLessThanOrEqual(after.endsAt.getTime());

    // "Now": expired at the same instant.
    expect((await simulateCoverageEnd(s.actor, { coverageId: s.coverage.id, endsInDays: 0 }, now)).status).toBe("expired");
  });

  it("is refused live with 409 test_mode_only, the coverage unchanged", async () => {
    const s = await shop("live");
    expect(await codeOf(simulateCoverageEnd(s.actor, { coverageId: s.coverage.id, endsInDays: 1 }))).toBe("test_mode_only");
    expect(await db.coverage.findUniqueOrThrow({ where: { id: s.coverage.id } })).toEqual(s.coverage);
  });

  it("finds only the actor's own test coverages; members may, read keys may not", async () => {
    const a = await shop("test");
    const b = await shop("test");
    expect(await codeOf(simulateCoverageEnd(a.actor, { coverageId: b.coverage.id, endsInDays: 1 }))).toBe("not_found");
    // The live coverage of the same account is not the twin's.
    const live = await shop("live");
    const twinOfLive = await sessionActor(live.user.id, { organizationId: live.org.id, role: "OWNER" }, true);
    expect(await codeOf(simulateCoverageEnd(twinOfLive, { coverageId: live.coverage.id, endsInDays: 1 }))).toBe("not_found");
    expect(await db.coverage.findUniqueOrThrow({ where: { id: b.coverage.id } })).toEqual(b.coverage);

    const member = (await addMember(a.org.id, "MEMBER")).actor;
    const memberInTest: Actor = { ...member, organizationId: a.actor.organizationId, accountId: a.org.id, livemode: false };
    await expect(simulateCoverageEnd(memberInTest, { coverageId: a.coverage.id, endsInDays: 5 })).resolves.toMatchObject({
      status: "active",
    });
    const readKey: Actor = { ...a.actor, apiKey: { id: "key_r", permissions: ["read"] } };
    expect(await codeOf(simulateCoverageEnd(readKey, { coverageId: a.coverage.id, endsInDays: 5 }))).toBe(
      "insufficient_permissions",
    );
  });

  it.each([366, -366, 1.5, "3"])("refuses endsInDays %j", (endsInDays) => {
    const parsed = SimulateEndInput.safeParse({ coverageId: "x", endsInDays });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toBe("Enter a whole number from -365 to 365");
  });
});

describe("a customer's reminders", () => {
  it("lists each reminder with its coverage, period and the mail's state: queued, sent, failed", async () => {
    const s = await shop("test");
    expect(await listCustomerReminders(s.actor, s.customer.id)).toEqual([]);
    // A month ahead of the real clock: workers of other test files (on the same database) leave it alone.
    const now = new Date(Date.now() + 30 * DAY);
    await simulateCoverageEnd(s.actor, { coverageId: s.coverage.id, endsInDays: 10 }, now);
    await runCoverageLifecycle(now, { organizationIds: [s.actor.organizationId] });
    const end = new Date(now.getTime() + 10 * DAY).toISOString();
    const [first] = await listCustomerReminders(s.actor, s.customer.id);
    expect(first).toMatchObject({
      coverageId: s.coverage.id,
      policyId: s.policy.id,
      policyName: s.policy.name,
      daysBefore: 14,
      periodEndsAt: end,
      mail: { status: "queued", sentAt: null, error: null },
    });

    const task = await db.mailTask.findFirstOrThrow({ where: { sourceId: first!.id, kind: "renewal_reminder" } });
    await db.mailTask.update({ where: { id: task.id }, data: { attempts: 2, lastError: "ECONNREFUSED" } });
    expect((await listCustomerReminders(s.actor, s.customer.id))[0]!.mail).toEqual({
      status: "queued",
      sentAt: null,
      error: "ECONNREFUSED",
    });
    await db.mailTask.update({ where: { id: task.id }, data: { attempts: MAIL_MAX_ATTEMPTS } });
    expect((await listCustomerReminders(s.actor, s.customer.id))[0]!.mail.status).toBe("failed");
    const sentAt = new Date();
    await db.mailTask.update({ where: { id: task.id }, data: { sentAt } });
    expect((await listCustomerReminders(s.actor, s.customer.id))[0]!.mail).toEqual({
      status: "sent",
      sentAt: sentAt.toISOString(),
      error: null,
    });

    // The 3-day one of the same period: newest first.
    const later = new Date(now.getTime() + 1000);
    await simulateCoverageEnd(s.actor, { coverageId: s.coverage.id, endsInDays: 2 }, later);
    await runCoverageLifecycle(later, { organizationIds: [s.actor.organizationId] });
    const list = await listCustomerReminders(s.actor, s.customer.id);
    expect(list.map((r) => r.daysBefore)).toEqual([3, 14]);
  });

  it("another organization's customer is not found", async () => {
    const a = await shop("live");
    const b = await shop("live");
    expect(await codeOf(listCustomerReminders(a.actor, b.customer.id))).toBe("not_found");
  });
});
