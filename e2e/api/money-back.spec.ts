// Money back to the insured over HTTP (issue 25): refunds of payments, claim
// payouts to a claimant's bank account with the banks and account names they
// need, and — on PostgreSQL — 30 withdrawals, refunds and claim payouts sent
// at once to two instances against a balance that affords 7 of them, and one
// coverage cancelled 6 times at once while its payment is refunded. The
// 401/403/404-other-organization cases of these endpoints are the generated
// security matrix's (security-matrix.spec.ts); here: what they do, and their
// refusals with nothing changed.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { problem, restClient, signInPlatformAdmin, trpc, unique } from "../support/api";
import { secondInstance } from "../support/second-instance";
import { pdfPart, pngPart } from "./_files";
import { buyPolicy, createPolicyFor, initializeFor, ok, tenantWithClients } from "./_helpers";

type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;

const POSTGRES = process.env.E2E_DATABASE === "postgres";
const REFUND_FIELDS = [
  "amount",
  "createdAt",
  "currency",
  "failureReason",
  "id",
  "paymentReference",
  "processedAt",
  "reason",
  "status",
];
const PAYOUT_FIELDS = [
  "accountName",
  "accountNumberLast4",
  "amount",
  "bankName",
  "claimId",
  "createdAt",
  "currency",
  "failureReason",
  "id",
  "paidAt",
  "status",
];
const SETTLE = { timeout: 30_000, intervals: [250, 500, 1000] };

async function approveKyb(t: Tenant) {
  const multipart = { certificateOfIncorporation: await pdfPart(`inc-${unique()}.pdf`), taxCertificate: pngPart("tin.png") };
  await ok(await t.write.post("business/compliance/kyb/submit", { multipart }), 201);
  await trpc(await signInPlatformAdmin(), "admin.approveKyb", { organizationId: t.organizationId });
}

/** A claim of `amount` on `policyId`, reviewed and approved. */
async function approvedClaim(t: Tenant, policyId: string, amount: number) {
  const claim = await ok(await t.write.post("claims", { data: { policyId, type: "theft", description: "Phone", amount } }), 201);
  await ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "under_review" } }));
  return ok(await t.write.patch(`claims/${claim.id}/status`, { data: { status: "approved" } }));
}

const account = () => `3${String(crypto.randomInt(0, 99_999_999)).padStart(8, "0")}1`;

test.describe("refunds", () => {
  test("full and partial; over what is left 422, a pending payment 409, bad input 4xx, nothing changed; processed after the sandbox's delay", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "100.00" });
    const paid = await buyPolicy(t.write, policy, `refund-${unique()}@example.test`);
    await buyPolicy(t.write, policy, `other-${unique()}@example.test`); // the balance is not what limits here
    const pending = await initializeFor(t.write, policy, `later-${unique()}@example.test`);
    const refundOf = (reference: string, body?: unknown) =>
      t.write.post(`payments/${reference}/refund`, body === undefined ? {} : { data: body });

    // Refusals first: nothing is written by any of them.
    for (const bad of [
      { amount: "ten" },
      { amount: -5 },
      { amount: 10.001 },
      { reason: "x".repeat(501) },
      { amount: 5, extra: 1 },
    ]) {
      const err = await problem(await refundOf(paid.reference, bad), 422, "validation_failed");
      expect(err.errors!.length, JSON.stringify(bad)).toBeGreaterThan(0);
    }
    await problem(await refundOf(pending.reference, { amount: 10 }), 409, "invalid_state");
    await problem(await refundOf("cdp_no_such_payment", { amount: 10 }), 404, "not_found");
    const over = await problem(await refundOf(paid.reference, { amount: 100.01 }), 422, "validation_failed");
    expect(over.errors).toEqual([{ path: "amount", message: "Refund at most what is left of the payment, 100.00" }]);
    expect((await ok(await t.read.get("business/refunds"))).data).toEqual([]);
    expect((await ok(await t.read.get(`payments/verify/${paid.reference}`))).amountRefunded).toBe("0.00");

    const part = await ok(await refundOf(paid.reference, { amount: 40.5, reason: "Charged twice" }), 201);
    expect(Object.keys(part).sort()).toEqual(REFUND_FIELDS);
    expect(part).toMatchObject({
      paymentReference: paid.reference,
      amount: "40.50",
      currency: "NGN",
      status: "pending",
      reason: "Charged twice",
    });
    const rest = await ok(await refundOf(paid.reference), 201); // no body: what is left
    expect(rest.amount).toBe("59.50");
    await problem(await refundOf(paid.reference), 422, "validation_failed");
    expect((await ok(await t.read.get(`payments/verify/${paid.reference}`))).amountRefunded).toBe("100.00");

    // The sandbox processes them after PAYOUT_DELAY_SECONDS.
    await expect.poll(async () => (await ok(await t.read.get("business/refunds?status=processed"))).data.length, SETTLE).toBe(2);
    const listed = await ok(await t.read.get(`business/refunds?paymentReference=${paid.reference}`));
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([rest.id, part.id]);
    expect(listed.data.every((r: { processedAt: string | null }) => r.processedAt !== null)).toBe(true);
    const overview = await ok(await t.read.get("business/earnings/overview"));
    expect(overview).toMatchObject({ totalRefunded: "100.00", availableBalance: String((197 - 100).toFixed(2)) });
    const ledger = await ok(await t.read.get("business/earnings/transactions?type=refund"));
    expect(ledger.data.map((e: { amount: string }) => e.amount).sort()).toEqual(["-40.50", "-59.50"]);
    await problem(await t.read.get("business/refunds?status=lost"), 400, "invalid_query");
  });
});

test.describe("claim payouts", () => {
  test("banks and account names; pay an approved claim in test mode; its checks in order with nothing changed; a refused transfer is paid again", async () => {
    const t = await tenantWithClients(undefined, "test");
    const banks = await ok(await t.read.get("business/payment-methods/banks"));
    expect(banks.data).toContainEqual({ code: "058", name: "Guaranty Trust Bank" });
    const number = account();
    const resolved = await ok(await t.read.get(`business/payment-methods/resolve?accountNumber=${number}&bankCode=058`));
    expect(resolved).toEqual({ accountNumber: number, bankCode: "058", accountName: expect.stringMatching(/^[A-Z]+ [A-Z]+$/) });
    // The same name every time; an unknown account (the sandbox knows none ending in 0000), bank or a malformed number: 422.
    expect(
      (await ok(await t.read.get(`business/payment-methods/resolve?accountNumber=${number}&bankCode=058`))).accountName,
    ).toBe(resolved.accountName);
    for (const qs of [
      "accountNumber=3000010000&bankCode=058",
      `accountNumber=${number}&bankCode=000`,
      "accountNumber=123&bankCode=058",
      "bankCode=058",
    ]) {
      await problem(await t.read.get(`business/payment-methods/resolve?${qs}`), 422, "validation_failed");
    }

    const policy = await createPolicyFor(t.write, { price: "100.00" });
    await buyPolicy(t.write, policy, `holder-${unique()}@example.test`); // 98.50 available
    const submitted = await ok(
      await t.write.post("claims", { data: { policyId: policy.id, type: "fire", description: "Kitchen", amount: 20 } }),
      201,
    );
    const payOf = (id: string, body: unknown) => t.write.post(`claims/${id}/payout`, { data: body });
    await problem(await payOf(submitted.id, { accountNumber: number, bankCode: "058" }), 409, "invalid_state");

    const claim = await approvedClaim(t, policy.id, 60);
    for (const bad of [
      { accountNumber: number },
      { accountNumber: "12ab", bankCode: "058" },
      { accountNumber: number, bankCode: "058", amount: 0 },
    ]) {
      await problem(await payOf(claim.id, bad), 422, "validation_failed");
    }
    const over = await problem(
      await payOf(claim.id, { accountNumber: number, bankCode: "058", amount: 60.01 }),
      422,
      "validation_failed",
    );
    expect(over.errors).toEqual([{ path: "amount", message: "Pay at most the approved amount, 60.00" }]);
    await problem(await payOf(claim.id, { accountNumber: "3000010000", bankCode: "058" }), 422, "validation_failed");
    expect((await ok(await t.read.get(`claims/${claim.id}/payouts`))).data).toEqual([]);

    // A refused transfer (the sandbox's bank refuses amounts ending in .13): the money back, the claim approved.
    const refused = await ok(await payOf(claim.id, { accountNumber: number, bankCode: "058", amount: 10.13 }), 201);
    expect(Object.keys(refused).sort()).toEqual(PAYOUT_FIELDS);
    expect(refused).toMatchObject({
      status: "pending",
      bankName: "Guaranty Trust Bank",
      accountName: resolved.accountName,
      accountNumberLast4: number.slice(-4),
    });
    await problem(await payOf(claim.id, { accountNumber: number, bankCode: "058" }), 409, "payout_exists");
    await expect
      .poll(async () => (await ok(await t.read.get(`claims/${claim.id}/payouts`))).data[0].status, SETTLE)
      .toBe("failed");
    expect((await ok(await t.read.get(`claims/${claim.id}`))).status).toBe("approved");

    const payout = await ok(await payOf(claim.id, { accountNumber: number, bankCode: "058" }), 201);
    expect(payout.amount).toBe("60.00");
    await expect.poll(async () => (await ok(await t.read.get(`claims/${claim.id}`))).status, SETTLE).toBe("paid");
    const payouts = (await ok(await t.read.get(`claims/${claim.id}/payouts`))).data;
    expect(payouts.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([
      [payout.id, "paid"],
      [refused.id, "failed"],
    ]);
    expect(payouts[0].paidAt).not.toBeNull();
    const overview = await ok(await t.read.get("business/earnings/overview"));
    expect(overview).toMatchObject({ totalClaimsPaid: "60.00", availableBalance: "38.50" });
  });

  test("live mode: KYB first (409 kyb_not_approved), nothing written", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "100.00" });
    await buyPolicy(t.write, policy, `holder-${unique()}@example.test`);
    const claim = await approvedClaim(t, policy.id, 10);
    await problem(
      await t.write.post(`claims/${claim.id}/payout`, { data: { accountNumber: account(), bankCode: "058" } }),
      409,
      "kyb_not_approved",
    );
    expect((await ok(await t.read.get(`claims/${claim.id}/payouts`))).data).toEqual([]);
    expect((await ok(await t.read.get("business/earnings/overview"))).availableBalance).toBe("98.50");
  });
});

test.describe("cancellations", () => {
  test("quote then cancel: the whole premium back in the cooling-off days, the coverage cancelled everywhere; bad input 422 and twice 409, nothing changed", async ({
    request,
  }) => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "200.00" });
    await buyPolicy(t.write, policy, `other-${unique()}@example.test`); // the balance the refund needs
    const email = `cancel-${unique()}@example.test`;
    const paid = await buyPolicy(t.write, policy, email);
    const id = paid.coverage.id as string;

    const coverage = await ok(await t.read.get(`business/coverages/${id}`));
    expect(coverage).toMatchObject({ id, status: "active", customerEmail: email, cancelledAt: null, cancellationReason: null });
    const quote = await ok(await t.read.get(`business/coverages/${id}/cancellation-quote`));
    expect(quote).toMatchObject({
      rule: "cooling_off",
      refundAmount: "200.00",
      currency: "NGN",
      coolingOffDays: 14,
      paymentReference: paid.reference,
    });

    for (const bad of [
      {},
      { reason: "" },
      { reason: "x".repeat(501) },
      { reason: "Moved", refund: "some" },
      { reason: "Moved", extra: 1 },
    ]) {
      await problem(await t.write.post(`business/coverages/${id}/cancel`, { data: bad }), 422, "validation_failed");
    }
    expect(await ok(await t.read.get(`business/coverages/${id}`))).toEqual(coverage);

    const cancelled = await ok(await t.write.post(`business/coverages/${id}/cancel`, { data: { reason: "Sold the shop" } }));
    expect(cancelled).toMatchObject({
      status: "cancelled",
      cancellationReason: "Sold the shop",
      refund: { paymentReference: paid.reference, amount: "200.00", status: "pending" },
    });
    expect((await ok(await t.read.get(`payments/verify/${paid.reference}`))).amountRefunded).toBe("200.00");
    const err = await problem(
      await t.write.post(`business/coverages/${id}/cancel`, { data: { reason: "Again" } }),
      409,
      "invalid_state",
    );
    expect(err.detail).toBe("This coverage is cancelled already");
    await problem(await t.read.get(`business/coverages/${id}/cancellation-quote`), 409, "invalid_state");
    const listed = await ok(await t.read.get(`business/coverages?status=cancelled`));
    expect(listed.data.map((c: { id: string }) => c.id)).toEqual([id]);

    // The public verification page says so.
    const page = await request.get(`/verify/${coverage.certificateNumber}`);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain("The cover it certifies was cancelled");
  });
});

test.describe("one balance lock across two instances", () => {
  // One worker runs them all.
  test.describe.configure({ mode: "serial" });
  test.skip(!POSTGRES, "the embedded database is owned by one process: a second instance cannot open it (PostgreSQL run only)");
  // Started by playwright.config.ts with WORKER=false.
  const second = secondInstance();
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await second.start();
  });

  test("30 withdrawals, refunds and claim payouts at once, half to each instance, against 394.00: 7 go through, the rest 409/422; the ledger holds", async () => {
    test.setTimeout(120_000);
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "100.00" });
    const payments: { reference: string }[] = [];
    for (let i = 0; i < 4; i++) payments.push(await buyPolicy(t.write, policy, `buyer-${i}-${unique()}@example.test`));
    await approveKyb(t);
    const bank = await ok(
      await t.write.post("business/payment-methods/bank-accounts", {
        data: { bankName: "Access Bank", accountNumber: account(), accountName: "Ada Stores" },
      }),
      201,
    );
    await ok(
      await t.write.post(`business/payment-methods/bank-accounts/${bank.id}/verify`, { data: { verificationCode: "SM11AA" } }),
    );
    const claims = [];
    for (let i = 0; i < 10; i++) claims.push(await approvedClaim(t, policy.id, 50));
    expect((await ok(await t.read.get("business/earnings/overview"))).availableBalance).toBe("394.00");

    const onB = await restClient(t.writeKey, {}, second.base);
    const requests = [
      ...Array.from({ length: 10 }, () => ["business/earnings/withdraw", { amount: 50, bankAccountId: bank.id }] as const),
      ...Array.from({ length: 10 }, (_, i) => [`payments/${payments[i % 4]!.reference}/refund`, { amount: 50 }] as const),
      ...claims.map((c) => [`claims/${c.id}/payout`, { accountNumber: account(), bankCode: "058" }] as const),
    ];
    const answers = await Promise.all(requests.map(([path, data], i) => (i % 2 ? onB : t.write).post(path, { data })));
    const statuses = answers.map((r) => r.status());
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409 || s === 422)).toBe(true);
    expect((await ok(await t.read.get("business/earnings/overview"))).availableBalance).toBe("44.00");

    const check = spawnSync("npm", ["run", "-s", "ledger:check", "--", "--org", t.organizationId], {
      env: process.env,
      encoding: "utf8",
    });
    expect(check.stdout + check.stderr).toContain("ledger ok: 1 organizations");
    expect(check.status).toBe(0);
  });

  test("one coverage cancelled 6 times at once and its payment refunded 4 times, across both instances: one cancellation, never more back than was paid", async () => {
    test.setTimeout(120_000);
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "100.00" });
    const holder = await buyPolicy(t.write, policy, `holder-${unique()}@example.test`);
    for (let i = 0; i < 2; i++) await buyPolicy(t.write, policy, `funder-${i}-${unique()}@example.test`);
    const coverageId = (holder.coverage as { id: string }).id;

    const onB = await restClient(t.writeKey, {}, second.base);
    const requests = [
      ...Array.from({ length: 6 }, () => [`business/coverages/${coverageId}/cancel`, { reason: "Sold the car" }] as const),
      ...Array.from({ length: 4 }, () => [`payments/${holder.reference}/refund`, { amount: 30 }] as const),
    ];
    const answers = await Promise.all(requests.map(([path, data], i) => (i % 2 ? onB : t.write).post(path, { data })));
    const cancels = answers.slice(0, 6).map((r) => r.status());
    const refunds = answers.slice(6).map((r) => r.status());
    expect(
      cancels.filter((s) => s === 200),
      JSON.stringify(cancels),
    ).toHaveLength(1);
    expect(
      cancels.filter((s) => s !== 200).every((s) => s === 409),
      JSON.stringify(cancels),
    ).toBe(true);
    expect(
      refunds.every((s) => s === 201 || s === 422),
      JSON.stringify(refunds),
    ).toBe(true);

    // The cancellation refunded what was left when it ran; with the refunds, never more than the 100.00 paid.
    const cancelled = await answers[cancels.indexOf(200)]!.json();
    const back = (await ok(await t.read.get(`business/refunds?paymentReference=${holder.reference}&limit=100`))).data as {
      amount: string;
    }[];
    const total = back.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
    expect(back).toHaveLength(refunds.filter((s) => s === 201).length + (cancelled.refund ? 1 : 0));
    expect(total).toBeLessThanOrEqual(10_000);
    expect((await ok(await t.read.get(`payments/verify/${holder.reference}`))).amountRefunded).toBe((total / 100).toFixed(2));
    expect((await ok(await t.read.get(`business/coverages/${coverageId}`))).status).toBe("cancelled");

    const check = spawnSync("npm", ["run", "-s", "ledger:check", "--", "--org", t.organizationId], {
      env: process.env,
      encoding: "utf8",
    });
    expect(check.stdout + check.stderr).toContain("ledger ok: 1 organizations");
    expect(check.status).toBe(0);
  });
});
