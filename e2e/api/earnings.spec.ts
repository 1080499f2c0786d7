// Earnings and money out over REST, black-box: money comes in through the
// sandbox checkout, KYB is approved by the platform admin, the bank account is
// added and verified over REST (sandbox code SM11AA). Then: every endpoint's
// shape, the withdraw checks in the SPEC's order, the minimum, Idempotency-Key,
// and concurrent withdrawals that never overdraw.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { problem, restClient, signInPlatformAdmin, unique } from "../support/api";
import { pdfPart, pngPart } from "./_files";
import { buyPolicy, createPolicyFor, errorPaths, ISO, ok, tenantWithClients, trpc } from "./_helpers";

// Specs read loosely-typed JSON and assert on it.
/* eslint-disable @typescript-eslint/no-explicit-any */

type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;

const OVERVIEW = "business/earnings/overview";
const TRANSACTIONS = "business/earnings/transactions";
const WITHDRAW = "business/earnings/withdraw";
const WITHDRAWALS = "business/earnings/withdrawals";
const BANK_ACCOUNTS = "business/payment-methods/bank-accounts";

const WITHDRAWAL_FIELDS = ["amount", "bankAccountId", "completedAt", "createdAt", "currency", "failureReason", "id", "status"];
const TRANSACTION_FIELDS = [
  "amount",
  "balanceAfter",
  "createdAt",
  "currency",
  "description",
  "fee",
  "id",
  "net",
  "reference",
  "type",
];
const today = () => new Date().toISOString().slice(0, 10);

async function approveKyb(t: Tenant) {
  const multipart = { certificateOfIncorporation: await pdfPart(`inc-${unique()}.pdf`), taxCertificate: pngPart("tin.png") };
  await ok(await t.write.post("business/compliance/kyb/submit", { multipart }), 201);
  await trpc(await signInPlatformAdmin(), "admin.approveKyb", { organizationId: t.organizationId });
}

async function addAccount(t: Tenant, { verified = true } = {}) {
  const accountNumber = String(crypto.randomInt(1_000_000_000, 9_999_999_999));
  const account = await ok(
    await t.write.post(BANK_ACCOUNTS, { data: { bankName: "Access Bank", accountNumber, accountName: "Ada Stores Ltd" } }),
    201,
  );
  if (!verified) return account;
  return ok(await t.write.post(`${BANK_ACCOUNTS}/${account.id}/verify`, { data: { verificationCode: "SM11AA" } }));
}

/** Sells one policy at `price` through the sandbox checkout. */
async function earn(t: Tenant, price: string) {
  const policy = await createPolicyFor(t.write, { price });
  await buyPolicy(t.write, policy, `buyer-${unique()}@example.test`);
}

/** KYB approved, a verified account, 98.50 available (100.00 paid, 1.5% fee). */
async function readyTenant() {
  const t = await tenantWithClients();
  await earn(t, "100.00");
  await approveKyb(t);
  const account = await addAccount(t);
  return { t, account };
}

const withdraw = (t: Tenant, amount: unknown, bankAccountId: string, headers: Record<string, string> = {}) =>
  t.write.post(WITHDRAW, { data: { amount, bankAccountId }, headers });
const available = async (t: Tenant) => (await ok(await t.read.get(OVERVIEW))).availableBalance;

test.describe("earnings (REST)", () => {
  test("overview, transactions and withdrawals: exact shapes, signed amounts, newest first", async () => {
    const { t, account } = await readyTenant();
    const w = await ok(await withdraw(t, 25.5, account.id), 201);
    expect(Object.keys(w).sort()).toEqual(WITHDRAWAL_FIELDS);
    expect(w).toMatchObject({
      amount: "25.50",
      currency: "NGN",
      bankAccountId: account.id,
      status: "pending",
      failureReason: null,
      completedAt: null,
    });
    expect(w.createdAt).toMatch(ISO);

    const overview = await ok(await t.read.get(OVERVIEW));
    expect(Object.keys(overview).sort()).toEqual(
      [
        "availableBalance",
        "currency",
        "last30Days",
        "pendingWithdrawals",
        "platformFees",
        "totalEarned",
        "totalWithdrawn",
        "totalRefunded",
        "totalClaimsPaid",
      ].sort(),
    );
    expect(overview).toMatchObject({
      currency: "NGN",
      totalEarned: "100.00",
      platformFees: "1.50",
      availableBalance: "73.00",
      last30Days: { net: "98.50", previous30DaysNet: "0.00" },
    });
    // The sandbox pays it out after PAYOUT_DELAY_SECONDS: pending, processing or paid by now.
    expect(Number(overview.pendingWithdrawals) + Number(overview.totalWithdrawn)).toBe(25.5);

    const tx = await ok(await t.read.get(TRANSACTIONS));
    expect(tx.nextCursor).toBeNull();
    for (const entry of tx.data) expect(Object.keys(entry).sort()).toEqual(TRANSACTION_FIELDS);
    // Newest first: the withdrawal, then the payment and its fee (written together).
    expect([tx.data[0].type, tx.data[0].amount]).toEqual(["withdrawal", "-25.50"]);
    expect(
      tx.data
        .slice(1)
        .map((e: any) => `${e.type} ${e.amount}`)
        .sort(),
    ).toEqual(["fee -1.50", "payment 100.00"]);
    expect(tx.data[0]).toMatchObject({
      currency: "NGN",
      description: `Withdrawal to Access Bank ••••${account.accountNumberLast4}`,
    });
    expect(tx.data[0].reference).toMatch(/^wd_/);
    // The running balance: 73.00 after the withdrawal, then back through the payment and its fee to 0.
    expect(tx.data[0].balanceAfter).toBe("73.00");
    expect(tx.data[1].balanceAfter).toBe((Number("73.00") + 25.5).toFixed(2));
    expect(Number(tx.data[2].balanceAfter)).toBe(Number(tx.data[1].balanceAfter) - Number(tx.data[1].amount));
    expect(Number(tx.data[2].balanceAfter) - Number(tx.data[2].amount)).toBe(0);
    // Folded (the dashboard's statement): one row per payment, gross, fee and net on it, the same balances.
    const folded = await ok(await t.read.get(`${TRANSACTIONS}?fees=folded`));
    expect(folded.data.map((e: any) => [e.type, e.amount, e.fee, e.net, e.balanceAfter])).toEqual([
      ["withdrawal", "-25.50", null, null, "73.00"],
      ["payment", "100.00", "1.50", "98.50", "98.50"],
    ]);
    await problem(await t.read.get(`${TRANSACTIONS}?fees=merged`), 400, "invalid_query");

    const list = await ok(await t.read.get(WITHDRAWALS));
    expect(list.data.map((x: any) => x.id)).toEqual([w.id]);
    for (const x of list.data) expect(Object.keys(x).sort()).toEqual(WITHDRAWAL_FIELDS);
  });

  test("transactions filter by type and UTC day (to inclusive); bad dates are 400 invalid_query", async () => {
    const { t } = await readyTenant();
    expect((await ok(await t.read.get(`${TRANSACTIONS}?type=fee`))).data.map((e: any) => e.amount)).toEqual(["-1.50"]);
    expect((await ok(await t.read.get(`${TRANSACTIONS}?from=${today()}&to=${today()}`))).data).toHaveLength(2);
    expect((await ok(await t.read.get(`${TRANSACTIONS}?to=2000-01-01`))).data).toEqual([]);
    // A type filter leaves entries out: no running balance; pages of the whole ledger carry it on.
    expect((await ok(await t.read.get(`${TRANSACTIONS}?type=fee`))).data[0].balanceAfter).toBeNull();
    const page = await ok(await t.read.get(`${TRANSACTIONS}?limit=1`));
    expect(page.data).toHaveLength(1);
    const next = await ok(await t.read.get(`${TRANSACTIONS}?limit=1&cursor=${page.nextCursor}`));
    expect(next.nextCursor).toBeNull();
    expect(Number(next.data[0].balanceAfter)).toBe(Number(page.data[0].balanceAfter) - Number(page.data[0].amount));
    expect(Number(next.data[0].balanceAfter) - Number(next.data[0].amount)).toBe(0);
    for (const qs of ["from=2026-02-30", "to=tomorrow", "from=2026-03-02&to=2026-03-01", "type=chargeback"]) {
      await problem(await t.read.get(`${TRANSACTIONS}?${qs}`), 400, "invalid_query");
    }
    await problem(await t.read.get(`${WITHDRAWALS}?status=lost`), 400, "invalid_query");
  });

  test("401 without a key or with a wrong one, on every endpoint", async () => {
    for (const client of [await restClient(), await restClient("cd_live_notarealkeynotarealkeynotareal00")]) {
      for (const res of [
        await client.get(OVERVIEW),
        await client.get(TRANSACTIONS),
        await client.get(WITHDRAWALS),
        await client.post(WITHDRAW, { data: { amount: 5, bankAccountId: "x" } }),
      ]) {
        expect(res.status()).toBe(401);
      }
    }
  });

  test("a read-only key reads but cannot withdraw (403); nothing leaves the balance", async () => {
    const { t, account } = await readyTenant();
    await problem(
      await t.read.post(WITHDRAW, { data: { amount: 5, bankAccountId: account.id } }),
      403,
      "insufficient_permissions",
    );
    expect(await available(t)).toBe("98.50");
    expect((await ok(await t.read.get(WITHDRAWALS))).data).toEqual([]);
  });

  test("the checks in order: KYB (409) → account of this organization (404) and verified (409) → balance (409)", async () => {
    const t = await tenantWithClients();
    const other = await readyTenant();
    const unverified = await addAccount(t, { verified: false });
    // Everything is wrong at once: KYB is what is reported.
    await problem(await withdraw(t, 5, unverified.id), 409, "kyb_not_approved");
    await problem(await withdraw(t, 5, other.account.id), 409, "kyb_not_approved");
    await approveKyb(t);
    await problem(await withdraw(t, 5, unverified.id), 409, "bank_account_not_verified");
    await problem(await withdraw(t, 5, other.account.id), 404, "not_found");
    const verified = await addAccount(t);
    await problem(await withdraw(t, 5, verified.id), 409, "insufficient_funds");
    await earn(t, "10.00");
    await problem(await withdraw(t, 9.86, verified.id), 409, "insufficient_funds");
    await ok(await withdraw(t, 9.85, verified.id), 201);
    expect(await available(t)).toBe("0.00");
    // The other organization's money was never touched.
    expect(await available(other.t)).toBe("98.50");
  });

  test("422: below 1.00, more than 2 decimals, missing or wrong fields", async () => {
    const { t, account } = await readyTenant();
    for (const amount of [0.99, 0, -5, 1.001, "5"]) {
      expect(errorPaths(await problem(await withdraw(t, amount, account.id), 422, "validation_failed"))).toEqual(["amount"]);
    }
    const p = await problem(await t.write.post(WITHDRAW, { data: {} }), 422, "validation_failed");
    expect(errorPaths(p).sort()).toEqual(["amount", "bankAccountId"]);
    await ok(await withdraw(t, 1, account.id), 201);
    expect(await available(t)).toBe("97.50");
  });

  test("Idempotency-Key: the same withdraw sent twice creates one withdrawal", async () => {
    const { t, account } = await readyTenant();
    const headers = { "Idempotency-Key": `wd-${unique()}` };
    const first = await ok(await withdraw(t, 10, account.id, headers), 201);
    const again = await withdraw(t, 10, account.id, headers);
    expect(await ok(again, 201)).toEqual(first);
    const ids = (await ok(await t.read.get(WITHDRAWALS))).data.map((w: any) => w.id);
    expect(ids).toEqual([first.id]);
    expect(await available(t)).toBe("88.50");
    await problem(await withdraw(t, 11, account.id, headers), 422, "idempotency_key_reused");
  });

  test("20 concurrent withdrawals of 1.00 from 10.00: exactly 10 succeed, the balance ends at 0.00", async () => {
    const { t, account } = await readyTenant();
    await ok(await withdraw(t, 88.5, account.id), 201);
    expect(await available(t)).toBe("10.00");
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(t, 1, account.id)));
    const statuses = answers.map((r) => r.status()).sort();
    expect(statuses).toEqual([...Array(10).fill(201), ...Array(10).fill(409)]);
    for (const r of answers.filter((a) => a.status() === 409)) expect((await r.json()).code).toBe("insufficient_funds");
    expect(await available(t)).toBe("0.00");
    const withdrawals = (await ok(await t.read.get(`${WITHDRAWALS}?limit=100`))).data;
    expect(withdrawals).toHaveLength(11);
    const debits = (await ok(await t.read.get(`${TRANSACTIONS}?type=withdrawal&limit=100`))).data;
    expect(debits.map((d: any) => d.amount).sort()).toEqual([...Array(10).fill("-1.00"), "-88.50"].sort());
  });
});
