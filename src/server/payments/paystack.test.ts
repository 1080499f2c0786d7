// The Paystack provider against a local fake of Paystack's REST API: the
// provider's own calls, the webhook signature, and the whole path — initialize
// on Paystack, its signed webhook (or a verify call) settles the payment.
//
// The app reads its environment once (src/server/env.ts caches it on
// globalThis), so PAYSTACK_* are stubbed and the cache dropped BEFORE any app
// module is imported: every app import below is dynamic. Vitest runs each test
// file in its own forked worker (pool "forks", isolated), so this stays here.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fakePaystack, type FakeRequest } from "@/test/fake-paystack";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const SECRET = "sk_test_coverdesk_fake_0123456789abcdef";

// ---------- the fake Paystack ----------

interface FakeTransaction {
  reference: string;
  email: string;
  amount: string;
  currency: string;
  callbackUrl?: string;
  /** What verify answers: Paystack's statuses. */
  status: "success" | "failed" | "abandoned" | "ongoing";
  /** Overrides the amount verify reports (a tampered or partial charge). */
  reportedAmount?: number;
  /** Overrides the currency verify reports. */
  reportedCurrency?: string;
}

/** The fake refuses to initialize a charge for this customer. */
const REFUSED_EMAIL = "refused@example.test";

const fake = {
  transactions: new Map<string, FakeTransaction>(),
  /** References whose verify answers 500 (Paystack having a bad moment). */
  broken: new Set<string>(),
  requests: [] as FakeRequest[],
};

const paystack = fakePaystack({
  secret: SECRET,
  requests: fake.requests,
  route: ({ method, path, body }, reply) => {
    if (method === "POST" && path === "/transaction/initialize") {
      const b = body as { email: string; amount: string; currency: string; reference: string; callback_url?: string };
      if (b.email === REFUSED_EMAIL) return reply(400, { status: false, message: "Invalid email address passed" });
      fake.transactions.set(b.reference, {
        reference: b.reference,
        email: b.email,
        amount: b.amount,
        currency: b.currency,
        callbackUrl: b.callback_url,
        status: "ongoing",
      });
      return reply(200, {
        status: true,
        message: "Authorization URL created",
        data: {
          authorization_url: `https://checkout.paystack.test/${b.reference}`,
          access_code: `ac_${b.reference}`,
          reference: b.reference,
        },
      });
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(path);
    if (method === "GET" && verify) {
      const t = fake.transactions.get(decodeURIComponent(verify[1]!));
      if (t && fake.broken.has(t.reference)) return reply(500, { status: false, message: "Server error" });
      if (!t) return reply(400, { status: false, message: "Transaction reference not found" });
      return reply(200, {
        status: true,
        message: "Verification successful",
        data: {
          status: t.status,
          reference: t.reference,
          amount: t.reportedAmount ?? Number(t.amount),
          currency: t.reportedCurrency ?? t.currency,
        },
      });
    }
  },
});

/** Marks a transaction on the fake as the customer left it on Paystack's page. */
function charge(reference: string, status: FakeTransaction["status"], reportedAmount?: number, reportedCurrency?: string) {
  const t = fake.transactions.get(reference);
  if (!t) throw new Error(`the fake has no transaction ${reference}`);
  Object.assign(t, { status, reportedAmount, reportedCurrency });
}

const initializeCalls = () => fake.requests.filter((r) => r.method === "POST" && r.path === "/transaction/initialize");

const verifyCalls = (reference: string) =>
  fake.requests.filter((r) => r.method === "GET" && r.path === `/transaction/verify/${reference}`).length;

// ---------- the app, loaded after the environment is set ----------

let baseUrl = "";
let app: {
  provider: typeof import("./provider");
  service: typeof import("./service");
  checkout: typeof import("./checkout");
  schemas: typeof import("@/lib/schemas/payments");
  policies: typeof import("@/server/policies/service");
  policySchemas: typeof import("@/lib/schemas/policies");
  fixtures: typeof import("@/test/fixtures");
  db: typeof import("@/server/db/client").db;
  errors: typeof import("@/server/errors");
  webhook: typeof import("@/app/api/webhooks/paystack/route");
  checkoutRoute: typeof import("@/app/api/checkout/[reference]/route");
  retryRoute: typeof import("@/app/api/checkout/[reference]/retry/route");
};

beforeAll(async () => {
  baseUrl = await paystack.start();
  vi.stubEnv("PAYSTACK_SECRET_KEY", SECRET);
  // Live money through Paystack, not the sandbox the test config selects.
  vi.stubEnv("PAYMENTS_PROVIDER", "");
  vi.stubEnv("PAYSTACK_BASE_URL", baseUrl);
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  app = {
    provider: await import("./provider"),
    service: await import("./service"),
    checkout: await import("./checkout"),
    schemas: await import("@/lib/schemas/payments"),
    policies: await import("@/server/policies/service"),
    policySchemas: await import("@/lib/schemas/policies"),
    fixtures: await import("@/test/fixtures"),
    db: (await import("@/server/db/client")).db,
    errors: await import("@/server/errors"),
    webhook: await import("@/app/api/webhooks/paystack/route"),
    checkoutRoute: await import("@/app/api/checkout/[reference]/route"),
    retryRoute: await import("@/app/api/checkout/[reference]/retry/route"),
  };
  // The environment really is the stubbed one (not a cache from elsewhere).
  const { env } = await import("@/server/env");
  expect(env.PAYSTACK_SECRET_KEY).toBe(SECRET);
  expect(env.PAYSTACK_BASE_URL).toBe(baseUrl);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await paystack.stop();
});

beforeEach(() => {
  fake.requests.length = 0;
});

async function codeOf(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(app.errors.AppError);
  return (err as InstanceType<typeof app.errors.AppError>).code;
}

const sign = (body: string, secret = SECRET) => crypto.createHmac("sha512", secret).update(body).digest("hex");

/** Paystack's webhook as the route handler receives it. */
function webhookRequest(payload: unknown, signature: string | null | ((raw: string) => string) = (raw) => sign(raw)) {
  const raw = JSON.stringify(payload);
  const headers = new Headers({ "Content-Type": "application/json" });
  const sig = typeof signature === "function" ? signature(raw) : signature;
  if (sig !== null) headers.set("x-paystack-signature", sig);
  return new Request("http://127.0.0.1/api/webhooks/paystack", { method: "POST", headers, body: raw });
}

/** An organization selling a policy, and a pending Paystack payment for it. */
async function pendingPayment(price = "1000.00", email = "ada@example.test") {
  const { actor, org } = await app.fixtures.ownerWithOrganization();
  const policy = await app.policies.createPolicy(
    actor,
    app.policySchemas.CreatePolicyInput.parse({ name: "Shop cover", type: "business", duration: "yearly", price }),
  );
  const payment = await app.service.initializePayment(
    actor,
    app.schemas.InitializePaymentInput.parse({ amount: Number(price), policyId: policy.id, email }),
  );
  return { actor, org, policy, payment };
}

/** Everything a settlement writes, for "nothing changed" checks. */
async function moneyState(organizationId: string) {
  const { db } = app;
  return {
    payments: await db.payment.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } }),
    ledger: await db.ledgerTransaction.count({ where: { organizationId } }),
    coverages: await db.coverage.count({ where: { organizationId } }),
    /** The types of its events, oldest first. */
    events: (await db.event.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" }, select: { type: true } })).map(
      (e) => e.type,
    ),
  };
}

// ---------- the provider itself ----------

describe("paystackProvider", () => {
  it("initialize posts the amount in minor units with the secret key and answers Paystack's checkout URL", async () => {
    const provider = app.provider.paystackProvider(SECRET, baseUrl);
    expect(provider.name).toBe("paystack");
    const out = await provider.initialize({
      reference: "cdp_direct_1",
      amountMinor: 1_500_050n,
      currency: "NGN",
      email: "bola@example.test",
      callbackUrl: "https://shop.example.test/done",
    });
    expect(out).toEqual({ authorizationUrl: "https://checkout.paystack.test/cdp_direct_1" });
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: "/transaction/initialize",
        authorization: `Bearer ${SECRET}`,
        body: {
          email: "bola@example.test",
          amount: "1500050",
          currency: "NGN",
          reference: "cdp_direct_1",
          callback_url: "https://shop.example.test/done",
        },
      },
    ]);
    // Without a callback URL none is sent.
    await provider.initialize({ reference: "cdp_direct_2", amountMinor: 100n, currency: "NGN", email: "c@example.test" });
    expect(fake.requests[1]!.body).toEqual({
      email: "c@example.test",
      amount: "100",
      currency: "NGN",
      reference: "cdp_direct_2",
    });
  });

  it("verify maps Paystack's statuses and reports the charged amount in minor units", async () => {
    const provider = app.provider.paystackProvider(SECRET, baseUrl);
    await provider.initialize({ reference: "cdp_verify_1", amountMinor: 25_000n, currency: "NGN", email: "d@example.test" });
    const cases: [FakeTransaction["status"], "pending" | "success" | "failed"][] = [
      ["ongoing", "pending"],
      ["success", "success"],
      ["failed", "failed"],
      ["abandoned", "failed"],
    ];
    for (const [paystack, ours] of cases) {
      charge("cdp_verify_1", paystack);
      expect(await provider.verify("cdp_verify_1"), paystack).toEqual({ status: ours, amountMinor: 25_000n, currency: "NGN" });
    }
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", authorization: `Bearer ${SECRET}`, body: null });
  });

  it("a refused request (wrong key, unknown reference) is a provider_error (502)", async () => {
    const wrongKey = app.provider.paystackProvider("sk_test_wrong", baseUrl);
    const err = await wrongKey
      .initialize({ reference: "cdp_x", amountMinor: 100n, currency: "NGN", email: "e@example.test" })
      .then(
        () => null,
        (e: unknown) => e as InstanceType<typeof app.errors.AppError>,
      );
    expect(err).toBeInstanceOf(app.errors.AppError);
    expect(err).toMatchObject({ code: "provider_error", status: 502 });
    expect(err?.message).toContain("Invalid key");
    expect(fake.transactions.has("cdp_x")).toBe(false);

    const provider = app.provider.paystackProvider(SECRET, baseUrl);
    expect(await codeOf(provider.verify("cdp_never_initialized"))).toBe("provider_error");
    expect(await codeOf(wrongKey.verify("cdp_direct_1"))).toBe("provider_error");
  });

  it("an unreachable Paystack is a provider_error too", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const provider = app.provider.paystackProvider(SECRET, `http://127.0.0.1:${port}`);
    await expect(provider.verify("cdp_y")).rejects.toThrow();
  });

  it("live payments go to Paystack when PAYSTACK_SECRET_KEY is set; test payments stay in the sandbox", () => {
    expect(app.provider.providerFor(true).name).toBe("paystack");
    expect(app.provider.providerFor(false).name).toBe("sandbox");
  });
});

describe("verifyPaystackSignature", () => {
  const body = JSON.stringify({ event: "charge.success", data: { reference: "cdp_sig" } });
  const good = sign(body);

  it("accepts the hex HMAC-SHA512 of the raw body under the secret key", () => {
    expect(good).toMatch(/^[0-9a-f]{128}$/);
    expect(app.provider.verifyPaystackSignature(SECRET, body, good)).toBe(true);
  });

  const refused: [string, string, string | null][] = [
    ["a missing signature", body, null],
    ["an empty signature", body, ""],
    ["a signature under another secret", body, sign(body, "sk_test_other")],
    ["a signature of another body", `${body} `, good],
    ["an upper-case hex signature", body, good.toUpperCase()],
    ["a truncated signature", body, good.slice(0, 64)],
    ["a SHA-256 signature", body, crypto.createHmac("sha256", SECRET).update(body).digest("hex")],
    ["a base64 signature", body, crypto.createHmac("sha512", SECRET).update(body).digest("base64")],
  ];
  for (const [label, raw, signature] of refused) {
    it(`refuses ${label}`, () => {
      expect(app.provider.verifyPaystackSignature(SECRET, raw, signature)).toBe(false);
    });
  }
});

// ---------- the whole path through the app ----------

describe("a payment on Paystack", () => {
  it("initialize registers the payment with Paystack and answers Paystack's checkout URL", async () => {
    const { payment, policy, org } = await pendingPayment("1000.00", "Ada@Example.test");
    expect(payment).toMatchObject({
      status: "pending",
      amount: "1000.00",
      currency: "NGN",
      policyId: policy.id,
      email: "ada@example.test",
      paidAt: null,
      authorizationUrl: `https://checkout.paystack.test/${payment.reference}`,
    });
    const row = await app.db.payment.findUniqueOrThrow({ where: { reference: payment.reference } });
    expect(row).toMatchObject({ provider: "paystack", organizationId: org.id, amountMinor: 100_000n });
    expect(fake.transactions.get(payment.reference)).toMatchObject({
      amount: "100000",
      currency: "NGN",
      email: "ada@example.test",
    });
  });

  it("Paystack refusing the initialize creates no payment", async () => {
    const { actor, org } = await app.fixtures.ownerWithOrganization();
    const policy = await app.policies.createPolicy(
      actor,
      app.policySchemas.CreatePolicyInput.parse({ name: "P", type: "business", duration: "yearly", price: "10" }),
    );
    expect(
      await codeOf(
        app.service.initializePayment(
          actor,
          app.schemas.InitializePaymentInput.parse({ amount: 10, policyId: policy.id, email: REFUSED_EMAIL }),
        ),
      ),
    ).toBe("provider_error");
    expect(fake.requests.map((r) => r.path)).toEqual(["/transaction/initialize"]);
    expect(await app.db.payment.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it("charge.success webhook, confirmed with verify: payment success, ledger credit and fee, coverage, events", async () => {
    const { payment, org, policy } = await pendingPayment("1000.00");
    charge(payment.reference, "success");
    const res = await app.webhook.POST(webhookRequest({ event: "charge.success", data: { reference: payment.reference } }));
    expect(res.status).toBe(200);
    expect(verifyCalls(payment.reference)).toBe(1);

    const row = await app.db.payment.findUniqueOrThrow({ where: { reference: payment.reference } });
    expect(row.status).toBe("success");
    expect(row.paidAt).toBeInstanceOf(Date);

    const ledger = await app.db.ledgerTransaction.findMany({ where: { organizationId: org.id }, orderBy: { type: "asc" } });
    expect(ledger.map((l) => [l.type, l.amountMinor, l.reference, l.policyId])).toEqual([
      ["payment", 100_000n, payment.reference, policy.id],
      ["fee", -1_500n, payment.reference, policy.id],
    ]);

    const coverage = await app.db.coverage.findFirstOrThrow({ where: { organizationId: org.id } });
    expect(coverage).toMatchObject({ policyId: policy.id, customerEmail: "ada@example.test", renewalCount: 0 });
    const expectedEnd = new Date(coverage.startsAt);
    expectedEnd.setUTCFullYear(expectedEnd.getUTCFullYear() + 1);
    expect(coverage.endsAt.toISOString()).toBe(expectedEnd.toISOString());

    const events = await app.db.event.findMany({ where: { organizationId: org.id }, orderBy: { type: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["payment.completed", "policy.purchased"]);
    expect(events[0]!.data).toMatchObject({ reference: payment.reference, status: "success", amount: "1000.00" });

    const verified = await app.service.verifyPayment(await orgActor(org.id), payment.reference);
    expect(verified).toMatchObject({ status: "success", coverage: { id: coverage.id, status: "active", renewalCount: 0 } });
  });

  it("the same webhook delivered again settles nothing twice", async () => {
    const { payment, org } = await pendingPayment("250.00");
    charge(payment.reference, "success");
    const payload = { event: "charge.success", data: { reference: payment.reference } };
    for (let i = 0; i < 3; i++) expect((await app.webhook.POST(webhookRequest(payload))).status).toBe(200);
    const deliveries = await Promise.all(Array.from({ length: 5 }, () => app.webhook.POST(webhookRequest(payload))));
    expect(deliveries.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await app.db.ledgerTransaction.count({ where: { organizationId: org.id, type: "payment" } })).toBe(1);
    expect(await app.db.event.count({ where: { organizationId: org.id, type: "payment.completed" } })).toBe(1);
    expect(await app.db.coverage.count({ where: { organizationId: org.id } })).toBe(1);
  });

  const badSignatures: [string, string | null | ((raw: string) => string)][] = [
    ["no signature", null],
    ["a signature under another secret", (raw) => sign(raw, "sk_test_attacker")],
    ["a signature of another body", () => sign("{}")],
    ["garbage", "not-a-signature"],
  ];
  for (const [label, signature] of badSignatures) {
    it(`a webhook with ${label} → 401 and nothing changes (Paystack is not even asked)`, async () => {
      const { payment, org } = await pendingPayment("500.00");
      charge(payment.reference, "success");
      const before = await moneyState(org.id);
      const res = await app.webhook.POST(
        webhookRequest({ event: "charge.success", data: { reference: payment.reference } }, signature),
      );
      expect(res.status).toBe(401);
      expect(verifyCalls(payment.reference)).toBe(0);
      expect(await moneyState(org.id)).toEqual(before);
      expect(before.payments.map((p) => p.status)).toEqual(["pending"]);
    });
  }

  it("the webhook payload is only a hint: if Paystack's verify says not paid, the payment stays pending", async () => {
    const { payment, org } = await pendingPayment();
    const before = await moneyState(org.id);
    // The fake still has the transaction "ongoing".
    const res = await app.webhook.POST(webhookRequest({ event: "charge.success", data: { reference: payment.reference } }));
    expect(res.status).toBe(200);
    expect(verifyCalls(payment.reference)).toBe(1);
    expect(await moneyState(org.id)).toEqual(before);
  });

  it("a charge of another amount than asked is never credited: the payment fails", async () => {
    const { payment, org } = await pendingPayment("1000.00");
    charge(payment.reference, "success", 100); // 1.00 instead of 1000.00
    expect(
      (await app.webhook.POST(webhookRequest({ event: "charge.success", data: { reference: payment.reference } }))).status,
    ).toBe(200);
    const after = await moneyState(org.id);
    expect(after).toMatchObject({ ledger: 0, coverages: 0, events: ["payment.failed"] });
    expect(after.payments.map((p) => [p.status, p.paidAt])).toEqual([["failed", null]]);
    expect(after.payments[0]!.failureReason).toBe("Paystack charged 1.00 NGN instead of 1000.00 NGN: not credited");
    // Settled as failed: Paystack is not asked again.
    await app.webhook.POST(webhookRequest({ event: "charge.success", data: { reference: payment.reference } }));
    expect(verifyCalls(payment.reference)).toBe(1);
  });

  it("a charge in another currency than asked is never credited: the payment fails (verifyPayment too)", async () => {
    const { payment, org, actor } = await pendingPayment("1000.00");
    charge(payment.reference, "success", undefined, "USD"); // 1000.00 USD instead of NGN
    expect(await app.service.verifyPayment(actor, payment.reference)).toMatchObject({ status: "failed", coverage: null });
    const after = await moneyState(org.id);
    expect(after).toMatchObject({ ledger: 0, coverages: 0, events: ["payment.failed"] });
    expect(after.payments.map((p) => p.status)).toEqual(["failed"]);
    expect(after.payments[0]!.failureReason).toBe("Paystack charged 1000.00 USD instead of 1000.00 NGN: not credited");
  });

  it("a settlement error answers 5xx so Paystack delivers again; the next delivery settles", async () => {
    const { payment, org } = await pendingPayment("400.00");
    charge(payment.reference, "success");
    fake.broken.add(payment.reference);
    const payload = { event: "charge.success", data: { reference: payment.reference } };
    try {
      const res = await app.webhook.POST(webhookRequest(payload));
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect((await moneyState(org.id)).payments.map((p) => p.status)).toEqual(["pending"]);
    } finally {
      fake.broken.delete(payment.reference);
    }
    expect((await app.webhook.POST(webhookRequest(payload))).status).toBe(200);
    const after = await moneyState(org.id);
    expect(after).toMatchObject({ ledger: 2, coverages: 1 });
    expect(after.payments.map((p) => p.status)).toEqual(["success"]);
  });

  it("charge.failed confirmed by verify fails the payment, with no money and no coverage", async () => {
    const { payment, org } = await pendingPayment();
    charge(payment.reference, "failed");
    expect(
      (await app.webhook.POST(webhookRequest({ event: "charge.failed", data: { reference: payment.reference } }))).status,
    ).toBe(200);
    const after = await moneyState(org.id);
    expect(after).toMatchObject({ ledger: 0, coverages: 0, events: ["payment.failed"] });
    expect(after.payments.map((p) => [p.status, p.paidAt])).toEqual([["failed", null]]);
  });

  it("other events and unknown references are acknowledged and ignored", async () => {
    const { payment, org } = await pendingPayment();
    charge(payment.reference, "success");
    const before = await moneyState(org.id);
    for (const payload of [
      { event: "transfer.success", data: { reference: payment.reference } },
      { event: "charge.success", data: {} },
      { event: "charge.success", data: { reference: "cdp_unknown_reference" } },
    ]) {
      expect((await app.webhook.POST(webhookRequest(payload))).status, JSON.stringify(payload)).toBe(200);
    }
    expect(verifyCalls(payment.reference)).toBe(0);
    expect(await moneyState(org.id)).toEqual(before);
  });

  it("an oversized webhook body is refused (413) before its signature is checked, streamed or not", async () => {
    const big = "x".repeat(2 * 1024 * 1024);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        if (pulled > 16 * 1024 * 1024) return controller.close();
        controller.enqueue(new Uint8Array(64 * 1024).fill(120));
      },
    });
    const chunked = new Request("http://127.0.0.1/api/webhooks/paystack", {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-paystack-signature": sign("x") },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect((await app.webhook.POST(chunked)).status).toBe(413);
    expect(pulled).toBeLessThan(2 * 1024 * 1024);
    const declared = new Request("http://127.0.0.1/api/webhooks/paystack", {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-paystack-signature": sign(big) },
      body: big,
    });
    expect((await app.webhook.POST(declared)).status).toBe(413);
  });

  it("verifyPayment on a pending Paystack payment asks Paystack and settles it", async () => {
    const { payment, org, actor, policy } = await pendingPayment("300.00");
    // Still ongoing on Paystack: pending, nothing written.
    expect(await app.service.verifyPayment(actor, payment.reference)).toMatchObject({ status: "pending", coverage: null });
    expect(verifyCalls(payment.reference)).toBe(1);

    charge(payment.reference, "success");
    const verified = await app.service.verifyPayment(actor, payment.reference);
    expect(verifyCalls(payment.reference)).toBe(2);
    expect(verified).toMatchObject({
      reference: payment.reference,
      status: "success",
      amount: "300.00",
      coverage: { policyId: policy.id, customerEmail: "ada@example.test", status: "active", renewalCount: 0 },
    });
    expect(verified.paidAt).not.toBeNull();
    const ledger = await app.db.ledgerTransaction.findMany({ where: { organizationId: org.id }, orderBy: { type: "asc" } });
    expect(ledger.map((l) => [l.type, l.amountMinor])).toEqual([
      ["payment", 30_000n],
      ["fee", -450n],
    ]);

    // Settled: Paystack is not asked again, and a late webhook changes nothing.
    await app.service.verifyPayment(actor, payment.reference);
    expect(verifyCalls(payment.reference)).toBe(2);
    const before = await moneyState(org.id);
    await app.webhook.POST(webhookRequest({ event: "charge.success", data: { reference: payment.reference } }));
    expect(await moneyState(org.id)).toEqual(before);
  });

  it("the sandbox checkout refuses a Paystack payment (it is paid on Paystack's page)", async () => {
    const { payment, org } = await pendingPayment();
    const before = await moneyState(org.id);
    const card = app.schemas.CheckoutInput.parse({
      cardNumber: app.checkout.SANDBOX_CARDS.success,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: "123",
    });
    expect(await codeOf(app.checkout.payWithCard(payment.reference, card))).toBe("invalid_state");
    expect(await moneyState(org.id)).toEqual(before);
  });
});

// ---------- the hosted checkout with Paystack configured ----------

const cardJson = () => ({
  cardNumber: "4242424242424242",
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: "123",
});
function checkoutPost(path: string, body?: unknown) {
  return new Request(`http://127.0.0.1/api/checkout/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}
const payByCard = (reference: string) => app.checkoutRoute.POST(checkoutPost(reference, cardJson()));
const retryRoute = (reference: string) => app.retryRoute.POST(checkoutPost(`${reference}/retry`));

describe("the hosted checkout with Paystack configured", () => {
  it("a failed Paystack payment is retried on Paystack: a new Paystack transaction, its URL answered, never the sandbox", async () => {
    const { payment, org, policy } = await pendingPayment("1000.00");
    charge(payment.reference, "failed");
    await app.webhook.POST(webhookRequest({ event: "charge.failed", data: { reference: payment.reference } }));
    fake.requests.length = 0;

    const res = await retryRoute(payment.reference);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { reference: string; authorizationUrl: string };
    expect(Object.keys(body).sort()).toEqual(["authorizationUrl", "reference"]);
    expect(body.reference).not.toBe(payment.reference);
    expect(body.authorizationUrl).toBe(`https://checkout.paystack.test/${body.reference}`);
    expect(initializeCalls().map((r) => r.body)).toEqual([
      { email: "ada@example.test", amount: "100000", currency: "NGN", reference: body.reference },
    ]);
    const next = await app.db.payment.findUniqueOrThrow({ where: { reference: body.reference } });
    expect(next).toMatchObject({
      provider: "paystack",
      status: "pending",
      authorizationUrl: body.authorizationUrl,
      amountMinor: 100_000n,
      currency: "NGN",
      policyId: policy.id,
      email: "ada@example.test",
    });

    // The sandbox card form cannot settle it: 409, problem+json, nothing credited.
    const paid = await payByCard(body.reference);
    expect(paid.status).toBe(409);
    expect(paid.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await paid.json()).toMatchObject({ code: "invalid_state", requestId: expect.stringMatching(/^req_/) });
    const state = await moneyState(org.id);
    expect(state).toMatchObject({ ledger: 0, coverages: 0, events: ["payment.failed"] });
    expect(state.payments.map((p) => [p.reference, p.status])).toEqual([
      [payment.reference, "failed"],
      [body.reference, "pending"],
    ]);

    // Paid on Paystack, it settles like any Paystack payment.
    charge(body.reference, "success");
    await app.webhook.POST(webhookRequest({ event: "charge.success", data: { reference: body.reference } }));
    expect(await moneyState(org.id)).toMatchObject({ ledger: 2, coverages: 1 });
  });

  it("an abandoned Paystack payment (still pending here) is checked with Paystack, failed, then retried", async () => {
    const { payment } = await pendingPayment();
    charge(payment.reference, "abandoned");
    const out = await app.checkout.retryPayment(payment.reference);
    expect(verifyCalls(payment.reference)).toBe(1);
    expect((await app.db.payment.findUniqueOrThrow({ where: { reference: payment.reference } })).status).toBe("failed");
    expect(out.authorizationUrl).toBe(`https://checkout.paystack.test/${out.reference}`);
    expect((await app.db.payment.findUniqueOrThrow({ where: { reference: out.reference } })).provider).toBe("paystack");
  });

  it("a Paystack payment still ongoing cannot be retried (409); nothing is initialized", async () => {
    const { payment, org } = await pendingPayment();
    fake.requests.length = 0;
    const before = await moneyState(org.id);
    expect((await retryRoute(payment.reference)).status).toBe(409);
    expect(initializeCalls()).toEqual([]);
    expect(await moneyState(org.id)).toEqual(before);
  });

  it("a sandbox payment made before Paystack was configured is neither paid by the card form nor retried into the sandbox", async () => {
    const { payment, org } = await pendingPayment();
    const old = await app.db.payment.create({
      data: {
        organizationId: org.id,
        policyId: payment.policyId,
        reference: `cdp_old_sandbox_${crypto.randomBytes(6).toString("hex")}`,
        email: "old@example.test",
        amountMinor: 100_000n,
        currency: "NGN",
        provider: "sandbox",
      },
    });
    const before = await moneyState(org.id);
    expect((await payByCard(old.reference)).status).toBe(409);
    expect(await moneyState(org.id)).toEqual(before);

    await app.db.payment.update({ where: { id: old.id }, data: { status: "failed" } });
    fake.requests.length = 0;
    const retried = await retryRoute(old.reference);
    expect(retried.status).toBe(409);
    expect(await retried.json()).toMatchObject({ code: "invalid_state" });
    expect(initializeCalls()).toEqual([]);
    expect((await moneyState(org.id)).payments).toHaveLength(2);
  });
});

/** The owner's actor of an organization (for verifyPayment). */
async function orgActor(organizationId: string) {
  const owner = await app.db.member.findFirstOrThrow({ where: { organizationId, role: "OWNER" } });
  return { organizationId, userId: owner.userId, role: "OWNER" as const };
}
