// The renewal charge on Paystack, against a local fake of Paystack's REST API
// (src/test/fake-paystack.ts; never a mocked function): the card saved from a
// live checkout paid on Paystack's page (its reusable `authorization`, sealed),
// the charge at the period's end (/transaction/charge_authorization with the
// keyed reference), a crash between Paystack's charge and our commit (the same
// reference charged again after the lease: Paystack refuses the duplicate, its
// outcome is verified and settled once), a charge of another amount (never
// credited), a charge Paystack refuses outright and a decline (dunning).
//
// The app reads its environment once (src/server/env.ts caches it on
// globalThis), so PAYSTACK_* are stubbed and the cache dropped BEFORE any app
// module is imported: every app import below is dynamic (as in
// src/server/payments/paystack.test.ts), and this file is in vitest.config.ts's
// ISOLATED list. Times are a month or more ahead of the real clock (a monthly
// policy) and each run is limited to the test's own organization.
import { fakePaystack, type FakeRequest } from "@/test/fake-paystack";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const SECRET = "sk_test_coverdesk_renewals_0123456789abcdef";
const DAY = 86_400_000;
const MIN = 60_000;
const at = (t: Date, deltaMs: number) => new Date(t.getTime() + deltaMs);

// ---------- the fake Paystack ----------

/** A card as the fake knows it, by its authorization code: what charging it does. */
interface FakeCard {
  code: string;
  last4: string;
  reusable: boolean;
  /** "success" charges the amount asked; "decline" is refused by the bank; a number charges that amount (kobo) instead. */
  charges: "success" | "decline" | number;
  /** The next charge_authorization is charged, then answered 500: Paystack charged, we never heard it. */
  loseNextAnswer?: boolean;
}

/** A transaction on the fake: a checkout (initialize) or a charge of a saved card (charge_authorization). */
interface FakeTransaction {
  reference: string;
  email: string;
  amount: number;
  currency: string;
  status: "ongoing" | "success" | "failed";
  gatewayResponse: string | null;
  /** The card paid with. */
  card: FakeCard | null;
}

const fake = {
  cards: new Map<string, FakeCard>(),
  /** Paystack's references are one namespace: a checkout's and a charge's. */
  transactions: new Map<string, FakeTransaction>(),
  requests: [] as FakeRequest[],
};

/** Paystack's `authorization` object of a card. */
const authorizationOf = (card: FakeCard) => ({
  authorization_code: card.code,
  bin: "408408",
  last4: card.last4,
  exp_month: "12",
  exp_year: "2030",
  channel: "card",
  card_type: "visa ",
  bank: "TEST BANK",
  country_code: "NG",
  brand: "visa",
  reusable: card.reusable,
  signature: `SIG_${card.code.slice(5)}`,
  account_name: null,
});

/** Paystack's `data` of a transaction (verify, charge_authorization). */
const transactionData = (t: FakeTransaction) => ({
  id: 4_099_260_516,
  domain: "test",
  status: t.status,
  reference: t.reference,
  amount: t.amount,
  message: null,
  gateway_response: t.gatewayResponse,
  channel: "card",
  currency: t.currency,
  fees: 0,
  customer: { email: t.email, customer_code: "CUS_fake" },
  ...(t.card ? { authorization: authorizationOf(t.card) } : {}),
});

const duplicate = { status: false, message: "Duplicate Transaction Reference" };

const paystack = fakePaystack({
  secret: SECRET,
  requests: fake.requests,
  route: ({ method, path, body }, reply) => {
    if (method === "POST" && path === "/transaction/initialize") {
      const b = body as { email: string; amount: string; currency: string; reference: string };
      if (fake.transactions.has(b.reference)) return reply(400, duplicate);
      fake.transactions.set(b.reference, {
        reference: b.reference,
        email: b.email,
        amount: Number(b.amount),
        currency: b.currency,
        status: "ongoing",
        gatewayResponse: null,
        card: null,
      });
      return reply(200, {
        status: true,
        message: "Authorization URL created",
        data: {
          authorization_url: `https://checkout.paystack.test/${b.reference}`,
          access_code: "ac_fake",
          reference: b.reference,
        },
      });
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(path);
    if (method === "GET" && verify) {
      const t = fake.transactions.get(decodeURIComponent(verify[1]!));
      if (!t) return reply(400, { status: false, message: "Transaction reference not found" });
      return reply(200, { status: true, message: "Verification successful", data: transactionData(t) });
    }
    if (method === "POST" && path === "/transaction/charge_authorization") {
      const b = body as { email: string; amount: string; currency: string; authorization_code: string; reference: string };
      if (fake.transactions.has(b.reference)) return reply(400, duplicate);
      const card = fake.cards.get(b.authorization_code);
      if (!card || !card.reusable) return reply(400, { status: false, message: "Invalid authorization code" });
      const t: FakeTransaction = {
        reference: b.reference,
        email: b.email,
        amount: typeof card.charges === "number" ? card.charges : Number(b.amount),
        currency: b.currency,
        status: card.charges === "decline" ? "failed" : "success",
        gatewayResponse: card.charges === "decline" ? "Declined" : "Approved",
        card,
      };
      fake.transactions.set(b.reference, t);
      if (card.loseNextAnswer) {
        card.loseNextAnswer = false;
        return reply(500, { status: false, message: "An error occurred" });
      }
      return reply(200, { status: true, message: "Charge attempted", data: transactionData(t) });
    }
  },
});

let nextCard = 0;
/** A card on the fake; its authorization code is Paystack-like and unique. */
function card(charges: FakeCard["charges"] = "success", reusable = true): FakeCard {
  nextCard++;
  const c: FakeCard = {
    code: `AUTH_${process.pid.toString(36)}${nextCard}x${Math.random().toString(36).slice(2, 10)}`,
    last4: String(4000 + nextCard).slice(-4),
    reusable,
    charges,
  };
  fake.cards.set(c.code, c);
  return c;
}

/** The customer pays a checkout on Paystack's page with `c`. */
function payOnPaystack(reference: string, c: FakeCard) {
  const t = fake.transactions.get(reference);
  if (!t) throw new Error(`the fake has no transaction ${reference}`);
  Object.assign(t, { status: "success", gatewayResponse: "Successful", card: c });
}

const requestsOf = (reference: string) =>
  fake.requests
    .filter(
      (r) =>
        (r.path === "/transaction/charge_authorization" && r.body?.reference === reference) ||
        r.path === `/transaction/verify/${reference}`,
    )
    .map((r) => (r.method === "GET" ? "verify" : "charge"));
const chargeBodies = (reference: string) =>
  fake.requests
    .filter((r) => r.path === "/transaction/charge_authorization" && r.body?.reference === reference)
    .map((r) => r.body);
/** What the card was really charged: the fake's successful transactions on it. */
const chargedOn = (c: FakeCard) =>
  [...fake.transactions.values()].filter((t) => t.card?.code === c.code && t.status === "success").map((t) => t.amount);

// ---------- the app, loaded after the environment is set ----------

let app: {
  db: typeof import("@/server/db/client").db;
  job: typeof import("./job");
  payments: typeof import("@/server/payments/service");
  schemas: typeof import("@/lib/schemas/payments");
  policies: typeof import("@/server/policies/service");
  policySchemas: typeof import("@/lib/schemas/policies");
  fixtures: typeof import("@/test/fixtures");
  remote: typeof import("@/server/payments/remote");
  seal: typeof import("@/server/seal");
  terms: typeof import("./terms");
  status: typeof import("@/server/coverages/status");
};

beforeAll(async () => {
  const baseUrl = await paystack.start();
  vi.stubEnv("PAYSTACK_SECRET_KEY", SECRET);
  // Live money through Paystack, not the sandbox the test config selects.
  vi.stubEnv("PAYMENTS_PROVIDER", "");
  vi.stubEnv("PAYSTACK_BASE_URL", baseUrl);
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  app = {
    db: (await import("@/server/db/client")).db,
    job: await import("./job"),
    payments: await import("@/server/payments/service"),
    schemas: await import("@/lib/schemas/payments"),
    policies: await import("@/server/policies/service"),
    policySchemas: await import("@/lib/schemas/policies"),
    fixtures: await import("@/test/fixtures"),
    remote: await import("@/server/payments/remote"),
    seal: await import("@/server/seal"),
    terms: await import("./terms"),
    status: await import("@/server/coverages/status"),
  };
  const { env } = await import("@/server/env");
  expect(env.PAYSTACK_SECRET_KEY).toBe(SECRET);
  expect(env.PAYSTACK_BASE_URL).toBe(baseUrl);
  expect((await import("@/server/payments/provider")).providerFor(true).name).toBe("paystack");
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await paystack.stop();
});

/** A business selling a monthly policy at 5,000.00 NGN, live on Paystack. */
async function shop() {
  const { actor } = await app.fixtures.ownerWithOrganization();
  const policy = await app.policies.createPolicy(
    actor,
    app.policySchemas.CreatePolicyInput.parse({ name: "Shop cover", type: "property", duration: "monthly", price: "5000.00" }),
  );
  const orgId = actor.organizationId;
  /** A checkout initialized on Paystack, paid there with `c`, settled as Paystack's verify tells (the webhook's path). */
  const buy = async (c: FakeCard, autoRenew = true) => {
    const email = `holder-${app.fixtures.unique()}@example.test`;
    const p = await app.payments.initializePayment(
      actor,
      app.schemas.InitializePaymentInput.parse({ amount: 5000, policyId: policy.id, email, autoRenew }),
    );
    payOnPaystack(p.reference, c);
    await app.remote.settleReference(p.reference);
    const payment = await app.db.payment.findUniqueOrThrow({ where: { reference: p.reference } });
    expect(payment).toMatchObject({ provider: "paystack", status: "success", autoRenew });
    return app.db.coverage.findFirstOrThrow({ where: { organizationId: orgId, customerEmail: email } });
  };
  const renew = (now: Date) => app.job.runRenewals(now, { organizationIds: [orgId] });
  return { actor, orgId, policy, buy, renew };
}

const coverage = (id: string) => app.db.coverage.findUniqueOrThrow({ where: { id } });
const paymentOf = (reference: string) => app.db.payment.findUniqueOrThrow({ where: { reference } });
const renewalPayments = (coverageId: string) =>
  app.db.payment.findMany({ where: { coverageId, renewalAttempt: { not: null } }, orderBy: { renewalAttempt: "asc" } });
const ledgerOf = (reference: string) =>
  app.db.ledgerTransaction
    .findMany({ where: { reference } })
    .then((rows) => rows.map((l) => [l.type, l.amountMinor]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
const eventsOf = (organizationId: string, subject: string) =>
  app.db.event
    .findMany({ where: { organizationId, subject }, orderBy: { createdAt: "asc" } })
    .then((rows) => rows.map((e) => e.type).sort());

describe("the card saved from a checkout on Paystack", () => {
  it("a reusable authorization with consent: saved sealed, with its brand, last4 and expiry; auto-renew on", async () => {
    const s = await shop();
    const c = card();
    const cover = await s.buy(c);
    expect(cover).toMatchObject({
      autoRenew: true,
      cardProvider: "paystack",
      cardBrand: "visa",
      cardLast4: c.last4,
      cardExpMonth: 12,
      cardExpYear: 2030,
      premiumMinor: 500_000n,
      renewalAttempts: 0,
    });
    expect(cover.cardAuthorizationSealed).toMatch(/^v1:/);
    expect(cover.cardAuthorizationSealed).not.toContain(c.code);
    expect(cover.cardAuthorizationSealed).not.toContain("AUTH_");
    expect(app.seal.unseal(app.terms.CARD_SEAL, cover.cardAuthorizationSealed!)).toBe(c.code);
    expect(cover.renewAt?.getTime()).toBe(cover.endsAt.getTime());
    expect(cover.graceEndsAt?.getTime()).toBe(cover.endsAt.getTime() + 7 * DAY);
    // A live checkout: initialize, then verify; no charge of the card by us.
    const [payment] = await app.db.payment.findMany({ where: { organizationId: s.orgId } });
    expect(requestsOf(payment!.reference)).toEqual(["verify"]);
    expect(fake.requests.some((r) => r.body?.authorization_code === c.code)).toBe(false);
  });

  it("an authorization Paystack says is not reusable: no card saved, auto-renew off, no renewal planned", async () => {
    const s = await shop();
    const cover = await s.buy(card("success", false));
    expect(cover).toMatchObject({
      autoRenew: false,
      cardProvider: null,
      cardAuthorizationSealed: null,
      cardBrand: null,
      cardLast4: null,
      cardExpMonth: null,
      cardExpYear: null,
      renewAt: null,
      graceEndsAt: null,
    });
    expect((await s.renew(at(cover.endsAt, MIN))).charged).toBe(0);
    expect(await renewalPayments(cover.id)).toEqual([]);
  });
});

describe("the renewal charge on Paystack", () => {
  it("at the period's end: one charge_authorization (kobo, currency, code, keyed reference), settled once", async () => {
    const s = await shop();
    const c = card();
    const cover = await s.buy(c);
    const end = cover.endsAt;
    const reference = app.job.renewalReference(cover.id, end, 1);
    expect((await s.renew(at(end, -MIN))).charged).toBe(0);

    const r = await s.renew(at(end, MIN));
    expect(r).toMatchObject({ charged: 1, renewed: 1, declined: 0 });
    expect(chargeBodies(reference)).toEqual([
      { email: cover.customerEmail, amount: "500000", currency: "NGN", authorization_code: c.code, reference },
    ]);
    expect(requestsOf(reference)).toEqual(["charge"]);
    expect(fake.requests.find((r) => r.body?.reference === reference)?.authorization).toBe(`Bearer ${SECRET}`);
    expect(chargedOn(c)).toEqual([500_000, 500_000]);

    expect(await paymentOf(reference)).toMatchObject({
      status: "success",
      provider: "paystack",
      amountMinor: 500_000n,
      currency: "NGN",
      coverageId: cover.id,
      renewalAttempt: 1,
      coverageAction: "renewed",
      paidAt: at(end, MIN),
    });
    expect(await ledgerOf(reference)).toEqual([
      ["fee", -7_500n],
      ["payment", 500_000n],
    ]);
    expect(await eventsOf(s.orgId, reference)).toEqual(["payment.completed", "policy.renewed"]);
    const after = await coverage(cover.id);
    expect(after).toMatchObject({ renewalCount: 1, renewalAttempts: 0, autoRenew: true, cardLast4: c.last4 });
    expect(after.periodStartsAt.getTime()).toBe(end.getTime());
    expect(after.endsAt.getTime()).toBeGreaterThan(at(end, 27 * DAY).getTime());
    expect(after.renewAt?.getTime()).toBe(after.endsAt.getTime());

    // Run again: nothing is charged.
    expect((await s.renew(at(end, 20 * MIN))).charged).toBe(0);
    expect(requestsOf(reference)).toEqual(["charge"]);
    expect(await renewalPayments(cover.id)).toHaveLength(1);
  });

  it("Paystack charged but we never heard it: pending under the lease, then the same reference → Duplicate → verified, settled once", async () => {
    const s = await shop();
    const c = card();
    const cover = await s.buy(c);
    const end = cover.endsAt;
    const reference = app.job.renewalReference(cover.id, end, 1);
    const first = at(end, MIN);

    // Paystack charges the card, then its answer is lost (a 500 after the charge).
    c.loseNextAnswer = true;
    expect(await s.renew(first)).toMatchObject({ charged: 1, renewed: 0, declined: 0 });
    expect(requestsOf(reference)).toEqual(["charge"]);
    expect(chargedOn(c)).toEqual([500_000, 500_000]);
    expect(await paymentOf(reference)).toMatchObject({ status: "pending", renewalAttempt: 1, paidAt: null });
    let row = await coverage(cover.id);
    expect(row.renewAt?.getTime()).toBe(first.getTime() + app.job.RENEWAL_LEASE_MS);
    expect(row).toMatchObject({ renewalAttempts: 1, renewalCount: 0 });
    expect(row.endsAt.getTime()).toBe(end.getTime());
    expect(await ledgerOf(reference)).toEqual([]);
    expect(await eventsOf(s.orgId, reference)).toEqual([]);

    // Under the lease: left alone.
    expect((await s.renew(at(first, app.job.RENEWAL_LEASE_MS - MIN))).charged).toBe(0);
    expect(requestsOf(reference)).toEqual(["charge"]);

    // The lease ran out: the same reference again; Paystack refuses it, its first outcome is verified and settled.
    const second = at(first, app.job.RENEWAL_LEASE_MS + MIN);
    expect(await s.renew(second)).toMatchObject({ charged: 1, renewed: 1, declined: 0 });
    expect(requestsOf(reference)).toEqual(["charge", "charge", "verify"]);
    const bodies = chargeBodies(reference);
    expect(bodies[1]).toEqual(bodies[0]);
    // The card was charged once for the renewal (and once at the checkout).
    expect(chargedOn(c)).toEqual([500_000, 500_000]);

    expect(await renewalPayments(cover.id)).toEqual([
      expect.objectContaining({ reference, status: "success", renewalAttempt: 1, paidAt: second }),
    ]);
    expect(await ledgerOf(reference)).toEqual([
      ["fee", -7_500n],
      ["payment", 500_000n],
    ]);
    expect(await eventsOf(s.orgId, reference)).toEqual(["payment.completed", "policy.renewed"]);
    row = await coverage(cover.id);
    expect(row).toMatchObject({ renewalCount: 1, renewalAttempts: 0 });
    expect(row.periodStartsAt.getTime()).toBe(end.getTime());
    expect(row.renewAt?.getTime()).toBe(row.endsAt.getTime());

    // Nothing more, however often the job runs.
    expect((await s.renew(at(second, app.job.RENEWAL_LEASE_MS + MIN))).charged).toBe(0);
    expect(requestsOf(reference)).toEqual(["charge", "charge", "verify"]);
    expect(await app.db.ledgerTransaction.count({ where: { organizationId: s.orgId, type: "payment" } })).toBe(2);
  });

  it("Paystack charging another amount: the payment fails, nothing credited, the cover past due with a retry", async () => {
    const s = await shop();
    const c = card();
    const cover = await s.buy(c);
    c.charges = 100; // 1.00 NGN instead of 5,000.00
    const end = cover.endsAt;
    const reference = app.job.renewalReference(cover.id, end, 1);

    expect(await s.renew(at(end, MIN))).toMatchObject({ charged: 1, renewed: 0, declined: 1 });
    expect(requestsOf(reference)).toEqual(["charge"]);
    const payment = await paymentOf(reference);
    expect(payment).toMatchObject({ status: "failed", paidAt: null, coverageAction: null });
    expect(payment.failureReason).toBe("Paystack charged 1.00 NGN instead of 5000.00 NGN: not credited");
    expect(await ledgerOf(reference)).toEqual([]);
    expect(await eventsOf(s.orgId, reference)).toEqual(["payment.failed"]);
    const row = await coverage(cover.id);
    expect(row).toMatchObject({ renewalCount: 0, renewalAttempts: 1 });
    expect(row.endsAt.getTime()).toBe(end.getTime());
    expect(row.renewAt?.getTime()).toBe(end.getTime() + DAY);
    expect(app.status.coverageStatus(row, at(end, 2 * MIN))).toBe("past_due");
  });

  it("an authorization Paystack refuses (400, not a duplicate): verified unknown, the payment fails into dunning, not left pending", async () => {
    const s = await shop();
    const c = card();
    const cover = await s.buy(c);
    fake.cards.delete(c.code); // Paystack no longer honours it: 400 "Invalid authorization code"
    const end = cover.endsAt;
    const reference = app.job.renewalReference(cover.id, end, 1);

    expect(await s.renew(at(end, MIN))).toMatchObject({ charged: 1, renewed: 0, declined: 1 });
    expect(requestsOf(reference)).toEqual(["charge", "verify"]);
    expect(fake.transactions.has(reference)).toBe(false);
    expect(await paymentOf(reference)).toMatchObject({
      status: "failed",
      failureReason: "Paystack declined the charge: Invalid authorization code",
    });
    expect(await ledgerOf(reference)).toEqual([]);
    expect(await eventsOf(s.orgId, reference)).toEqual(["payment.failed"]);
    expect(await app.db.mailTask.count({ where: { organizationId: s.orgId, kind: "renewal_failed" } })).toBe(1);
    const row = await coverage(cover.id);
    expect(row.renewAt?.getTime()).toBe(end.getTime() + DAY);
    // Not charged again every lease: only on the retry's day.
    expect((await s.renew(at(end, app.job.RENEWAL_LEASE_MS + 2 * MIN))).charged).toBe(0);
    expect(requestsOf(reference)).toEqual(["charge", "verify"]);
  });

  it("a decline: payment.failed, the renewal_failed mail, past due, and the retry a day later charges attempt 2", async () => {
    const s = await shop();
    const c = card();
    const cover = await s.buy(c);
    c.charges = "decline";
    const end = cover.endsAt;
    const reference = app.job.renewalReference(cover.id, end, 1);

    expect(await s.renew(at(end, MIN))).toMatchObject({ charged: 1, renewed: 0, declined: 1 });
    expect(requestsOf(reference)).toEqual(["charge"]);
    expect(chargedOn(c)).toEqual([500_000]);
    const payment = await paymentOf(reference);
    expect(payment).toMatchObject({ status: "failed", failureReason: "Paystack declined the charge: Declined" });
    expect(await ledgerOf(reference)).toEqual([]);
    const failed = await app.db.event.findMany({ where: { organizationId: s.orgId, type: "payment.failed" } });
    expect(failed.map((e) => e.subject)).toEqual([reference]);
    expect(failed[0]!.data).toMatchObject({
      reference,
      status: "failed",
      failureReason: "Paystack declined the charge: Declined",
    });
    const mails = await app.db.mailTask.findMany({ where: { organizationId: s.orgId, kind: "renewal_failed" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: cover.customerEmail, sourceId: payment.id });
    expect(mails[0]!.data).toMatchObject({
      coverageId: cover.id,
      reference,
      attempt: 1,
      amount: "5000.00",
      currency: "NGN",
      reason: "Paystack declined the charge: Declined",
      nextAttemptAt: at(end, DAY).toISOString(),
      graceEndsAt: at(end, 7 * DAY).toISOString(),
    });
    const row = await coverage(cover.id);
    expect(row).toMatchObject({ renewalAttempts: 1, renewalCount: 0 });
    expect(row.renewAt?.getTime()).toBe(end.getTime() + DAY);
    expect(app.status.coverageStatus(row, at(end, 2 * MIN))).toBe("past_due");

    // Not before the retry's day; then the card (now good) is charged as attempt 2, its own reference.
    expect((await s.renew(at(end, DAY - MIN))).charged).toBe(0);
    c.charges = "success";
    expect(await s.renew(at(end, DAY + MIN))).toMatchObject({ charged: 1, renewed: 1 });
    const retry = app.job.renewalReference(cover.id, end, 2);
    expect(chargeBodies(retry)).toEqual([
      { email: cover.customerEmail, amount: "500000", currency: "NGN", authorization_code: c.code, reference: retry },
    ]);
    expect((await renewalPayments(cover.id)).map((p) => [p.reference, p.renewalAttempt, p.status])).toEqual([
      [reference, 1, "failed"],
      [retry, 2, "success"],
    ]);
    const renewed = await coverage(cover.id);
    expect(renewed.periodStartsAt.getTime()).toBe(end.getTime());
    expect(renewed).toMatchObject({ renewalCount: 1, renewalAttempts: 0 });
    expect(await ledgerOf(retry)).toEqual([
      ["fee", -7_500n],
      ["payment", 500_000n],
    ]);
  });
});
