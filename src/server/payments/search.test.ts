// The dashboard's money views: what a settlement records beside the payment
// (fee, the coverage it created or renewed, the customer and their totals,
// events about it), the Payments page's filters and totals, a payment's page,
// the Customers list and page, and the currency that locks once money moved.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { CreateClaimInput } from "@/lib/schemas/claims";
import { submitClaim } from "@/server/claims/service";
import { ListCustomersQuery } from "@/lib/schemas/customers";
import { getCustomer, listCustomers } from "@/server/customers/service";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { UpdateOrganizationInput } from "@/lib/schemas/organizations";
import { currencyLock, updateOrganization } from "@/server/organizations/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { ownerWithOrganization } from "@/test/fixtures";
import { payWithCard, SANDBOX_CARDS } from "./checkout";
import { CheckoutInput, InitializePaymentInput, PaymentFilters, SearchPaymentsQuery } from "@/lib/schemas/payments";
import { getPaymentDetail, paymentTotals, searchPayments } from "./search";
import { initializePayment } from "./service";

const card = (cardNumber: string = SANDBOX_CARDS.success, name?: string) =>
  CheckoutInput.parse({
    cardNumber,
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: "123",
    // Not renewing automatically: an ended cover here is expired, not past due.
    autoRenew: false,
    ...(name ? { name } : {}),
  });

async function policyOf(actor: Actor, name: string, price: string) {
  return createPolicy(actor, CreatePolicyInput.parse({ name, type: "property", duration: "monthly", price }));
}

const start = (actor: Actor, policy: { id: string; price: string }, email: string) =>
  initializePayment(actor, InitializePaymentInput.parse({ amount: Number(policy.price), policyId: policy.id, email }));

async function pay(actor: Actor, policy: { id: string; price: string }, email: string, name?: string) {
  const p = await start(actor, policy, email);
  await payWithCard(p.reference, card(SANDBOX_CARDS.success, name));
  return p.reference;
}

async function codeOf(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const today = () => new Date().toISOString().slice(0, 10);
const dayAfter = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("a settlement's bookkeeping", () => {
  it("records the fee, the coverage created then renewed, the customer's totals and name, and events about the payment", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await policyOf(actor, "Phone cover", "1000.00");
    const first = await pay(actor, policy, "ada@example.test", "Ada Obi");
    const second = await pay(actor, policy, "ada@example.test");

    const rows = await db.payment.findMany({ where: { reference: { in: [first, second] } }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.feeMinor, r.coverageAction, r.customerName])).toEqual([
      [1500n, "purchased", "Ada Obi"],
      [1500n, "renewed", null],
    ]);
    expect(rows[0]!.coverageId).toBe(rows[1]!.coverageId);
    const coverage = await db.coverage.findUniqueOrThrow({ where: { id: rows[0]!.coverageId! } });
    // A later checkout without a name keeps the one given before.
    expect([coverage.customerName, coverage.renewalCount]).toEqual(["Ada Obi", 1]);

    const customer = await db.customer.findUniqueOrThrow({
      where: { organizationId_email: { organizationId: actor.organizationId, email: "ada@example.test" } },
    });
    expect([customer.name, customer.paymentsCount, customer.totalPaidMinor]).toEqual(["Ada Obi", 2, 200000n]);

    const events = await db.event.findMany({ where: { organizationId: actor.organizationId, subject: first } });
    expect(events.map((e) => e.type).sort()).toEqual(["payment.completed", "policy.purchased"]);
  });

  it("a declined card keeps the name, creates no customer and takes no fee; payment.failed says why, once", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await policyOf(actor, "Phone cover", "100.00");
    const p = await start(actor, policy, "ben@example.test");
    await expect(payWithCard(p.reference, card(SANDBOX_CARDS.declined, "Ben"))).rejects.toMatchObject({ code: "card_declined" });
    const row = await db.payment.findUniqueOrThrow({ where: { reference: p.reference } });
    expect([row.status, row.customerName, row.feeMinor, row.coverageId]).toEqual(["failed", "Ben", null, null]);
    expect(await db.customer.count({ where: { organizationId: actor.organizationId } })).toBe(0);
    const events = await db.event.findMany({ where: { organizationId: actor.organizationId, type: "payment.failed" } });
    expect(events.map((e) => [e.subject, (e.data as { status: string; failureReason: string }).status])).toEqual([
      [p.reference, "failed"],
    ]);
    expect((events[0]!.data as { failureReason: string }).failureReason).toBe("The card was declined");
  });
});

describe("the Payments page", () => {
  it("filters by status, policy, dates and search; totals count exactly the filtered rows", async () => {
    const { actor } = await ownerWithOrganization();
    const phone = await policyOf(actor, "Phone cover", "1000.00");
    const home = await policyOf(actor, "Home cover", "250.00");
    const ada = await pay(actor, phone, "ada@example.test", "Ada Obi");
    const ben = await pay(actor, home, "ben@example.test");
    const declined = await start(actor, home, "ben@example.test");
    await payWithCard(declined.reference, card(SANDBOX_CARDS.declined)).catch(() => undefined);
    const pending = await start(actor, phone, "cy@example.test");

    const refs = async (f: Record<string, unknown>) =>
      (await searchPayments(actor, SearchPaymentsQuery.parse({ limit: 20, ...f }))).data.map((p) => p.reference);
    expect(await refs({})).toEqual([pending.reference, declined.reference, ben, ada]);
    expect(await refs({ status: "success" })).toEqual([ben, ada]);
    expect(await refs({ policyId: home.id })).toEqual([declined.reference, ben]);
    expect(await refs({ q: "ADA O" })).toEqual([ada]);
    expect(await refs({ q: "ben@" })).toEqual([declined.reference, ben]);
    expect(await refs({ q: declined.reference.slice(0, 10) })).toEqual([declined.reference]);
    expect(await refs({ q: "%" })).toEqual([]);
    expect(await refs({ from: today(), to: today() })).toHaveLength(4);
    expect(await refs({ from: dayAfter(1) })).toEqual([]);
    expect(await refs({ to: dayAfter(-1) })).toEqual([]);
    // Pages continue under the filters.
    const page1 = await searchPayments(actor, SearchPaymentsQuery.parse({ limit: 1, q: "ben" }));
    const page2 = await searchPayments(actor, SearchPaymentsQuery.parse({ limit: 1, q: "ben", cursor: page1.nextCursor! }));
    expect([...page1.data, ...page2.data].map((p) => p.reference)).toEqual([declined.reference, ben]);
    expect(page2.nextCursor).toBeNull();

    const [row] = (await searchPayments(actor, SearchPaymentsQuery.parse({ limit: 20, q: "ada" }))).data;
    expect(row).toMatchObject({ policyName: "Phone cover", customerName: "Ada Obi", fee: "15.00", net: "985.00" });
    const [failedRow] = (await searchPayments(actor, SearchPaymentsQuery.parse({ limit: 20, status: "failed" }))).data;
    expect(failedRow).toMatchObject({ fee: null, net: null, failureReason: "The card was declined" });

    expect(await paymentTotals(actor, PaymentFilters.parse({}))).toEqual({
      currency: "NGN",
      count: 4,
      succeeded: 2,
      failed: 1,
      pending: 1,
      gross: "1250.00",
      fees: "18.75",
      net: "1231.25",
    });
    expect(await paymentTotals(actor, PaymentFilters.parse({ policyId: home.id }))).toMatchObject({
      count: 2,
      succeeded: 1,
      gross: "250.00",
      fees: "3.75",
      net: "246.25",
    });
    // Unfiltered and by policy the totals come from the day rollups: the same as counting the rows (a date
    // range around today matches the same rows and is counted row by row).
    for (const f of [{}, { policyId: home.id }, { policyId: phone.id }]) {
      expect(await paymentTotals(actor, PaymentFilters.parse(f))).toEqual(
        await paymentTotals(actor, PaymentFilters.parse({ ...f, from: dayAfter(-1), to: dayAfter(1) })),
      );
    }
    expect(PaymentFilters.safeParse({ from: today(), to: dayAfter(-1) }).error?.issues[0]?.message).toBe(
      "Choose a start date on or before the end date",
    );

    // Another organization sees none of them.
    const stranger = await ownerWithOrganization();
    expect(await paymentTotals(stranger.actor, PaymentFilters.parse({}))).toMatchObject({ count: 0, gross: "0.00" });
    expect((await searchPayments(stranger.actor, SearchPaymentsQuery.parse({ limit: 20 }))).data).toEqual([]);
    expect((await codeOf(getPaymentDetail(stranger.actor, ada))).code).toBe("not_found");
  });

  it("a payment's page: money, customer, the coverage it created, its timeline and its events", async () => {
    const { actor } = await ownerWithOrganization();
    const phone = await policyOf(actor, "Phone cover", "1000.00");
    const ref = await pay(actor, phone, "ada@example.test", "Ada Obi");
    const detail = await getPaymentDetail(actor, ref);
    expect(detail).toMatchObject({
      reference: ref,
      status: "success",
      fee: "15.00",
      net: "985.00",
      policyName: "Phone cover",
      provider: "sandbox",
      customer: { id: expect.any(String), email: "ada@example.test", name: "Ada Obi" },
      coverage: { action: "purchased", status: "active", renewalCount: 0 },
    });
    expect(detail.timeline.map((t) => t.status)).toEqual(["created", "success"]);
    expect(detail.events.map((e) => e.type)).toEqual(["payment.completed", "policy.purchased"]);
    expect(detail.events.every((e) => e.deliveries.length === 0)).toBe(true);

    const renewal = await getPaymentDetail(actor, await pay(actor, phone, "ada@example.test"));
    expect(renewal.coverage).toMatchObject({ action: "renewed", renewalCount: 1 });
    expect(renewal.events.map((e) => e.type)).toEqual(["payment.completed", "policy.renewed"]);
  });
});

describe("customers", () => {
  it("one per paying email: counts, totals, search, and their coverages, payments and claims", async () => {
    const { actor } = await ownerWithOrganization();
    const phone = await policyOf(actor, "Phone cover", "1000.00");
    const home = await policyOf(actor, "Home cover", "250.00");
    await pay(actor, phone, "ada@example.test", "Ada Obi");
    await pay(actor, home, "ada@example.test");
    await pay(actor, home, "ben@example.test");
    await start(actor, phone, "never-paid@example.test");
    await submitClaim(
      actor,
      CreateClaimInput.parse({
        policyId: phone.id,
        type: "theft",
        description: "Stolen",
        amount: 500,
        email: "ada@example.test",
      }),
    );

    const list = await listCustomers(actor, ListCustomersQuery.parse({ limit: 20 }));
    expect(list.data.map((c) => [c.email, c.name, c.paymentsCount, c.totalPaid, c.coverages])).toEqual([
      ["ben@example.test", null, 1, "250.00", { total: 1, active: 1 }],
      ["ada@example.test", "Ada Obi", 2, "1250.00", { total: 2, active: 2 }],
    ]);
    const found = async (q: string) =>
      (await listCustomers(actor, ListCustomersQuery.parse({ limit: 20, q }))).data.map((c) => c.email);
    expect(await found("obi")).toEqual(["ada@example.test"]);
    expect(await found("BEN@")).toEqual(["ben@example.test"]);
    expect(await found("never")).toEqual([]);

    const ada = list.data[1]!;
    const detail = await getCustomer(actor, ada.id);
    expect(detail.coverageList.map((c) => c.policyName).sort()).toEqual(["Home cover", "Phone cover"]);
    expect(detail.payments).toHaveLength(2);
    expect(detail.claims.map((c) => [c.policyName, c.amount])).toEqual([["Phone cover", "500.00"]]);

    // Expired coverage counts as held, not active.
    await db.coverage.updateMany({
      where: { organizationId: actor.organizationId, policyId: home.id },
      data: { endsAt: new Date(Date.now() - 1000) },
    });
    expect((await getCustomer(actor, ada.id)).coverages).toEqual({ total: 2, active: 1 });

    const stranger = await ownerWithOrganization();
    expect((await listCustomers(stranger.actor, ListCustomersQuery.parse({ limit: 20 }))).data).toEqual([]);
    expect((await codeOf(getCustomer(stranger.actor, ada.id))).code).toBe("not_found");
  });
});

describe("the organization's currency", () => {
  it("changes (with its policies) until a payment is made, then is refused with the reason", async () => {
    const { actor, org } = await ownerWithOrganization();
    const policy = await policyOf(actor, "Phone cover", "100.00");
    expect(await currencyLock(actor)).toBeNull();
    await updateOrganization(actor, UpdateOrganizationInput.parse({ currency: "USD" }));
    expect((await db.policy.findUniqueOrThrow({ where: { id: policy.id } })).currency).toBe("USD");

    await start(actor, { id: policy.id, price: policy.price }, "ada@example.test");
    expect(await currencyLock(actor)).toBe("Payments have already been made in USD, so the currency can no longer change");
    const refused = await codeOf(updateOrganization(actor, UpdateOrganizationInput.parse({ currency: "NGN", name: "Renamed" })));
    expect(refused.code).toBe("currency_locked");
    expect(refused.status).toBe(409);
    expect(refused.extra.errors).toEqual([
      { path: "currency", message: "Payments have already been made in USD, so the currency can no longer change" },
    ]);
    // Nothing changed, not even the name sent with it.
    const row = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect([row.currency, row.name]).toEqual(["USD", org.name]);
    // The same currency, or other fields alone, still save.
    await updateOrganization(actor, UpdateOrganizationInput.parse({ currency: "USD", name: "Renamed" }));
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe("Renamed");
    // A code that is not a currency is refused by the schema.
    expect(UpdateOrganizationInput.safeParse({ currency: "ABC" }).error?.issues[0]?.message).toBe(
      "Choose a currency (an ISO 4217 code, like NGN or USD)",
    );
  });
});
