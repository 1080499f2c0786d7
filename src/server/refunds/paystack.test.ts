// Money back through Paystack, against a local fake of Paystack's API: a
// refund sent with POST /refund and settled by refund.* webhooks (delivered
// twice: settled once), Paystack down (retried, nothing lost), a crash after
// Paystack accepted a refund but before we recorded it (the retry finds it in
// GET /refund by our reference and never refunds twice); a claim payout's
// transfer recipient, transfer and transfer.* webhooks; the bank list and
// account resolution.
//
// As in src/server/payouts/paystack-transfers.test.ts, PAYSTACK_* are stubbed
// and the cached environment dropped BEFORE any app module is imported.
import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fakePaystack, type FakeRequest } from "@/test/fake-paystack";

const SECRET = "sk_test_coverdesk_fake_money_back_0123456789";

interface FakeRefund {
  id: number;
  transaction: string;
  amount: number;
  merchant_note: string;
  status: string;
}

const fake = {
  refunds: [] as FakeRefund[],
  transfers: new Set<string>(),
  recipients: 0,
  requests: [] as FakeRequest[],
  /** How many next POST /refund answer 500 without refunding. */
  outages: 0,
  /** How many next POST /refund refund, then answer 500 (a crash or timeout after Paystack acted). */
  lostAnswers: 0,
};

const BANKS = [
  { name: "Guaranty Trust Bank", code: "058", active: true },
  { name: "Zenith Bank", code: "057", active: true },
  { name: "Closed Bank", code: "999", active: false },
];

const paystack = fakePaystack({
  secret: SECRET,
  requests: fake.requests,
  route: ({ method, path, body }, reply) => {
    const url = new URL(path, "http://fake");
    if (method === "POST" && url.pathname === "/refund" && body) {
      if (fake.outages > 0) {
        fake.outages--;
        return reply(500, { status: false, message: "Server error" });
      }
      const refund: FakeRefund = {
        id: 1000 + fake.refunds.length,
        transaction: String(body.transaction),
        amount: Number(body.amount),
        merchant_note: String(body.merchant_note ?? ""),
        status: "pending",
      };
      fake.refunds.push(refund);
      if (fake.lostAnswers > 0) {
        fake.lostAnswers--;
        return reply(502, { status: false, message: "Bad gateway" });
      }
      return reply(200, { status: true, message: "Refund has been queued for processing", data: refund });
    }
    if (method === "GET" && url.pathname === "/refund") {
      const transaction = url.searchParams.get("transaction");
      return reply(200, {
        status: true,
        message: "Refunds retrieved",
        data: fake.refunds.filter((r) => r.transaction === transaction),
      });
    }
    if (method === "GET" && url.pathname === "/bank")
      return reply(200, { status: true, message: "Banks retrieved", data: BANKS });
    if (method === "GET" && url.pathname === "/bank/resolve") {
      const number = url.searchParams.get("account_number") ?? "";
      if (number.endsWith("9999")) {
        return reply(422, { status: false, message: "Could not resolve account name. Check parameters or try again." });
      }
      return reply(200, {
        status: true,
        message: "Account number resolved",
        data: { account_number: number, account_name: "MUSA IBRAHIM ALIYU", bank_id: 9 },
      });
    }
    if (method === "POST" && url.pathname === "/transferrecipient" && body) {
      fake.recipients++;
      return reply(201, {
        status: true,
        message: "Transfer recipient created",
        data: { recipient_code: `RCP_${fake.recipients}` },
      });
    }
    if (method === "POST" && url.pathname === "/transfer" && body) {
      const reference = String(body.reference);
      if (fake.transfers.has(reference)) return reply(400, { status: false, message: "Duplicate Transfer Reference" });
      fake.transfers.add(reference);
      return reply(200, {
        status: true,
        message: "Transfer has been queued",
        data: { reference, transfer_code: "TRF_1", status: "pending" },
      });
    }
  },
});

let app: {
  db: typeof import("@/server/db/client").db;
  refunds: typeof import("./service");
  refundJob: typeof import("./job");
  payouts: typeof import("@/server/claim-payouts/service");
  payoutJob: typeof import("@/server/claim-payouts/job");
  provider: typeof import("@/server/payouts/provider");
  webhook: typeof import("@/app/api/webhooks/paystack/route");
  fixtures: typeof import("@/test/fixtures");
  check: typeof import("@/server/ledger/check");
  schemas: typeof import("@/lib/schemas/refunds") & typeof import("@/lib/schemas/claim-payouts");
};

beforeAll(async () => {
  const baseUrl = await paystack.start();
  vi.stubEnv("PAYSTACK_SECRET_KEY", SECRET);
  vi.stubEnv("PAYMENTS_PROVIDER", "");
  vi.stubEnv("PAYSTACK_BASE_URL", baseUrl);
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  const client = await import("@/server/db/client");
  await client.connectDatabase();
  app = {
    db: client.db,
    refunds: await import("./service"),
    refundJob: await import("./job"),
    payouts: await import("@/server/claim-payouts/service"),
    payoutJob: await import("@/server/claim-payouts/job"),
    provider: await import("@/server/payouts/provider"),
    webhook: await import("@/app/api/webhooks/paystack/route"),
    fixtures: await import("@/test/fixtures"),
    check: await import("@/server/ledger/check"),
    schemas: { ...(await import("@/lib/schemas/refunds")), ...(await import("@/lib/schemas/claim-payouts")) },
  };
  expect(app.provider.activePayoutProvider().name).toBe("paystack");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await paystack.stop();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.outages = 0;
  fake.lostAnswers = 0;
});

const sign = (body: string) => crypto.createHmac("sha512", SECRET).update(body).digest("hex");
async function deliver(payload: unknown) {
  const raw = JSON.stringify(payload);
  const headers = new Headers({ "Content-Type": "application/json", "x-paystack-signature": sign(raw) });
  const res = await app.webhook.POST(
    new Request("http://127.0.0.1/api/webhooks/paystack", { method: "POST", headers, body: raw }),
  );
  expect(res.status).toBe(200);
}

/** An owner whose organization was paid 500.00 through Paystack (rows as the settlement writes them). */
async function paidThroughPaystack() {
  const { db, fixtures } = app;
  const owner = await fixtures.ownerWithOrganization();
  const orgId = owner.org.id;
  const policy = await db.policy.create({
    data: { organizationId: orgId, name: "Cover", type: "auto", duration: "yearly", priceMinor: 50000n, currency: "NGN" },
  });
  const reference = `cdp_${crypto.randomBytes(12).toString("hex")}`;
  const paidAt = new Date(Date.now() - 60_000);
  const payment = await db.payment.create({
    data: {
      organizationId: orgId,
      policyId: policy.id,
      reference,
      email: "buyer@example.test",
      amountMinor: 50000n,
      currency: "NGN",
      status: "success",
      provider: "paystack",
      paidAt,
      feeMinor: 0n,
    },
  });
  await db.ledgerTransaction.create({
    data: {
      organizationId: orgId,
      type: "payment",
      amountMinor: 50000n,
      currency: "NGN",
      reference,
      description: "Payment",
      createdAt: paidAt,
    },
  });
  return { ...owner, policy, payment };
}

const refundCalls = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/refund");
const dueNow = (id: string) => app.db.refund.update({ where: { id }, data: { runAt: new Date(Date.now() - 1000) } });

describe("refunds on Paystack", () => {
  it("POST /refund with the payment's reference, the amount and our reference; refund.processed settles it once", async () => {
    const { actor, org, payment } = await paidThroughPaystack();
    const refund = await app.refunds.refundPayment(
      actor,
      payment.reference,
      app.schemas.RefundPaymentInput.parse({ amount: 120, reason: "Duplicate" }),
    );
    await app.refundJob.runDueRefunds();
    const calls = refundCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({
      transaction: payment.reference,
      amount: 12000,
      currency: "NGN",
      customer_note: "Duplicate",
    });
    const row = await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect(calls[0]!.body!.merchant_note).toContain(row.reference);
    expect([row.status, row.providerRefundId, row.sentAt]).toEqual([
      "pending",
      String(fake.refunds.at(-1)!.id),
      expect.any(Date),
    ]);

    // Sent: the job leaves it to Paystack's webhook.
    await dueNow(refund.id);
    await app.refundJob.runDueRefunds();
    expect(refundCalls()).toHaveLength(1);

    const event = {
      event: "refund.processed",
      data: { id: fake.refunds.at(-1)!.id, status: "processed", transaction_reference: payment.reference, amount: "12000" },
    };
    await deliver(event);
    await deliver(event); // Paystack delivers again: nothing more happens
    expect((await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe("processed");
    expect(await app.db.event.count({ where: { organizationId: org.id, type: "payment.refunded" } })).toBe(1);
  });

  it("the webhook never comes: 30 minutes on, the job asks Paystack (GET /refund) and settles it once", async () => {
    const { actor, org, payment } = await paidThroughPaystack();
    const refund = await app.refunds.refundPayment(
      actor,
      payment.reference,
      app.schemas.RefundPaymentInput.parse({ amount: 40 }),
    );
    await app.refundJob.runDueRefunds();
    const sent = await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } });
    // Asked about after REFUND_RECHECK_MS, not at once.
    expect(sent.runAt.getTime() - sent.sentAt!.getTime()).toBeGreaterThanOrEqual(app.refundJob.REFUND_RECHECK_MS - 1000);
    const atPaystack = fake.refunds.at(-1)!;

    // Still pending at Paystack: asked again later, nothing sent twice.
    await dueNow(refund.id);
    await app.refundJob.runDueRefunds();
    const asked = () => fake.requests.filter((r) => r.method === "GET" && r.path.startsWith("/refund?transaction="));
    expect(asked()).toHaveLength(1);
    const later = await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect([later.status, later.runAt > new Date(Date.now() + 60 * 60_000)]).toEqual(["pending", true]);

    // Processed at Paystack, its webhook lost: the next ask settles it, with its event.
    atPaystack.status = "processed";
    await dueNow(refund.id);
    await app.refundJob.runDueRefunds();
    expect((await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } })).status).toBe("processed");
    expect(await app.db.event.count({ where: { organizationId: org.id, type: "payment.refunded" } })).toBe(1);
    // The webhook, late after all, changes nothing; POST /refund was called once.
    await deliver({
      event: "refund.processed",
      data: { id: atPaystack.id, status: "processed", transaction_reference: payment.reference, amount: "4000" },
    });
    expect(await app.db.event.count({ where: { organizationId: org.id, type: "payment.refunded" } })).toBe(1);
    expect(refundCalls()).toHaveLength(1);
    expect((await app.check.checkLedger(org.id)).problems).toEqual([]);
  });

  it("refund.failed puts the money back; found by transaction and amount when Paystack gives no id", async () => {
    const { actor, org, payment } = await paidThroughPaystack();
    const refund = await app.refunds.refundPayment(
      actor,
      payment.reference,
      app.schemas.RefundPaymentInput.parse({ amount: 75 }),
    );
    await app.refundJob.runDueRefunds();
    await deliver({
      event: "refund.failed",
      data: { status: "failed", transaction_reference: payment.reference, amount: "7500" },
    });
    const row = await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect([row.status, row.failureReason]).toEqual(["failed", "Paystack reported the refund as failed"]);
    expect((await app.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).refundedMinor).toBe(0n);
    expect((await app.check.checkLedger(org.id)).problems).toEqual([]);
  });

  it("Paystack down: the refund stays pending and is sent on a later try, once", async () => {
    const { actor, payment } = await paidThroughPaystack();
    const refund = await app.refunds.refundPayment(
      actor,
      payment.reference,
      app.schemas.RefundPaymentInput.parse({ amount: 10 }),
    );
    fake.outages = 1;
    await app.refundJob.runDueRefunds();
    let row = await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect([row.status, row.sentAt, row.attempts]).toEqual(["pending", null, 1]);
    expect(row.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000); // backed off
    await dueNow(refund.id);
    await app.refundJob.runDueRefunds();
    row = await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect(row.sentAt).not.toBeNull();
    expect(fake.refunds.filter((r) => r.merchant_note.includes(row.reference))).toHaveLength(1);
  });

  it("Paystack refunded but its answer was lost: the retry finds the refund by our reference and sends no second one", async () => {
    const { actor, payment } = await paidThroughPaystack();
    const refund = await app.refunds.refundPayment(
      actor,
      payment.reference,
      app.schemas.RefundPaymentInput.parse({ amount: 30 }),
    );
    fake.lostAnswers = 1;
    await app.refundJob.runDueRefunds();
    const reference = (await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } })).reference;
    expect(fake.refunds.filter((r) => r.merchant_note.includes(reference))).toHaveLength(1);
    await dueNow(refund.id);
    await app.refundJob.runDueRefunds();
    expect(fake.refunds.filter((r) => r.merchant_note.includes(reference))).toHaveLength(1);
    expect(fake.requests.some((r) => r.method === "GET" && r.path.startsWith("/refund?transaction="))).toBe(true);
    const row = await app.db.refund.findUniqueOrThrow({ where: { id: refund.id } });
    expect([row.status, row.providerRefundId]).toEqual([
      "pending",
      String(fake.refunds.find((r) => r.merchant_note.includes(reference))!.id),
    ]);
  });
});

describe("claim payouts on Paystack", () => {
  async function approvedClaim(orgId: string, policyId: string) {
    return app.db.claim.create({
      data: {
        organizationId: orgId,
        policyId,
        type: "theft",
        description: "Phone",
        amountMinor: 40000n,
        approvedAmountMinor: 40000n,
        currency: "NGN",
        status: "approved",
      },
    });
  }

  it("resolves the account, creates the recipient, transfers with the payout's reference; transfer.success makes the claim paid", async () => {
    const { actor, org, policy } = await paidThroughPaystack();
    await app.db.kyb.create({ data: { organizationId: org.id, status: "approved" } });
    const claim = await approvedClaim(org.id, policy.id);
    const payout = await app.payouts.payClaim(
      actor,
      claim.id,
      app.schemas.PayClaimInput.parse({ accountNumber: "0123456789", bankCode: "058" }),
    );
    expect(payout).toMatchObject({
      bankName: "Guaranty Trust Bank",
      accountName: "MUSA IBRAHIM ALIYU",
      amount: "400.00",
      status: "pending",
    });
    await app.payoutJob.runDueClaimPayouts();
    const recipient = fake.requests.find((r) => r.path === "/transferrecipient")!;
    expect(recipient.body).toMatchObject({
      type: "nuban",
      account_number: "0123456789",
      bank_code: "058",
      name: "MUSA IBRAHIM ALIYU",
    });
    const row = await app.db.claimPayout.findUniqueOrThrow({ where: { id: payout.id } });
    const transfer = fake.requests.find((r) => r.path === "/transfer")!;
    expect(transfer.body).toMatchObject({ reference: row.reference, amount: 40000, recipient: row.recipientCode });
    expect(row.status).toBe("processing");

    await deliver({ event: "transfer.success", data: { reference: row.reference, status: "success" } });
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe("paid");
    expect(await app.db.event.count({ where: { organizationId: org.id, type: "claim.paid" } })).toBe(1);
  });

  it("transfer.failed after processing: the money back, the claim approved, pay again", async () => {
    const { actor, org, policy } = await paidThroughPaystack();
    await app.db.kyb.create({ data: { organizationId: org.id, status: "approved" } });
    const claim = await approvedClaim(org.id, policy.id);
    const payout = await app.payouts.payClaim(
      actor,
      claim.id,
      app.schemas.PayClaimInput.parse({ accountNumber: "0123456788", bankCode: "057" }),
    );
    await app.payoutJob.runDueClaimPayouts();
    const row = await app.db.claimPayout.findUniqueOrThrow({ where: { id: payout.id } });
    await deliver({ event: "transfer.failed", data: { reference: row.reference, status: "failed" } });
    expect((await app.db.claimPayout.findUniqueOrThrow({ where: { id: payout.id } })).status).toBe("failed");
    expect((await app.db.claim.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe("approved");
    expect((await app.check.checkLedger(org.id)).problems).toEqual([]);
    const again = await app.payouts.payClaim(
      actor,
      claim.id,
      app.schemas.PayClaimInput.parse({ accountNumber: "0123456788", bankCode: "057" }),
    );
    expect(again.status).toBe("pending");
  });

  it("banks from GET /bank (active ones); an account Paystack cannot resolve is 422 and pays nothing", async () => {
    const provider = app.provider.activePayoutProvider();
    expect(await provider.banks("NGN")).toEqual([
      { code: "058", name: "Guaranty Trust Bank" },
      { code: "057", name: "Zenith Bank" },
    ]);
    expect(await provider.resolveAccount("0123456789", "058")).toBe("MUSA IBRAHIM ALIYU");
    const { actor, org, policy } = await paidThroughPaystack();
    await app.db.kyb.create({ data: { organizationId: org.id, status: "approved" } });
    const claim = await approvedClaim(org.id, policy.id);
    const refused = await app.payouts
      .payClaim(actor, claim.id, app.schemas.PayClaimInput.parse({ accountNumber: "0123459999", bankCode: "058" }))
      .catch((e: { status: number; extra: unknown }) => e);
    expect(refused).toMatchObject({ status: 422, extra: { errors: [{ path: "accountNumber" }] } });
    expect(await app.db.claimPayout.count({ where: { claimId: claim.id } })).toBe(0);
  });
});
