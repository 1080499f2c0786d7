import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy, setPolicyStatus } from "@/server/policies/service";
import { codeOf, ownerWithOrganization } from "@/test/fixtures";
import { payWithCard, SANDBOX_CARDS } from "./checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment, listPayments, verifyPayment } from "./service";
import { settlePayment } from "./settle";

const card = (cardNumber: string) =>
  CheckoutInput.parse({ cardNumber, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" });

async function shop(price = "150.00", duration: "monthly" | "yearly" = "yearly") {
  const { actor, org } = await ownerWithOrganization();
  const policy = await createPolicy(actor, CreatePolicyInput.parse({ name: "Gadget cover", type: "property", duration, price }));
  const pay = (email = "ada@example.test", amount = Number(price)) =>
    initializePayment(actor, InitializePaymentInput.parse({ amount, policyId: policy.id, email }));
  return { actor, org, policy, pay };
}

describe("payments", () => {
  it("initializes a pending payment with a hosted checkout URL", async () => {
    const { pay, policy } = await shop();
    const p = await pay("Ada@Example.test");
    expect(p).toMatchObject({
      status: "pending",
      amount: "150.00",
      currency: "NGN",
      policyId: policy.id,
      email: "ada@example.test",
      paidAt: null,
    });
    expect(p.reference).toMatch(/^cdp_[A-Za-z0-9_-]{24}$/);
    expect(p.authorizationUrl).toMatch(new RegExp(`/pay/${p.reference}$`));
  });

  it("refuses another amount (422) and an inactive policy (409)", async () => {
    const { pay, actor, policy } = await shop();
    expect(await codeOf(pay("a@x.test", 150.01))).toBe("amount_mismatch");
    await setPolicyStatus(actor, policy.id, false);
    expect(await codeOf(pay())).toBe("policy_inactive");
    expect((await listPayments(actor, { limit: 20 })).data).toEqual([]);
  });

  it("settles once: ledger credit and fee, coverage, events — all together", async () => {
    const { pay, actor, org, policy } = await shop("1000.00");
    const p = await pay();
    await payWithCard(p.reference, card(SANDBOX_CARDS.success));
    const verified = await verifyPayment(actor, p.reference);
    expect(verified).toMatchObject({
      status: "success",
      coverage: { policyId: policy.id, customerEmail: "ada@example.test", status: "active", renewalCount: 0 },
    });
    const ledger = await db.ledgerTransaction.findMany({ where: { organizationId: org.id }, orderBy: { type: "asc" } });
    expect(ledger.map((l) => [l.type, l.amountMinor])).toEqual([
      ["payment", 100000n],
      ["fee", -1500n],
    ]);
    const events = await db.event.findMany({ where: { organizationId: org.id }, orderBy: { type: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["payment.completed", "policy.purchased"]);
    expect(await codeOf(payWithCard(p.reference, card(SANDBOX_CARDS.success)))).toBe("payment_not_pending");
  });

  it("renews: the second payment extends the coverage from its end", async () => {
    const { pay, org } = await shop("10.00", "monthly");
    const first = await pay();
    await payWithCard(first.reference, card(SANDBOX_CARDS.success));
    const before = await db.coverage.findFirstOrThrow({ where: { organizationId: org.id } });
    const second = await pay();
    await payWithCard(second.reference, card(SANDBOX_CARDS.success));
    const after = await db.coverage.findFirstOrThrow({ where: { organizationId: org.id } });
    expect(after.id).toBe(before.id);
    expect(after.renewalCount).toBe(1);
    const expected = new Date(before.endsAt);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(after.endsAt.toISOString()).toBe(expected.toISOString());
    const types = (await db.event.findMany({ where: { organizationId: org.id } })).map((e) => e.type).sort();
    expect(types).toEqual(["payment.completed", "payment.completed", "policy.purchased", "policy.renewed"]);
  });

  it("a declined card fails the payment; another card leaves it pending", async () => {
    const { pay, actor } = await shop();
    const p = await pay();
    expect(await codeOf(payWithCard(p.reference, card("5555555555554444")))).toBe("validation_failed");
    expect((await verifyPayment(actor, p.reference)).status).toBe("pending");
    expect(await codeOf(payWithCard(p.reference, card(SANDBOX_CARDS.declined)))).toBe("card_declined");
    expect((await verifyPayment(actor, p.reference)).status).toBe("failed");
    const row = await db.payment.findUniqueOrThrow({ where: { reference: p.reference } });
    expect(row.failureReason).toBe("The card was declined");
  });

  it("20 concurrent checkouts of one reference settle it exactly once", async () => {
    const { pay, org } = await shop("99.99");
    const p = await pay();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => payWithCard(p.reference, card(SANDBOX_CARDS.success))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("payment_not_pending");
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id, type: "payment" } })).toBe(1);
    expect(await db.coverage.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await db.event.count({ where: { organizationId: org.id, type: "payment.completed" } })).toBe(1);
  });

  it("never credits a payment in another currency than its business's: left pending, nothing written", async () => {
    const { pay, org } = await shop("50.00");
    const p = await pay();
    expect(p.currency).toBe("NGN");
    // As a currency change that raced the payment (before the row lock) left it: an NGN payment on a USD business.
    await db.organization.update({ where: { id: org.id }, data: { currency: "USD" } });
    expect(await codeOf(payWithCard(p.reference, card(SANDBOX_CARDS.success)))).toBe("currency_mismatch");
    expect(await codeOf(settlePayment(p.reference, "success"))).toBe("currency_mismatch");
    const row = await db.payment.findUniqueOrThrow({ where: { reference: p.reference } });
    expect([row.status, row.paidAt, row.coverageId]).toEqual(["pending", null, null]);
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await db.coverage.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await db.event.count({ where: { organizationId: org.id } })).toBe(0);
    // Back in its own currency, it settles.
    await db.organization.update({ where: { id: org.id }, data: { currency: "NGN" } });
    expect((await settlePayment(p.reference, "success")).payment.status).toBe("success");
  });

  it("hides another organization's payment", async () => {
    const { pay } = await shop();
    const other = await ownerWithOrganization();
    const p = await pay();
    expect(await codeOf(verifyPayment(other.actor, p.reference))).toBe("not_found");
  });
});

describe("amounts", () => {
  it("accept at most 4 decimals, exactly (the currency's own are checked by the service: src/server/money.test.ts)", () => {
    const parse = (amount: number) => InitializePaymentInput.safeParse({ amount, policyId: "p", email: "a@b.test" });
    expect(parse(150).success).toBe(true);
    expect(parse(150.5).success).toBe(true);
    expect(parse(0.01).success).toBe(true);
    for (const bad of [150.00001, 150.000000001, 0, -1, 1e-7, Number.MAX_SAFE_INTEGER * 1e6])
      expect(parse(bad).success, String(bad)).toBe(false);
  });
});

describe("card expiry", () => {
  afterEach(() => vi.useRealTimers());
  const card = (expMonth: number, expYear: number) =>
    CheckoutInput.safeParse({ cardNumber: SANDBOX_CARDS.success, expMonth, expYear, cvc: "123" });

  it("is judged against the date of the request, not of the server's start", () => {
    const thisYear = new Date().getUTCFullYear();
    expect(card(12, thisYear).success).toBe(true);
    // The server keeps running into the new year: December's card has expired.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.UTC(thisYear + 1, 0, 15)));
    expect(card(12, thisYear).success).toBe(false);
    expect(card(12, thisYear % 100).success).toBe(false);
    expect(card(1, thisYear + 1).success).toBe(true);
    expect(card(12, thisYear + 21).success).toBe(true);
    expect(card(12, thisYear + 22).success).toBe(false);
  });
});
