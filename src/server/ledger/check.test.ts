// The ledger check: a healthy organization passes; entries written by hand
// that break an invariant are reported, and so are analytics rollups changed
// behind the triggers' back.
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { settleWithdrawal } from "@/server/payouts/settle";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { requestWithdrawal } from "@/server/withdrawals/service";
import { ownerWithOrganization } from "@/test/fixtures";
import { approveKyb, bankAccount, receivePayment } from "@/test/money";
import { formatMinor } from "@/lib/money";
import { checkLedger, ledgerCheckReport, organizationsToCheck } from "./check";

/** Payments, a pending, a paid and a failed withdrawal: everything done through the services. */
async function healthyOrg() {
  const owner = await ownerWithOrganization();
  await receivePayment(owner.actor, "100.00");
  await approveKyb(owner.actor);
  const account = await bankAccount(owner.actor);
  const withdraw = async (amount: number) => {
    const w = await requestWithdrawal(owner.actor, WithdrawInput.parse({ amount, bankAccountId: account.id }));
    return db.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
  };
  await withdraw(10);
  await settleWithdrawal((await withdraw(20)).reference, "paid");
  const failed = await withdraw(30.13);
  await settleWithdrawal(failed.reference, "failed", "refused");
  return { ...owner, failed, withdraw };
}

const entry = (
  organizationId: string,
  type: "withdrawal" | "withdrawal_reversal" | "payment",
  amountMinor: bigint,
  reference: string,
) => ({
  organizationId,
  type,
  amountMinor,
  currency: "NGN",
  reference,
  description: "written by hand",
});

beforeAll(connectDatabase);

describe("checkLedger", () => {
  it("passes a healthy organization", async () => {
    const { org } = await healthyOrg();
    expect(await checkLedger(org.id)).toEqual({ organizations: 1, problems: [] });
  });

  it("reports a debit that overdraws and has no withdrawal", async () => {
    const { org } = await healthyOrg();
    await db.ledgerTransaction.create({ data: entry(org.id, "withdrawal", -100_000n, "wd_by_hand") });
    const { problems } = await checkLedger(org.id);
    const messages = problems.map((p) => p.message);
    expect(problems.every((p) => p.organizationId === org.id)).toBe(true);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^balance -931\.50 after entry /),
        "1 withdrawal entr(ies) with reference wd_by_hand and no withdrawal",
      ]),
    );
  });

  it("reports a balance that was negative for a while, even when it ends positive", async () => {
    const { org } = await ownerWithOrganization();
    const t = Date.now() - 60_000;
    await db.ledgerTransaction.create({ data: { ...entry(org.id, "payment", 1000n, "p1"), createdAt: new Date(t + 1000) } });
    expect((await checkLedger(org.id)).problems).toEqual([]);
    const early = await db.ledgerTransaction.create({
      data: { ...entry(org.id, "payment", 1000n, "p0"), type: "fee", amountMinor: -500n, createdAt: new Date(t) },
    });
    expect(await checkLedger(org.id)).toEqual({
      organizations: 1,
      problems: [{ organizationId: org.id, message: `balance -5.00 after entry ${early.id} (${new Date(t).toISOString()})` }],
    });
  });

  it("reports a failed withdrawal without its reversal, and a second reversal", async () => {
    const { org, failed, withdraw } = await healthyOrg();
    const pending = await withdraw(1);
    await db.withdrawal.update({ where: { id: pending.id }, data: { status: "failed" } });
    await db.ledgerTransaction.create({ data: entry(org.id, "withdrawal_reversal", failed.amountMinor, failed.reference) });
    const messages = (await checkLedger(org.id)).problems.map((p) => p.message);
    expect(messages.sort()).toEqual(
      [
        `withdrawal ${pending.id} (failed) has 1 withdrawal debit(s) and 0 reversal(s)`,
        `withdrawal ${failed.id} (failed) has 1 withdrawal debit(s) and 2 reversal(s)`,
      ].sort(),
    );
  });

  it("reports analytics rollups that disagree with the rows they count", async () => {
    const { org } = await healthyOrg();
    const day = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    // Written behind the triggers' back, as a lost or doubled trigger would.
    await db.dailyStats.update({
      where: { organizationId_day: { organizationId: org.id, day } },
      data: { grossMinor: { increment: 1_000n }, purchases: { increment: 2 } },
    });
    expect((await checkLedger(org.id)).problems).toEqual([
      { organizationId: org.id, message: "daily_stats totals ≠ analytics_source: purchases 3 ≠ 1, grossMinor 110.00 ≠ 100.00" },
    ]);
    const [policyDay] = await db.policyDailyStats.findMany({ where: { organizationId: org.id }, take: 1 });
    await db.policyDailyStats.update({
      where: { organizationId_policyId_day: { organizationId: org.id, policyId: policyDay!.policyId, day: policyDay!.day } },
      data: { paymentsFailed: { increment: 1 } },
    });
    expect((await checkLedger(org.id)).problems.map((p) => p.message)).toEqual([
      "daily_stats totals ≠ analytics_source: purchases 3 ≠ 1, grossMinor 110.00 ≠ 100.00",
      "policy_daily_stats totals ≠ analytics_source: paymentsFailed 1 ≠ 0",
    ]);
  });

  it("reports a day sum of the ledger (what the earnings pages read) that disagrees with its entries", async () => {
    const { org } = await healthyOrg();
    const [day] = await db.ledgerDaily.findMany({ where: { organizationId: org.id, type: "payment" }, take: 1 });
    expect(day!.entries).toBeGreaterThan(0);
    // Written behind the trigger's back, as a lost or doubled trigger would.
    await db.ledgerDaily.update({
      where: { organizationId_day_type: { organizationId: org.id, day: day!.day, type: "payment" } },
      data: { amountMinor: { increment: 500n } },
    });
    const iso = day!.day.toISOString().slice(0, 10);
    expect((await checkLedger(org.id)).problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^overview availableBalance .* ≠ ledger balance /),
      `ledger_daily ${iso} payment: ${formatMinor(day!.amountMinor + 500n, "NGN")} in ${day!.entries} entries ≠ the entries' ${formatMinor(day!.amountMinor, "NGN")} in ${day!.entries}`,
    ]);
  });

  it("day sums stay exact when many entries of one organization and day commit at once, each in its own transaction", async () => {
    const { org } = await ownerWithOrganization();
    const amounts = Array.from({ length: 40 }, (_, i) => BigInt(100 + i));
    // Concurrent commits all add to the same (organization, day, payment) row at their commit.
    await Promise.all(
      amounts.map((amountMinor, i) =>
        db.$transaction(async (tx) => {
          await tx.ledgerTransaction.create({ data: entry(org.id, "payment", amountMinor, `cdp_race_${i}`) });
          await new Promise((r) => setTimeout(r, 5)); // held open, so the commits overlap
        }),
      ),
    );
    // One row per UTC day (two if the test straddles midnight).
    const days = await db.ledgerDaily.aggregate({
      where: { organizationId: org.id, type: "payment" },
      _sum: { entries: true, amountMinor: true },
    });
    expect(days._sum.entries).toBe(40);
    expect(days._sum.amountMinor).toBe(amounts.reduce((a, b) => a + b, 0n));
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });

  it("reports ledger entries in another currency than the organization's", async () => {
    const { org } = await healthyOrg();
    // A credit in USD on an NGN business: the balance and the rollups still add up, the currency does not.
    const forged = await db.ledgerTransaction.create({
      data: { ...entry(org.id, "payment", 985n, "cdp_forged"), currency: "USD" },
    });
    expect(await checkLedger(org.id)).toEqual({
      organizations: 1,
      problems: [
        {
          organizationId: org.id,
          message: `1 ledger entr(ies) in USD, not the organization's currency NGN (first: ${forged.id})`,
        },
      ],
    });
    const report = await ledgerCheckReport(org.id);
    expect(report.exitCode).toBe(1);
    // The business's currency changed behind the rules' back: every NGN entry is now foreign.
    await db.organization.update({ where: { id: org.id }, data: { currency: "USD" } });
    const messages = (await checkLedger(org.id)).problems.map((p) => p.message);
    expect(messages).toEqual([
      expect.stringMatching(/^\d+ ledger entr\(ies\) in NGN, not the organization's currency USD \(first: /),
    ]);
  });

  it("checks an organization that only has rollups (payments that never succeeded)", async () => {
    const { org } = await ownerWithOrganization();
    await db.dailyStats.create({ data: { organizationId: org.id, day: new Date("2025-01-01T00:00:00Z"), paymentsCreated: 1 } });
    expect(await organizationsToCheck()).toContain(org.id);
    expect((await checkLedger(org.id)).problems).toEqual([
      { organizationId: org.id, message: "daily_stats totals ≠ analytics_source: paymentsCreated 1 ≠ 0" },
    ]);
    await db.dailyStats.deleteMany({ where: { organizationId: org.id } });
  });

  it("the ledger:check report: one line per problem and exit 1, or ledger ok", async () => {
    const { org } = await healthyOrg();
    expect(await ledgerCheckReport(org.id)).toEqual({ lines: ["ledger ok: 1 organizations"], exitCode: 0 });
    await db.ledgerTransaction.create({ data: entry(org.id, "withdrawal", -100_000n, "wd_by_hand") });
    const broken = await ledgerCheckReport(org.id);
    expect(broken.exitCode).toBe(1);
    expect(broken.lines).toHaveLength(2);
    expect(broken.lines.every((l) => l.startsWith(`${org.id}: `))).toBe(true);
  });
});
