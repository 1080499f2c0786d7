// The payout job on the sandbox provider, with real money in (settled
// payments, approved KYB, a verified account, a real withdrawal request): the
// sandbox pays after its delay, refuses amounts ending in .13 (the money comes
// back and the owner is emailed), and no pass — repeated or concurrent — ever
// transfers one withdrawal twice.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/server/actor";
import { connectDatabase, db } from "@/server/db/client";
import { env } from "@/server/env";
import { composeMail } from "@/server/mail/compose";
import { dispatchEvents } from "@/server/webhooks/jobs";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { availableBalance, requestWithdrawal } from "@/server/withdrawals/service";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { approveKyb, bankAccount, drainDuePayouts, receivePayment } from "@/test/money";
import { payoutRetryDelayS, runDuePayouts } from "./job";
import { sandboxPayouts } from "./sandbox";
import { SANDBOX_TRANSFER_FAILURE } from "./sandbox-transfers";
import { settleWithdrawal } from "./settle";

beforeAll(async () => {
  await connectDatabase();
  await drainDuePayouts(); // the rows earlier files left due in this worker's database
});

/** A business with money to withdraw (100.00 paid in, less the platform fee) and a verified account. */
async function business() {
  const owner = await ownerWithOrganization();
  await receivePayment(owner.actor, "100.00");
  await approveKyb(owner.actor);
  const account = await bankAccount(owner.actor);
  return { ...owner, account, balance: await availableBalance(owner.org.id) };
}

const past = () => new Date(Date.now() - 1000);

/** The time the sandbox's delay stands for has passed. */
const makeDue = (id: string) => db.withdrawal.update({ where: { id }, data: { runAt: past() } });

async function withdraw(actor: Actor, bankAccountId: string, amount: number) {
  const w = await requestWithdrawal(actor, WithdrawInput.parse({ amount, bankAccountId }));
  return makeDue(w.id);
}

const row = (id: string) => db.withdrawal.findUniqueOrThrow({ where: { id } });
const eventsOf = (organizationId: string, type: string) => db.event.count({ where: { organizationId, type } });
const ledgerOf = (reference: string) =>
  db.ledgerTransaction.findMany({
    where: { reference },
    orderBy: { createdAt: "asc" },
    select: { type: true, amountMinor: true },
  });

describe("runDuePayouts on the sandbox", () => {
  it("sends a due withdrawal (processing), then pays it once the delay has passed", async () => {
    const { actor, org, account, balance } = await business();
    const w = await withdraw(actor, account.id, 40);
    expect(await availableBalance(org.id)).toBe(balance - 4000n);

    expect(await runDuePayouts()).toBeGreaterThanOrEqual(1);
    const sent = await row(w.id);
    expect(sent).toMatchObject({ status: "processing", lockedUntil: null, attempts: 1, completedAt: null });
    expect(sent.runAt.getTime()).toBeGreaterThan(Date.now() + (env.PAYOUT_DELAY_SECONDS - 1) * 1000);
    expect(await eventsOf(org.id, "withdrawal.processing")).toBe(1);

    // Not due yet: a pass leaves it alone.
    await runDuePayouts();
    expect((await row(w.id)).status).toBe("processing");

    await makeDue(w.id);
    await runDuePayouts();
    const paid = await row(w.id);
    expect(paid.status).toBe("paid");
    expect(paid.completedAt).toBeInstanceOf(Date);
    expect(paid.failureReason).toBeNull();
    expect(await eventsOf(org.id, "withdrawal.paid")).toBe(1);
    expect(await ledgerOf(w.reference)).toEqual([{ type: "withdrawal", amountMinor: -4000n }]);
    expect(await availableBalance(org.id)).toBe(balance - 4000n);

    // Further passes (and a late duplicate settlement) change nothing.
    await runDuePayouts();
    expect(await settleWithdrawal(w.reference, "failed", "late")).toMatchObject({ status: "paid" });
    expect(await eventsOf(org.id, "withdrawal.paid")).toBe(1);
    expect(await eventsOf(org.id, "withdrawal.failed")).toBe(0);
    expect(await ledgerOf(w.reference)).toHaveLength(1);
  });

  it("fails an amount ending in .13: reason, reversal with the same reference, balance back, owner and admins emailed", async () => {
    const { actor, org, user, account, balance } = await business();
    const admin = await addMember(org.id, "ADMIN");
    const member = await addMember(org.id, "MEMBER");
    const w = await withdraw(actor, account.id, 25.13);
    await runDuePayouts();
    expect((await row(w.id)).status).toBe("processing");
    await makeDue(w.id);
    await runDuePayouts();

    const failed = await row(w.id);
    expect(failed).toMatchObject({ status: "failed", failureReason: SANDBOX_TRANSFER_FAILURE });
    expect(await ledgerOf(w.reference)).toEqual([
      { type: "withdrawal", amountMinor: -2513n },
      { type: "withdrawal_reversal", amountMinor: 2513n },
    ]);
    expect(await availableBalance(org.id)).toBe(balance);
    expect(await eventsOf(org.id, "withdrawal.failed")).toBe(1);

    // A second pass and a duplicate settlement do nothing twice.
    await runDuePayouts();
    await settleWithdrawal(w.reference, "failed", "again");
    expect(await ledgerOf(w.reference)).toHaveLength(2);
    expect(await eventsOf(org.id, "withdrawal.failed")).toBe(1);

    while ((await dispatchEvents()) > 0);
    const tasks = await db.mailTask.findMany({ where: { organizationId: org.id, kind: "withdrawal_failed" } });
    expect(tasks.map((t) => t.recipient).sort()).toEqual([user.email, admin.user.email].map((e) => e.toLowerCase()).sort());
    expect(tasks.map((t) => t.recipient)).not.toContain(member.user.email.toLowerCase());
    const mail = (await composeMail(tasks[0]!))!;
    expect(mail.subject).toContain("25.13");
    for (const text of [mail.text, mail.html]) {
      expect(text).toContain(`••••${account.accountNumberLast4}`);
      expect(text).toContain("The bank refused the transfer");
      expect(text).toContain("money is back in your available balance");
      expect(text).toContain(`${env.APP_URL}/earnings`);
    }
  });

  it("emails nobody about a failed payout when the business turned email notifications off", async () => {
    const { actor, org, account } = await business();
    await db.organization.update({ where: { id: org.id }, data: { notifyEmail: false } });
    const w = await withdraw(actor, account.id, 1.13);
    await runDuePayouts();
    await makeDue(w.id);
    await runDuePayouts();
    expect((await row(w.id)).status).toBe("failed");
    while ((await dispatchEvents()) > 0);
    expect(await db.mailTask.count({ where: { organizationId: org.id, kind: "withdrawal_failed" } })).toBe(0);
  });

  it("never transfers one withdrawal twice, however many passes run at once", async () => {
    const { actor, org, account } = await business();
    const ws: Awaited<ReturnType<typeof withdraw>>[] = [];
    for (let i = 0; i < 6; i++) ws.push(await withdraw(actor, account.id, 2 + i));
    const transfer = vi.spyOn(sandboxPayouts, "transfer");
    try {
      await Promise.all(Array.from({ length: 5 }, () => runDuePayouts()));
      const references = transfer.mock.calls.map(([t]) => t.reference).filter((r) => ws.some((w) => w.reference === r));
      expect(references.sort()).toEqual(ws.map((w) => w.reference).sort());
    } finally {
      transfer.mockRestore();
    }
    for (const w of ws) expect((await row(w.id)).status).toBe("processing");
    expect(await eventsOf(org.id, "withdrawal.processing")).toBe(ws.length);

    await db.withdrawal.updateMany({ where: { id: { in: ws.map((w) => w.id) } }, data: { runAt: past() } });
    await Promise.all(Array.from({ length: 5 }, () => runDuePayouts()));
    for (const w of ws) expect((await row(w.id)).status).toBe("paid");
    expect(await eventsOf(org.id, "withdrawal.paid")).toBe(ws.length);
  });

  it("leaves a withdrawal another worker holds alone until its lease runs out", async () => {
    const { actor, account } = await business();
    const w = await withdraw(actor, account.id, 3);
    await db.withdrawal.update({ where: { id: w.id }, data: { lockedUntil: new Date(Date.now() + 60_000) } });
    await runDuePayouts();
    expect((await row(w.id)).status).toBe("pending");
    await db.withdrawal.update({ where: { id: w.id }, data: { lockedUntil: past() } });
    await runDuePayouts();
    expect((await row(w.id)).status).toBe("processing");
  });

  it("keeps a withdrawal pending and tries again later when the provider cannot be reached", async () => {
    const { actor, org, account, balance } = await business();
    const w = await withdraw(actor, account.id, 5);
    const transfer = vi.spyOn(sandboxPayouts, "transfer").mockRejectedValue(new Error("connect ECONNREFUSED"));
    try {
      await runDuePayouts();
      const waiting = await row(w.id);
      expect(waiting).toMatchObject({ status: "pending", attempts: 1, lockedUntil: null });
      expect(waiting.runAt.getTime()).toBeGreaterThan(Date.now() + (payoutRetryDelayS(1) - 5) * 1000);
      await makeDue(w.id);
      await runDuePayouts();
      expect(await row(w.id)).toMatchObject({ status: "pending", attempts: 2 });
    } finally {
      transfer.mockRestore();
    }
    expect(await availableBalance(org.id)).toBe(balance - 500n);
    await makeDue(w.id);
    await runDuePayouts();
    expect(await row(w.id)).toMatchObject({ status: "processing", attempts: 3 });
    expect(payoutRetryDelayS(2)).toBe(2 * payoutRetryDelayS(1));
    expect(payoutRetryDelayS(50)).toBe(3600);
  });
});
