// Money out: the order of the checks the SPEC gives, the minimum, the balance
// to the kobo, and the per-organization lock under 50 concurrent requests.
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { env } from "@/server/env";
import { AppError } from "@/server/errors";
import { checkLedger } from "@/server/ledger/check";
import { addMember, ownerWithOrganization, refusal } from "@/test/fixtures";
import { approveKyb, bankAccount, receivePayment } from "@/test/money";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { GivenAmount } from "@/lib/money";
import { availableBalance, listWithdrawals, requestWithdrawal } from "./service";

const withdraw = (amount: number, bankAccountId: string) => WithdrawInput.parse({ amount, bankAccountId });

/** An approved organization with a verified account and 98.50 available (100.00 paid, 1.5% fee). */
async function fundedOrg() {
  const owner = await ownerWithOrganization();
  await receivePayment(owner.actor, "100.00");
  await approveKyb(owner.actor);
  const account = await bankAccount(owner.actor);
  return { ...owner, account };
}

beforeAll(connectDatabase);

describe("requestWithdrawal: the order of the checks", () => {
  it("KYB first, then the account, then the balance", async () => {
    const { actor, org } = await ownerWithOrganization();
    const unverified = await bankAccount(actor, { verified: false });
    const other = await fundedOrg();

    // No KYB, an unverified account, nothing available: KYB is what is reported.
    expect((await refusal(requestWithdrawal(actor, withdraw(5, unverified.id)))).code).toBe("kyb_not_approved");
    // …even for an account of another organization.
    expect((await refusal(requestWithdrawal(actor, withdraw(5, other.account.id)))).code).toBe("kyb_not_approved");

    await approveKyb(actor);
    const notVerified = await refusal(requestWithdrawal(actor, withdraw(5, unverified.id)));
    expect([notVerified.code, notVerified.status]).toEqual(["bank_account_not_verified", 409]);
    // Another organization's verified account does not exist here.
    const foreign = await refusal(requestWithdrawal(actor, withdraw(5, other.account.id)));
    expect([foreign.code, foreign.status]).toEqual(["not_found", 404]);
    expect((await refusal(requestWithdrawal(actor, withdraw(5, "no-such-account")))).code).toBe("not_found");

    const verified = await bankAccount(actor);
    const short = await refusal(requestWithdrawal(actor, withdraw(5, verified.id)));
    expect([short.code, short.status]).toEqual(["insufficient_funds", 409]);
    expect(await db.withdrawal.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it("refuses a removed account (404)", async () => {
    const { actor, account } = await fundedOrg();
    await db.bankAccount.update({ where: { id: account.id }, data: { deletedAt: new Date() } });
    expect((await refusal(requestWithdrawal(actor, withdraw(5, account.id)))).code).toBe("not_found");
  });

  it("only an owner or admin with a write key: MEMBER 403, read-only key 403", async () => {
    const { org, account, actor } = await fundedOrg();
    const { actor: member } = await addMember(org.id, "MEMBER");
    const err = await refusal(requestWithdrawal(member, withdraw(5, account.id)));
    expect([err.code, err.status]).toEqual(["forbidden", 403]);
    const readKey = { ...actor, apiKey: { id: "key", permissions: ["read" as const] } };
    expect((await refusal(requestWithdrawal(readKey, withdraw(5, account.id)))).status).toBe(403);
    const { actor: admin } = await addMember(org.id, "ADMIN");
    await expect(requestWithdrawal(admin, withdraw(5, account.id))).resolves.toMatchObject({ status: "pending" });
    // Reading the withdrawals is any member's.
    expect((await listWithdrawals(member, { limit: 20 })).data).toHaveLength(1);
  });
});

describe("requestWithdrawal: amounts", () => {
  it("minimum 1.00: 0.99 is refused by the schema and the service (422)", async () => {
    const { actor, account } = await fundedOrg();
    const parsed = WithdrawInput.safeParse({ amount: 0.99, bankAccountId: account.id });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("Withdraw at least 1");
    const err = await refusal(requestWithdrawal(actor, { amount: new GivenAmount(9_900n), bankAccountId: account.id }));
    expect([err.code, err.status, err.message]).toEqual(["validation_failed", 422, "amount: Withdraw at least 1.00"]);
    // Three decimals pass the schema (a KWD amount has them) and are refused for naira, with nothing written.
    const kobo = await refusal(requestWithdrawal(actor, withdraw(1.001, account.id)));
    expect([kobo.code, kobo.extra]).toEqual([
      "validation_failed",
      { errors: [{ path: "amount", message: "NGN amounts have at most 2 decimals, like 150.50" }] },
    ]);
    expect(await db.withdrawal.count({ where: { organizationId: actor.organizationId } })).toBe(0);
    await expect(requestWithdrawal(actor, withdraw(1, account.id))).resolves.toMatchObject({ amount: "1.00" });
  });

  it("the exact available balance is fine; one kobo over is 409", async () => {
    const { actor, org, account } = await fundedOrg();
    expect(await availableBalance(org.id)).toBe(9850n);
    const over = await refusal(requestWithdrawal(actor, withdraw(98.51, account.id)));
    expect(over.code).toBe("insufficient_funds");
    expect(over.message).toContain("₦98.50");

    const before = Date.now();
    const w = await requestWithdrawal(actor, withdraw(98.5, account.id));
    expect(w).toEqual({
      id: expect.any(String),
      amount: "98.50",
      currency: "NGN",
      bankAccountId: account.id,
      status: "pending",
      failureReason: null,
      createdAt: expect.any(String),
      completedAt: null,
    });
    expect(await availableBalance(org.id)).toBe(0n);

    const row = await db.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
    expect(row.reference).toMatch(/^wd_[0-9a-f]{32}$/);
    expect(row.provider).toBe("sandbox");
    expect(row.runAt.getTime()).toBeGreaterThanOrEqual(before + env.PAYOUT_DELAY_SECONDS * 1000);
    const debit = await db.ledgerTransaction.findFirstOrThrow({ where: { organizationId: org.id, type: "withdrawal" } });
    expect(debit).toMatchObject({
      amountMinor: -9850n,
      reference: row.reference,
      description: `Withdrawal to Access Bank ••••${account.accountNumberLast4}`,
    });
    const event = await db.event.findFirstOrThrow({ where: { organizationId: org.id, type: "withdrawal.requested" } });
    expect(event.data).toEqual(w);

    expect((await refusal(requestWithdrawal(actor, withdraw(1, account.id)))).code).toBe("insufficient_funds");
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });

  it("50 concurrent withdrawals of 1.00 from 10.00: exactly 10 succeed, the balance ends at 0.00", async () => {
    const { actor, org, account } = await fundedOrg();
    await requestWithdrawal(actor, withdraw(88.5, account.id));
    expect(await availableBalance(org.id)).toBe(1000n);

    const results = await Promise.allSettled(Array.from({ length: 50 }, () => requestWithdrawal(actor, withdraw(1, account.id))));
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as AppError] : []));
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    expect(new Set(refused.map((e) => e.code))).toEqual(new Set(["insufficient_funds"]));
    expect(await availableBalance(org.id)).toBe(0n);
    expect(await db.withdrawal.count({ where: { organizationId: org.id } })).toBe(11);
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });
});

describe("listWithdrawals", () => {
  it("newest first, filtered by status, paginated, this organization only", async () => {
    const { actor, account } = await fundedOrg();
    const other = await fundedOrg();
    await requestWithdrawal(other.actor, withdraw(2, other.account.id));
    const made = [];
    for (const amount of [1, 2, 3]) made.push(await requestWithdrawal(actor, withdraw(amount, account.id)));
    await db.withdrawal.update({ where: { id: made[0]!.id }, data: { status: "paid", completedAt: new Date() } });

    const first = await listWithdrawals(actor, { limit: 2 });
    expect(first.data.map((w) => w.amount)).toEqual(["3.00", "2.00"]);
    const second = await listWithdrawals(actor, { limit: 2, cursor: first.nextCursor! });
    expect(second).toEqual({ data: [expect.objectContaining({ amount: "1.00", status: "paid" })], nextCursor: null });
    expect((await listWithdrawals(actor, { limit: 20, status: "pending" })).data.map((w) => w.amount)).toEqual(["3.00", "2.00"]);
    expect((await listWithdrawals(actor, { limit: 20, status: "failed" })).data).toEqual([]);
  });
});
