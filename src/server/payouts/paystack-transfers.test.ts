// Withdrawals on Paystack against a local fake of Paystack's transfer API: the
// job's transfer request, the signed transfer.* webhooks that settle it, and a
// crash between Paystack's answer and our update (the same reference sent
// again is refused as a duplicate; the first transfer's fate is looked up).
//
// As in src/server/payments/paystack.test.ts, PAYSTACK_* are stubbed and the
// cached environment dropped BEFORE any app module is imported.
import crypto from "node:crypto";
import { fakePaystack, type FakeRequest } from "@/test/fake-paystack";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const SECRET = "sk_test_coverdesk_fake_payouts_0123456789";
const REFUSED_RECIPIENT = "RCP_refused";

interface FakeTransfer {
  reference: string;
  transferCode: string;
  status: string;
}

const fake = {
  transfers: new Map<string, FakeTransfer>(),
  requests: [] as FakeRequest[],
  /** How many next POST /transfer answer 500. */
  outages: 0,
};

const paystack = fakePaystack({
  secret: SECRET,
  requests: fake.requests,
  route: ({ method, path, body }, reply) => {
    if (method === "POST" && path === "/transfer" && body) {
      if (fake.outages > 0) {
        fake.outages--;
        return reply(500, { status: false, message: "Server error" });
      }
      const reference = String(body.reference);
      if (fake.transfers.has(reference)) return reply(400, { status: false, message: "Duplicate Transfer Reference" });
      if (body.recipient === REFUSED_RECIPIENT) return reply(400, { status: false, message: "Recipient account is invalid" });
      const t = { reference, transferCode: `TRF_${crypto.randomBytes(4).toString("hex")}`, status: "pending" };
      fake.transfers.set(reference, t);
      return reply(200, {
        status: true,
        message: "Transfer has been queued",
        data: { reference, transfer_code: t.transferCode, status: t.status, amount: body.amount, currency: body.currency },
      });
    }
    const verify = /^\/transfer\/verify\/([^/]+)$/.exec(path);
    if (method === "GET" && verify) {
      const t = fake.transfers.get(decodeURIComponent(verify[1]!));
      if (!t) return reply(404, { status: false, message: "Transfer not found" });
      return reply(200, {
        status: true,
        message: "Transfer retrieved",
        data: { reference: t.reference, transfer_code: t.transferCode, status: t.status },
      });
    }
  },
});

const transferCalls = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/transfer");

let app: {
  db: typeof import("@/server/db/client").db;
  job: typeof import("./job");
  provider: typeof import("./provider");
  webhook: typeof import("@/app/api/webhooks/paystack/route");
  fixtures: typeof import("@/test/fixtures");
  withdrawals: typeof import("@/server/withdrawals/service");
};

beforeAll(async () => {
  const baseUrl = await paystack.start();
  vi.stubEnv("PAYSTACK_SECRET_KEY", SECRET);
  // Live money through Paystack, not the sandbox the test config selects.
  vi.stubEnv("PAYMENTS_PROVIDER", "");
  vi.stubEnv("PAYSTACK_BASE_URL", baseUrl);
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  const client = await import("@/server/db/client");
  await client.connectDatabase();
  app = {
    db: client.db,
    job: await import("./job"),
    provider: await import("./provider"),
    webhook: await import("@/app/api/webhooks/paystack/route"),
    fixtures: await import("@/test/fixtures"),
    withdrawals: await import("@/server/withdrawals/service"),
  };
  const { env } = await import("@/server/env");
  expect(env.PAYSTACK_BASE_URL).toBe(baseUrl);
  expect(app.provider.activePayoutProvider().name).toBe("paystack");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await paystack.stop();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.outages = 0;
});

const sign = (body: string, secret = SECRET) => crypto.createHmac("sha512", secret).update(body).digest("hex");

function webhookRequest(payload: unknown, secret = SECRET) {
  const raw = JSON.stringify(payload);
  const headers = new Headers({ "Content-Type": "application/json", "x-paystack-signature": sign(raw, secret) });
  return new Request("http://127.0.0.1/api/webhooks/paystack", { method: "POST", headers, body: raw });
}

const transferEvent = (event: string, reference: string) =>
  webhookRequest({ event, data: { reference, amount: 250000, currency: "NGN", status: event.split(".")[1] } });

/**
 * A business with 5,000.00 in its ledger, a Paystack-verified account and a
 * due 2,500.00 Paystack withdrawal — rows written directly (money in through
 * Paystack is another test's subject), as the services write them.
 */
async function paystackWithdrawal(recipientCode = `RCP_${crypto.randomBytes(4).toString("hex")}`) {
  const { db, fixtures } = app;
  const { org } = await fixtures.ownerWithOrganization();
  const now = new Date(Date.now() - 1000);
  await db.ledgerTransaction.create({
    data: {
      organizationId: org.id,
      type: "payment",
      amountMinor: 500000n,
      currency: "NGN",
      reference: `pay_${fixtures.unique()}`,
      description: "Payment",
    },
  });
  const account = await db.bankAccount.create({
    data: {
      organizationId: org.id,
      bankName: "Access Bank",
      accountName: "Ada Stores Ltd",
      accountNumberSealed: "sealed",
      accountNumberLast4: "6789",
      accountNumberHash: fixtures.unique(),
      status: "verified",
      isDefault: true,
      verificationCodeHash: "x",
      provider: "paystack",
      recipientCode,
      verifiedAt: now,
    },
  });
  const reference = `wd_${crypto.randomBytes(16).toString("hex")}`;
  const w = await db.withdrawal.create({
    data: {
      organizationId: org.id,
      bankAccountId: account.id,
      amountMinor: 250000n,
      currency: "NGN",
      reference,
      provider: "paystack",
      runAt: now,
      createdAt: now,
    },
  });
  await db.ledgerTransaction.create({
    data: {
      organizationId: org.id,
      type: "withdrawal",
      amountMinor: -250000n,
      currency: "NGN",
      reference,
      description: "Withdrawal",
      createdAt: now,
    },
  });
  return { org, account, w, recipientCode };
}

const row = (id: string) => app.db.withdrawal.findUniqueOrThrow({ where: { id } });
const eventsOf = (organizationId: string, type: string) => app.db.event.count({ where: { organizationId, type } });
const ledgerOf = (reference: string) =>
  app.db.ledgerTransaction.findMany({
    where: { reference },
    orderBy: { createdAt: "asc" },
    select: { type: true, amountMinor: true },
  });

describe("Paystack transfers", () => {
  it("sends POST /transfer from the balance with the withdrawal's reference, then waits for Paystack's webhook", async () => {
    const { org, w, recipientCode } = await paystackWithdrawal();
    await app.job.runDuePayouts();
    const calls = transferCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.authorization).toBe(`Bearer ${SECRET}`);
    expect(calls[0]!.body).toMatchObject({
      source: "balance",
      amount: 250000,
      recipient: recipientCode,
      reference: w.reference,
      currency: "NGN",
    });
    expect(String(calls[0]!.body?.reason)).toContain("••••6789");
    const sent = await row(w.id);
    expect(sent).toMatchObject({ status: "processing", providerTransferCode: fake.transfers.get(w.reference)!.transferCode });
    expect(await eventsOf(org.id, "withdrawal.processing")).toBe(1);

    // Only Paystack's webhook settles it: later passes do not touch it.
    await app.db.withdrawal.update({ where: { id: w.id }, data: { runAt: new Date(Date.now() - 60_000) } });
    await app.job.runDuePayouts();
    expect(transferCalls()).toHaveLength(1);
    expect((await row(w.id)).status).toBe("processing");
  });

  it("transfer.success marks it paid; the same webhook again changes nothing", async () => {
    const { org, w } = await paystackWithdrawal();
    await app.job.runDuePayouts();
    expect((await app.webhook.POST(transferEvent("transfer.success", w.reference))).status).toBe(200);
    const paid = await row(w.id);
    expect(paid.status).toBe("paid");
    expect(paid.completedAt).toBeInstanceOf(Date);
    expect(await eventsOf(org.id, "withdrawal.paid")).toBe(1);

    expect((await app.webhook.POST(transferEvent("transfer.success", w.reference))).status).toBe(200);
    expect((await app.webhook.POST(transferEvent("transfer.failed", w.reference))).status).toBe(200);
    expect(await row(w.id)).toMatchObject({ status: "paid", completedAt: paid.completedAt });
    expect(await eventsOf(org.id, "withdrawal.paid")).toBe(1);
    expect(await ledgerOf(w.reference)).toEqual([{ type: "withdrawal", amountMinor: -250000n }]);
  });

  it("transfer.failed fails it and puts the money back, once", async () => {
    const { org, w } = await paystackWithdrawal();
    await app.job.runDuePayouts();
    for (let i = 0; i < 2; i++) expect((await app.webhook.POST(transferEvent("transfer.failed", w.reference))).status).toBe(200);
    expect(await row(w.id)).toMatchObject({ status: "failed", failureReason: "Paystack reported the transfer as failed" });
    expect(await ledgerOf(w.reference)).toEqual([
      { type: "withdrawal", amountMinor: -250000n },
      { type: "withdrawal_reversal", amountMinor: 250000n },
    ]);
    expect(await app.withdrawals.availableBalance(org.id)).toBe(500000n);
    expect(await eventsOf(org.id, "withdrawal.failed")).toBe(1);
  });

  it("transfer.reversed after the payout gives the money back", async () => {
    const { org, w } = await paystackWithdrawal();
    await app.job.runDuePayouts();
    await app.webhook.POST(transferEvent("transfer.success", w.reference));
    expect((await app.webhook.POST(transferEvent("transfer.reversed", w.reference))).status).toBe(200);
    expect(await row(w.id)).toMatchObject({ status: "failed", failureReason: "Paystack reversed the transfer" });
    expect(await app.withdrawals.availableBalance(org.id)).toBe(500000n);
  });

  it("refuses a webhook with a bad signature (401) and changes nothing; an unknown reference is a 200 no-op", async () => {
    const { org, w } = await paystackWithdrawal();
    await app.job.runDuePayouts();
    const forged = webhookRequest({ event: "transfer.success", data: { reference: w.reference } }, "sk_test_someone_else");
    expect((await app.webhook.POST(forged)).status).toBe(401);
    expect((await row(w.id)).status).toBe("processing");
    expect((await app.webhook.POST(transferEvent("transfer.failed", "wd_not_ours_at_all_0000"))).status).toBe(200);
    expect(await eventsOf(org.id, "withdrawal.failed")).toBe(0);
  });

  it("fails a transfer Paystack refuses, money back", async () => {
    const { org, w } = await paystackWithdrawal(REFUSED_RECIPIENT);
    await app.job.runDuePayouts();
    expect(await row(w.id)).toMatchObject({
      status: "failed",
      failureReason: "Paystack refused the transfer: Recipient account is invalid",
    });
    expect(await app.withdrawals.availableBalance(org.id)).toBe(500000n);
  });

  it("keeps it pending through a Paystack outage and sends it later", async () => {
    const { w } = await paystackWithdrawal();
    fake.outages = 1;
    await app.job.runDuePayouts();
    expect(await row(w.id)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await row(w.id)).runAt.getTime()).toBeGreaterThan(Date.now());
    await app.db.withdrawal.update({ where: { id: w.id }, data: { runAt: new Date(Date.now() - 1000) } });
    await app.job.runDuePayouts();
    expect((await row(w.id)).status).toBe("processing");
    expect(fake.transfers.has(w.reference)).toBe(true);
  });

  it("after a crash between Paystack's answer and our update, sends nothing twice and picks up the first transfer", async () => {
    const { w, recipientCode } = await paystackWithdrawal();
    // The crashed worker's call: Paystack accepted it, our row still says pending.
    const first = await app.provider.activePayoutProvider().transfer({
      reference: w.reference,
      amountMinor: w.amountMinor,
      currency: w.currency,
      recipientCode,
      bankName: "Access Bank",
      accountNumberLast4: "6789",
    });
    expect(first.status).toBe("processing");
    await app.job.runDuePayouts();
    // Sent again with the same reference, refused as a duplicate, then looked up.
    expect(transferCalls()).toHaveLength(2);
    expect(fake.requests.some((r) => r.method === "GET" && r.path === `/transfer/verify/${w.reference}`)).toBe(true);
    expect(await row(w.id)).toMatchObject({
      status: "processing",
      providerTransferCode: first.status === "processing" ? first.transferCode : "?",
    });
  });
});
