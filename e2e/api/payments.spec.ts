// REST: /payments (initialize, verify, list), /business/coverages, and the
// hosted checkout's own endpoints (/api/checkout/{reference}, /retry) — with
// the money a payment moves, seen through the policy's analytics.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL, problem, restClient, trpc } from "../support/api";
import {
  CARDS,
  buyPolicy,
  cardBody,
  checkoutClient,
  createPolicyFor,
  errorPaths,
  initializeFor,
  ISO,
  listAll,
  ok,
  payReference,
  send,
  tenantWithClients,
  type HttpMethod,
} from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const PAYMENT_FIELDS = [
  "reference",
  "status",
  "amount",
  "currency",
  "policyId",
  "email",
  "authorizationUrl",
  "paidAt",
  "createdAt",
  "amountRefunded",
  "paymentLinkId",
  "renewal",
];
const COVERAGE_FIELDS = [
  "id",
  "policyId",
  "customerEmail",
  "status",
  "startsAt",
  "periodStartsAt",
  "endsAt",
  "renewalCount",
  "certificateNumber",
  "cancelledAt",
  "cancellationReason",
  "autoRenew",
  "card",
  "graceEndsAt",
];
const REFERENCE = /^[A-Za-z0-9_-]{16,100}$/;

function expectPaymentShape(p: Record<string, any>) {
  expect(Object.keys(p).sort()).toEqual([...PAYMENT_FIELDS].sort());
  expect(p.reference).toMatch(REFERENCE);
  expect(["pending", "success", "failed"]).toContain(p.status);
  expect(p.amount).toMatch(/^\d+\.\d{2}$/);
  expect(p.amountRefunded).toMatch(/^\d+\.\d{2}$/);
  expect(p.currency).toMatch(/^[A-Z]{3}$/);
  expect(p.authorizationUrl).toBe(`${BASE_URL}/pay/${p.reference}`);
  expect(p.createdAt).toMatch(ISO);
  if (p.status === "success") expect(p.paidAt).toMatch(ISO);
  else expect(p.paidAt).toBeNull();
}

/** PostgreSQL's `timestamp + interval 'n months'`: the day is clamped to the end of a shorter month. */
function addMonths(iso: string, months: number): string {
  const d = new Date(iso);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  target.setUTCHours(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  return target.toISOString();
}
const MONTHS = { monthly: 1, quarterly: 3, yearly: 12 } as const;

const verify = async (client: APIRequestContext, reference: string) => ok(await client.get(`payments/verify/${reference}`));
const analytics = async (client: APIRequestContext, policyId: string) =>
  ok(await client.get(`business/policies/${policyId}/analytics`));

const withoutCoverage = ({ coverage: _coverage, ...payment }: Record<string, any>) => payment;

/** Payments as listed, for "nothing was created or changed" checks. */
async function paymentsSnapshot(client: APIRequestContext) {
  const page = await ok(await client.get("payments?limit=100"));
  return page.data;
}

test.describe("POST /payments/initialize", () => {
  test("201: a pending payment for the policy's price, with the hosted checkout URL; listed and verifiable", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "150" });
    const payment = await ok(
      await t.write.post("payments/initialize", { data: { amount: 150, policyId: policy.id, email: "Ada.Obi@Example.test" } }),
      201,
    );
    expectPaymentShape(payment);
    expect(payment).toMatchObject({
      status: "pending",
      amount: "150.00",
      currency: "NGN",
      policyId: policy.id,
      email: "ada.obi@example.test",
      paidAt: null,
    });
    expect(Math.abs(Date.parse(payment.createdAt) - Date.now())).toBeLessThan(5 * 60_000);
    expect(await paymentsSnapshot(t.read)).toEqual([payment]);
    expect(await verify(t.read, payment.reference)).toEqual({ ...payment, coverage: null });
  });

  test("the amount may be given with fewer decimals than the price; a callbackUrl is accepted", async () => {
    const t = await tenantWithClients();
    const cases: [string, number, string][] = [
      ["150.50", 150.5, "150.50"],
      ["2500.00", 2500, "2500.00"],
      ["0.01", 0.01, "0.01"],
      ["19.99", 19.99, "19.99"],
    ];
    for (const [price, amount, answered] of cases) {
      const policy = await createPolicyFor(t.write, { price });
      const p = await ok(
        await t.write.post("payments/initialize", {
          data: { amount, policyId: policy.id, email: "ada@example.test", callbackUrl: "https://shop.example.test/thanks?x=1" },
        }),
        201,
      );
      expect(p.amount, price).toBe(answered);
    }
  });

  test("every payment gets its own unguessable reference", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const refs = await Promise.all(
      Array.from({ length: 10 }, (_, i) => initializeFor(t.write, policy, `c${i}@example.test`).then((p) => p.reference)),
    );
    expect(new Set(refs).size).toBe(10);
    for (const r of refs) expect(r.length).toBeGreaterThanOrEqual(20);
  });

  for (const [label, amount] of [
    ["one cent more", 150.01],
    ["one cent less", 149.99],
    ["ten times the price", 1500],
  ] as const) {
    test(`an amount other than the price (${label}) → 422 amount_mismatch naming amount, nothing created`, async () => {
      const t = await tenantWithClients();
      const policy = await createPolicyFor(t.write, { price: "150.00" });
      const err = await problem(
        await t.write.post("payments/initialize", { data: { amount, policyId: policy.id, email: "ada@example.test" } }),
        422,
        "amount_mismatch",
      );
      expect(err.errors).toEqual([{ path: "amount", message: expect.stringContaining("150.00") }]);
      expect(await paymentsSnapshot(t.write)).toEqual([]);
    });
  }

  const invalid: [string, Record<string, unknown>, string][] = [
    ["amount with 3 decimals", { amount: 150.001 }, "amount"],
    ["amount 0", { amount: 0 }, "amount"],
    ["amount negative", { amount: -150 }, "amount"],
    ["amount as a string", { amount: "150.00" }, "amount"],
    ["amount null", { amount: null }, "amount"],
    ["amount missing", { amount: undefined }, "amount"],
    ["policyId missing", { policyId: undefined }, "policyId"],
    ["policyId not a string", { policyId: 12 }, "policyId"],
    ["email missing", { email: undefined }, "email"],
    ["email not an email", { email: "ada-at-example" }, "email"],
    ["callbackUrl not a URL", { callbackUrl: "not a url" }, "callbackUrl"],
    ["callbackUrl not http(s)", { callbackUrl: "javascript:alert(1)" }, "callbackUrl"],
    ["an unknown field", { status: "success" }, "status"],
    ["phone that is no phone number", { phone: "12" }, "phone"],
    ["name too long", { name: "n".repeat(121) }, "name"],
  ];
  for (const [label, overrides, path] of invalid) {
    test(`${label} → 422 naming ${path}, nothing created`, async () => {
      const t = await tenantWithClients();
      const policy = await createPolicyFor(t.write);
      const body = { amount: 150, policyId: policy.id, email: "ada@example.test", ...overrides };
      const err = await problem(await t.write.post("payments/initialize", { data: body }), 422, "validation_failed");
      expect(JSON.stringify(err.errors)).toContain(path);
      if (path !== "status") expect(errorPaths(err)).toContain(path);
      expect(await paymentsSnapshot(t.write)).toEqual([]);
    });
  }

  test("malformed JSON → 400; no body → 422; nothing created", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.post("payments/initialize", {
        data: Buffer.from('{"amount": 1'),
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "malformed_json",
    );
    await problem(await t.write.post("payments/initialize"), 422, "validation_failed");
    expect(await paymentsSnapshot(t.write)).toEqual([]);
  });

  test("an inactive or soft-deleted policy → 409 policy_inactive; on sale again → 201", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const body = { amount: 150, policyId: policy.id, email: "ada@example.test" };
    await ok(await t.write.patch(`business/policies/${policy.id}/status`, { data: { isActive: false } }));
    await problem(await t.write.post("payments/initialize", { data: body }), 409, "policy_inactive");
    await ok(await t.write.patch(`business/policies/${policy.id}/status`, { data: { isActive: true } }));
    await ok(await t.write.delete(`business/policies/${policy.id}`));
    await problem(await t.write.post("payments/initialize", { data: body }), 409, "policy_inactive");
    expect(await paymentsSnapshot(t.write)).toEqual([]);
    await ok(await t.write.patch(`business/policies/${policy.id}/status`, { data: { isActive: true } }));
    await ok(await t.write.post("payments/initialize", { data: body }), 201);
  });

  test("an unknown policy, or another organization's, → 404; nothing created in either organization", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const theirs = await createPolicyFor(b.write);
    for (const policyId of [theirs.id, "does-not-exist"]) {
      await problem(
        await a.write.post("payments/initialize", { data: { amount: 150, policyId, email: "ada@example.test" } }),
        404,
        "not_found",
      );
    }
    expect(await paymentsSnapshot(a.write)).toEqual([]);
    expect(await paymentsSnapshot(b.write)).toEqual([]);
  });

  test("invalid input is reported before an unknown policy (422 before 404)", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.post("payments/initialize", { data: { amount: 0, policyId: "does-not-exist", email: "ada@example.test" } }),
      422,
      "validation_failed",
    );
  });

  test("Idempotency-Key: the same request twice creates one payment and replays the answer", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const data = { amount: 150, policyId: policy.id, email: "ada@example.test" };
    const headers = { "Idempotency-Key": `pay-${Date.now()}` };
    const created = await ok(await t.write.post("payments/initialize", { data, headers }), 201);
    const again = await t.write.post("payments/initialize", { data, headers });
    expect(await ok(again, 201)).toEqual(created);
    expect(again.headers()["idempotent-replayed"]).toBe("true");
    await problem(
      await t.write.post("payments/initialize", { data: { ...data, email: "other@example.test" }, headers }),
      422,
      "idempotency_key_reused",
    );
    expect(await paymentsSnapshot(t.write)).toEqual([created]);
  });
});

test.describe("POST /api/checkout/{reference} (the hosted checkout; no API key)", () => {
  test("the success card pays: 200 {reference, status}, the payment is success with paidAt", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "150.00" });
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    const client = await checkoutClient();
    const res = await client.post(`api/checkout/${payment.reference}`, {
      data: { cardNumber: "4242 4242 4242 4242", expMonth: "12", expYear: (new Date().getUTCFullYear() + 1) % 100, cvc: "123" },
    });
    expect(await ok(res)).toEqual({ reference: payment.reference, status: "success" });
    expect(res.headers()["x-request-id"]).toMatch(/^req_/);
    // A caller's own request id is echoed, as on the REST API.
    const again = await client.post(`api/checkout/${payment.reference}`, {
      data: { cardNumber: "4242 4242 4242 4242", expMonth: "12", expYear: (new Date().getUTCFullYear() + 1) % 100, cvc: "123" },
      headers: { "X-Request-Id": "support-ticket-42" },
    });
    expect(again.status()).toBe(409);
    expect(again.headers()["x-request-id"]).toBe("support-ticket-42");
    expect((await again.json()).requestId).toBe("support-ticket-42");
    const paid = await verify(t.read, payment.reference);
    expectPaymentShape(withoutCoverage(paid));
    expect(paid).toMatchObject({ reference: payment.reference, status: "success", amount: "150.00" });
    expect(Math.abs(Date.parse(paid.paidAt) - Date.now())).toBeLessThan(5 * 60_000);
    await client.dispose();
  });

  test("the customer's name is optional, at most 120 characters, and kept on the payment and the customer", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "150.00" });
    const payment = await initializeFor(t.write, policy, "ngozi@example.test");
    const client = await checkoutClient();
    for (const [name, message] of [
      ["n".repeat(121), "Use at most 120 characters"],
      [42, "Enter text"],
    ] as const) {
      const err = await problem(
        await client.post(`api/checkout/${payment.reference}`, { data: cardBody(CARDS.success, { name }) }),
        422,
        "validation_failed",
      );
      expect(err.errors).toEqual([{ path: "name", message }]);
      expect((await verify(t.read, payment.reference)).status).toBe("pending");
    }
    await ok(
      await client.post(`api/checkout/${payment.reference}`, { data: cardBody(CARDS.success, { name: "  Ngozi Adeyemi " }) }),
    );
    const detail = await trpc<{ customerName: string; customer: { id: string; name: string } }>(
      t.account,
      "payments.detail",
      { reference: payment.reference },
      "query",
    );
    expect(detail.customerName).toBe("Ngozi Adeyemi");
    expect(detail.customer).toMatchObject({ id: expect.any(String), name: "Ngozi Adeyemi" });
    // The REST Payment keeps its documented fields: the name is the dashboard's.
    expect(Object.keys(withoutCoverage(await verify(t.read, payment.reference)))).not.toContain("customerName");
    await client.dispose();
  });

  test("a paid reference cannot be paid (or declined) again → 409 payment_not_pending; the money moved once", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "1000.00" });
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    expect((await payReference(payment.reference)).status).toBe(200);
    const client = await checkoutClient();
    for (const card of [CARDS.success, CARDS.declined, CARDS.other]) {
      await problem(await client.post(`api/checkout/${payment.reference}`, { data: cardBody(card) }), 409, "payment_not_pending");
    }
    expect((await verify(t.read, payment.reference)).status).toBe("success");
    expect((await analytics(t.read, policy.id)).revenue).toEqual({ gross: "1000.00", fees: "15.00", net: "985.00" });
    await client.dispose();
  });

  test("the declined card → 402 card_declined; the payment is failed and cannot be paid", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    const client = await checkoutClient();
    const err = await problem(
      await client.post(`api/checkout/${payment.reference}`, { data: cardBody(CARDS.declined) }),
      402,
      "card_declined",
    );
    expect(err.detail).toMatch(/declined/i);
    const failed = await verify(t.read, payment.reference);
    expect(failed).toMatchObject({ status: "failed", paidAt: null, coverage: null });
    await problem(
      await client.post(`api/checkout/${payment.reference}`, { data: cardBody(CARDS.success) }),
      409,
      "payment_not_pending",
    );
    expect(await verify(t.read, payment.reference)).toEqual(failed);
    expect((await analytics(t.read, policy.id)).purchases).toBe(0);
    await client.dispose();
  });

  test("any other card → 422 naming cardNumber; the payment stays pending and can still be paid", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    const client = await checkoutClient();
    const err = await problem(
      await client.post(`api/checkout/${payment.reference}`, { data: cardBody(CARDS.other) }),
      422,
      "validation_failed",
    );
    expect(errorPaths(err)).toEqual(["cardNumber"]);
    expect(await verify(t.read, payment.reference)).toEqual({ ...payment, coverage: null });
    expect((await payReference(payment.reference)).status).toBe(200);
    await client.dispose();
  });

  const thisYear = new Date().getUTCFullYear();
  const badBodies: [string, unknown, string][] = [
    ["an empty object", {}, "cardNumber"],
    ["no cvc", { cardNumber: CARDS.success, expMonth: 12, expYear: thisYear + 1 }, "cvc"],
    ["a 2-digit cvc", cardBody(CARDS.success, { cvc: "12" }), "cvc"],
    ["a numeric cvc", cardBody(CARDS.success, { cvc: 123 }), "cvc"],
    ["month 13", cardBody(CARDS.success, { expMonth: 13 }), "expMonth"],
    ["month 0", cardBody(CARDS.success, { expMonth: 0 }), "expMonth"],
    ["last year", cardBody(CARDS.success, { expYear: thisYear - 1 }), "expYear"],
    ["letters in the number", cardBody("4242abcd42424242"), "cardNumber"],
    ["an 11-digit number", cardBody("42424242424"), "cardNumber"],
    ["an extra field", cardBody(CARDS.success, { amount: 1 }), "amount"],
  ];
  for (const [label, body, path] of badBodies) {
    test(`${label} → 422 naming ${path}; the payment stays pending`, async () => {
      const t = await tenantWithClients();
      const policy = await createPolicyFor(t.write);
      const payment = await initializeFor(t.write, policy, "ada@example.test");
      const client = await checkoutClient();
      const err = await problem(
        await client.post(`api/checkout/${payment.reference}`, { data: body as any }),
        422,
        "validation_failed",
      );
      expect(JSON.stringify(err.errors)).toContain(path);
      expect(await verify(t.read, payment.reference)).toEqual({ ...payment, coverage: null });
      await client.dispose();
    });
  }

  test("malformed JSON → 400 malformed_json; the payment stays pending", async () => {
    const t = await tenantWithClients();
    const payment = await initializeFor(t.write, await createPolicyFor(t.write), "ada@example.test");
    const client = await checkoutClient();
    await problem(
      await client.post(`api/checkout/${payment.reference}`, {
        data: Buffer.from('{"cardNumber": "4242'),
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "malformed_json",
    );
    expect((await verify(t.read, payment.reference)).status).toBe("pending");
    await client.dispose();
  });

  // The checkout takes no API key, so it must not read any body a stranger sends: the REST
  // API's body rules apply (API_MAX_BODY_BYTES, 1 MiB here; JSON only), before the body is read whole.
  test("a body over 1 MiB → 413 payload_too_large (problem+json with a request id); the payment stays pending", async () => {
    const t = await tenantWithClients();
    const payment = await initializeFor(t.write, await createPolicyFor(t.write), "ada@example.test");
    const client = await checkoutClient();
    const huge = JSON.stringify(cardBody(CARDS.success, { padding: "x".repeat(1024 * 1024) }));
    const body = await problem(
      await client.post(`api/checkout/${payment.reference}`, {
        data: Buffer.from(huge),
        headers: { "Content-Type": "application/json" },
      }),
      413,
      "payload_too_large",
    );
    expect(body.requestId).toMatch(/^req_/);
    expect((await verify(t.read, payment.reference)).status).toBe("pending");
    await client.dispose();
  });

  /** A connection the server closed while the client still wrote: null, as no answer; anything else is thrown. */
  const closedUnderUs = (err: { cause?: { code?: string } }): null => {
    if (err.cause?.code === "EPIPE" || err.cause?.code === "ECONNRESET") return null;
    throw err;
  };

  test("a chunked body over 1 MiB, without Content-Length → 413 payload_too_large; the payment stays pending", async () => {
    const t = await tenantWithClients();
    const payment = await initializeFor(t.write, await createPolicyFor(t.write), "ada@example.test");
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"cardNumber":"4242424242424242","padding":"'));
      },
      pull(controller) {
        // 4 MiB in all, a JSON string never closed: only a byte count can refuse it early.
        if (sent >= 4 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    // The server answers 413 and closes as soon as the count passes the limit; a client still
    // writing may then see the connection close (EPIPE / ECONNRESET) instead of the answer —
    // still a refusal before the whole body was read. When the answer arrives, it is the 413.
    const res = await fetch(`${BASE_URL}/api/checkout/${payment.reference}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit).catch(closedUnderUs);
    if (res) {
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      // The close can also cut the answer's body after its status line (seen in CI: "terminated", EPIPE).
      const body = await res.json().catch(closedUnderUs);
      if (body) expect(body).toMatchObject({ code: "payload_too_large", requestId: expect.stringMatching(/^req_/) });
    }
    expect((await verify(t.read, payment.reference)).status).toBe("pending");
  });

  for (const type of ["text/plain", "application/x-www-form-urlencoded", null]) {
    test(`a card body sent as ${type ?? "no Content-Type"} → 415 unsupported_media_type; the payment stays pending`, async () => {
      const t = await tenantWithClients();
      const payment = await initializeFor(t.write, await createPolicyFor(t.write), "ada@example.test");
      const res = await fetch(`${BASE_URL}/api/checkout/${payment.reference}`, {
        method: "POST",
        headers: type ? { "Content-Type": type } : {},
        body: new TextEncoder().encode(JSON.stringify(cardBody(CARDS.success))),
      });
      expect(res.status).toBe(415);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ code: "unsupported_media_type", requestId: expect.stringMatching(/^req_/) });
      expect((await verify(t.read, payment.reference)).status).toBe("pending");
    });
  }

  test("application/*+json is JSON too: the card pays", async () => {
    const t = await tenantWithClients();
    const payment = await initializeFor(t.write, await createPolicyFor(t.write), "ada@example.test");
    const client = await checkoutClient();
    const res = await client.post(`api/checkout/${payment.reference}`, {
      data: Buffer.from(JSON.stringify(cardBody(CARDS.success))),
      headers: { "Content-Type": "application/vnd.api+json; charset=utf-8" },
    });
    expect(await ok(res)).toEqual({ reference: payment.reference, status: "success" });
    await client.dispose();
  });

  // SPEC §3 "Inactive policies cannot be bought (409 policy_inactive)" — also through a link made before.
  test("a pending link of a policy taken off sale since → 409 policy_inactive; the payment stays pending", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    await ok(await t.write.patch(`business/policies/${policy.id}/status`, { data: { isActive: false } }));
    const client = await checkoutClient();
    await problem(
      await client.post(`api/checkout/${payment.reference}`, { data: cardBody(CARDS.success) }),
      409,
      "policy_inactive",
    );
    expect(await verify(t.read, payment.reference)).toEqual({ ...payment, coverage: null });
    expect(await listAll(t.read, "business/coverages")).toEqual([]);
    await client.dispose();
  });

  test("an unknown reference → 404 not_found", async () => {
    const client = await checkoutClient();
    await problem(await client.post("api/checkout/cdp_does_not_exist", { data: cardBody(CARDS.success) }), 404, "not_found");
    await problem(await client.post("api/checkout/cdp_does_not_exist/retry"), 404, "not_found");
    await client.dispose();
  });

  test("10 simultaneous payments of one reference: exactly one succeeds, the money moves once", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "200.00" });
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    const results = await Promise.all(Array.from({ length: 10 }, () => payReference(payment.reference)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe("payment_not_pending");
    const a = await analytics(t.read, policy.id);
    expect(a).toMatchObject({ purchases: 1, renewals: 0, revenue: { gross: "200.00", fees: "3.00", net: "197.00" } });
    expect((await listAll(t.read, "business/coverages")).length).toBe(1);
  });
});

test.describe("POST /api/checkout/{reference}/retry", () => {
  test("after a declined card: 200 with a new pending payment for the same policy, customer and amount", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "75.50" });
    const first = await initializeFor(t.write, policy, "ada@example.test");
    expect((await payReference(first.reference, CARDS.declined)).status).toBe(402);
    const client = await checkoutClient();
    const res = await client.post(`api/checkout/${first.reference}/retry`);
    const retried = await ok(res);
    const { reference } = retried;
    expect(retried.authorizationUrl).toBe(`${BASE_URL}/pay/${reference}`);
    const again = await ok(await client.post(`api/checkout/${first.reference}/retry`));
    // Where to pay the new payment: the same provider as the failed one, here our sandbox page.
    expect(Object.keys(again).sort()).toEqual(["authorizationUrl", "reference"]);
    expect(again.authorizationUrl).toBe(`${BASE_URL}/pay/${again.reference}`);
    expect(reference).not.toBe(first.reference);
    expect(reference).toMatch(REFERENCE);

    const next = await verify(t.read, reference);
    expectPaymentShape(withoutCoverage(next));
    expect(next).toMatchObject({
      reference,
      status: "pending",
      amount: "75.50",
      currency: first.currency,
      policyId: policy.id,
      email: "ada@example.test",
      paidAt: null,
      authorizationUrl: `${BASE_URL}/pay/${reference}`,
      coverage: null,
    });
    expect((await verify(t.read, first.reference)).status).toBe("failed");

    expect((await payReference(reference)).status).toBe(200);
    expect((await verify(t.read, reference)).status).toBe("success");
    const a = await analytics(t.read, policy.id);
    expect(a.purchases).toBe(1);
    expect(a.revenue.gross).toBe("75.50");
    await client.dispose();
  });

  test("an announced body over 1 MiB → 413 payload_too_large; nothing created", async () => {
    const t = await tenantWithClients();
    const first = await initializeFor(t.write, await createPolicyFor(t.write), "ada@example.test");
    expect((await payReference(first.reference, CARDS.declined)).status).toBe(402);
    const before = await paymentsSnapshot(t.read);
    const client = await checkoutClient();
    await problem(
      await client.post(`api/checkout/${first.reference}/retry`, {
        data: Buffer.alloc(1024 * 1024 + 1, "x"),
        headers: { "Content-Type": "application/json" },
      }),
      413,
      "payload_too_large",
    );
    expect(await paymentsSnapshot(t.read)).toEqual(before);
    await client.dispose();
  });

  test("a pending or paid payment cannot be retried → 409; nothing created", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const pending = await initializeFor(t.write, policy, "ada@example.test");
    const paid = await initializeFor(t.write, policy, "bola@example.test");
    await payReference(paid.reference);
    const before = await paymentsSnapshot(t.write);
    const client = await checkoutClient();
    for (const ref of [pending.reference, paid.reference]) {
      await problem(await client.post(`api/checkout/${ref}/retry`), 409, "invalid_state");
    }
    expect(await paymentsSnapshot(t.write)).toEqual(before);
    await client.dispose();
  });

  test("a failed payment of a policy taken off sale since → 409 policy_inactive; nothing created", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    await payReference(payment.reference, CARDS.declined);
    await ok(await t.write.patch(`business/policies/${policy.id}/status`, { data: { isActive: false } }));
    const before = await paymentsSnapshot(t.write);
    const client = await checkoutClient();
    await problem(await client.post(`api/checkout/${payment.reference}/retry`), 409, "policy_inactive");
    expect(await paymentsSnapshot(t.write)).toEqual(before);
    await client.dispose();
  });

  test("a failed payment whose policy price changed since → 409; nothing created", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "100.00" });
    const payment = await initializeFor(t.write, policy, "ada@example.test");
    await payReference(payment.reference, CARDS.declined);
    await ok(await t.write.put(`business/policies/${policy.id}`, { data: { price: "120.00" } }));
    const before = await paymentsSnapshot(t.write);
    const client = await checkoutClient();
    await problem(await client.post(`api/checkout/${payment.reference}/retry`), 409, "invalid_state");
    expect(await paymentsSnapshot(t.write)).toEqual(before);
    await client.dispose();
  });
});

test.describe("GET /payments/verify/{reference}", () => {
  test("a paid payment answers its coverage; pending and failed ones answer coverage null", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "150.00", duration: "yearly" });
    const pending = await initializeFor(t.write, policy, "pending@example.test");
    const failed = await initializeFor(t.write, policy, "failed@example.test");
    await payReference(failed.reference, CARDS.declined);
    const paid = await buyPolicy(t.write, policy, "ada@example.test");

    expect(Object.keys(paid).sort()).toEqual([...PAYMENT_FIELDS, "coverage"].sort());
    expect(Object.keys(paid.coverage).sort()).toEqual([...COVERAGE_FIELDS].sort());
    expect(paid.coverage).toMatchObject({
      id: expect.any(String),
      policyId: policy.id,
      customerEmail: "ada@example.test",
      status: "active",
      renewalCount: 0,
    });
    expect(paid.coverage.startsAt).toMatch(ISO);
    expect(paid.coverage.startsAt).toBe(paid.paidAt);
    expect(paid.coverage.endsAt).toBe(addMonths(paid.coverage.startsAt, 12));

    expect(await verify(t.read, pending.reference)).toEqual({ ...pending, coverage: null });
    expect(await verify(t.read, failed.reference)).toMatchObject({ status: "failed", coverage: null });
  });

  test("an unknown reference, or another organization's → 404 not_found", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const theirs = await initializeFor(b.write, await createPolicyFor(b.write), "ada@example.test");
    const paidTheirs = await buyPolicy(b.write, await createPolicyFor(b.write), "bola@example.test");
    for (const ref of [theirs.reference, paidTheirs.reference, "cdp_does_not_exist"]) {
      await problem(await a.read.get(`payments/verify/${ref}`), 404, "not_found");
      await problem(await a.write.get(`payments/verify/${ref}`), 404, "not_found");
    }
    expect((await verify(b.read, theirs.reference)).status).toBe("pending");
  });
});

test.describe("GET /payments", () => {
  test("lists the organization's payments newest first; filters by status and policy; pages", async () => {
    const [t, other] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const motor = await createPolicyFor(t.write, { name: "Motor", price: "100.00" });
    const home = await createPolicyFor(t.write, { name: "Home", price: "250.00" });
    await initializeFor(other.write, await createPolicyFor(other.write), "x@example.test");

    const p1 = await initializeFor(t.write, motor, "a@example.test");
    const p2 = await initializeFor(t.write, home, "b@example.test");
    const p3 = await initializeFor(t.write, motor, "c@example.test");
    const p4 = await initializeFor(t.write, home, "d@example.test");
    await payReference(p1.reference);
    await payReference(p2.reference, CARDS.declined);
    await payReference(p4.reference);

    const refs = async (qs: string) => (await ok(await t.read.get(`payments?${qs}`))).data.map((p: any) => p.reference);
    const cases: [string, string[]][] = [
      ["", [p4, p3, p2, p1].map((p) => p.reference)],
      ["status=success", [p4.reference, p1.reference]],
      ["status=failed", [p2.reference]],
      ["status=pending", [p3.reference]],
      [`policyId=${motor.id}`, [p3.reference, p1.reference]],
      [`policyId=${home.id}&status=success`, [p4.reference]],
      [`policyId=${home.id}&status=pending`, []],
      ["policyId=does-not-exist", []],
    ];
    for (const [qs, expected] of cases) expect(await refs(qs), qs || "(no filter)").toEqual(expected);

    const all = await ok(await t.read.get("payments"));
    for (const p of all.data) expectPaymentShape(p);
    expect(all.data.find((p: any) => p.reference === p1.reference)).toMatchObject({ status: "success", amount: "100.00" });

    const first = await ok(await t.read.get("payments?limit=3"));
    expect(first.data.map((p: any) => p.reference)).toEqual([p4, p3, p2].map((p) => p.reference));
    const second = await ok(await t.read.get(`payments?limit=3&cursor=${encodeURIComponent(first.nextCursor)}`));
    expect(second).toEqual({ data: [expect.objectContaining({ reference: p1.reference })], nextCursor: null });
  });

  for (const qs of ["status=paid", "limit=0", "limit=101", "cursor=nope!!"]) {
    test(`${qs} → 400 invalid_query`, async () => {
      const t = await tenantWithClients();
      await problem(await t.read.get(`payments?${qs}`), 400, "invalid_query");
    });
  }
});

test.describe("GET /business/coverages", () => {
  test("the first payment of (policy, email) creates a coverage; filters by policy and status", async () => {
    const [t, other] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    await buyPolicy(other.write, await createPolicyFor(other.write), "ada@example.test");
    expect(await ok(await t.read.get("business/coverages"))).toEqual({ data: [], nextCursor: null });

    const motor = await createPolicyFor(t.write, { name: "Motor", duration: "monthly", price: "10.00" });
    const home = await createPolicyFor(t.write, { name: "Home", duration: "quarterly", price: "30.00" });
    const ada = await buyPolicy(t.write, motor, "Ada@Example.test");
    const bola = await buyPolicy(t.write, home, "bola@example.test");
    const adaHome = await buyPolicy(t.write, home, "ada@example.test");
    // A pending and a failed payment create nothing.
    await initializeFor(t.write, motor, "pending@example.test");
    await payReference((await initializeFor(t.write, motor, "failed@example.test")).reference, CARDS.declined);

    const listed = await listAll(t.read, "business/coverages");
    expect(listed).toEqual([adaHome.coverage, bola.coverage, ada.coverage]);
    expect(ada.coverage).toMatchObject({
      policyId: motor.id,
      customerEmail: "ada@example.test",
      status: "active",
      renewalCount: 0,
    });
    expect(ada.coverage.endsAt).toBe(addMonths(ada.coverage.startsAt, 1));
    expect(bola.coverage.endsAt).toBe(addMonths(bola.coverage.startsAt, 3));
    expect(new Set(listed.map((c: any) => c.id)).size).toBe(3);

    const ids = async (qs: string) => (await ok(await t.read.get(`business/coverages?${qs}`))).data.map((c: any) => c.id);
    const cases: [string, string[]][] = [
      [`policyId=${motor.id}`, [ada.coverage.id]],
      [`policyId=${home.id}`, [adaHome.coverage.id, bola.coverage.id]],
      ["status=active", [adaHome.coverage.id, bola.coverage.id, ada.coverage.id]],
      ["status=expired", []],
      ["status=cancelled", []],
      [`policyId=${home.id}&status=active`, [adaHome.coverage.id, bola.coverage.id]],
      ["policyId=does-not-exist", []],
    ];
    for (const [qs, expected] of cases) expect(await ids(qs), qs).toEqual(expected);
    await problem(await t.read.get("business/coverages?status=lapsed"), 400, "invalid_query");
  });

  for (const duration of ["monthly", "quarterly", "yearly"] as const) {
    test(`a second paid payment (${duration}) renews the same coverage: renewalCount 1, endsAt extended by the duration`, async () => {
      const t = await tenantWithClients();
      const policy = await createPolicyFor(t.write, { duration, price: "40.00" });
      const first = await buyPolicy(t.write, policy, "ada@example.test");
      const second = await buyPolicy(t.write, policy, "ADA@example.test");
      expect(second.coverage).toEqual({
        ...first.coverage,
        renewalCount: 1,
        // The new period starts where the first one ends.
        periodStartsAt: first.coverage.endsAt,
        endsAt: addMonths(first.coverage.endsAt, MONTHS[duration]),
        // An auto-renewing cover's grace period follows its end (monthly and quarterly renew automatically by default).
        graceEndsAt:
          first.coverage.graceEndsAt &&
          new Date(Date.parse(addMonths(first.coverage.endsAt, MONTHS[duration])) + 7 * 86_400_000).toISOString(),
      });
      expect(await listAll(t.read, "business/coverages")).toEqual([second.coverage]);
      // Verifying the first payment now shows the coverage as it stands.
      expect((await verify(t.read, first.reference)).coverage).toEqual(second.coverage);

      const third = await buyPolicy(t.write, policy, "ada@example.test");
      expect(third.coverage.renewalCount).toBe(2);
      expect(third.coverage.endsAt).toBe(addMonths(first.coverage.endsAt, 2 * MONTHS[duration]));
      const a = await analytics(t.read, policy.id);
      expect(a).toMatchObject({
        purchases: 1,
        renewals: 2,
        activeCoverages: 1,
        revenue: { gross: "120.00", fees: "1.80", net: "118.20" },
      });
    });
  }
});

test.describe("GET /business/policies/{id}/analytics after payments", () => {
  // 1.5 % of the price, rounded half-up to the cent.
  const fees: [string, string, string][] = [
    ["1000.00", "15.00", "985.00"],
    ["99.99", "1.50", "98.49"], // 1.49985
    ["33.33", "0.50", "32.83"], // 0.49995
    ["0.34", "0.01", "0.33"], // 0.0051
    ["0.33", "0.00", "0.33"], // 0.00495
    ["150.00", "2.25", "147.75"],
  ];
  test("purchases, revenue gross/fees/net (1.5 % half-up) and today's series entry", async () => {
    const t = await tenantWithClients();
    for (const [price, fee, net] of fees) {
      const policy = await createPolicyFor(t.write, { price });
      await buyPolicy(t.write, policy, "ada@example.test");
      const a = await analytics(t.read, policy.id);
      expect(a, price).toMatchObject({
        currency: "NGN",
        purchases: 1,
        renewals: 0,
        activeCoverages: 1,
        revenue: { gross: price, fees: fee, net },
        conversionRate: 1,
      });
      const today = a.series.at(-1);
      expect(today, price).toEqual({ date: new Date().toISOString().slice(0, 10), purchases: 1, renewals: 0, gross: price });
    }
  });

  test("conversionRate = paid / initialized; failed and pending payments add nothing to revenue", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "1000.00" });
    await buyPolicy(t.write, policy, "ada@example.test");
    await initializeFor(t.write, policy, "pending@example.test");
    await payReference((await initializeFor(t.write, policy, "declined@example.test")).reference, CARDS.declined);
    expect(await analytics(t.read, policy.id)).toMatchObject({
      purchases: 1,
      renewals: 0,
      activeCoverages: 1,
      revenue: { gross: "1000.00", fees: "15.00", net: "985.00" },
      conversionRate: 0.3333,
    });
    await buyPolicy(t.write, policy, "bola@example.test");
    expect(await analytics(t.read, policy.id)).toMatchObject({
      purchases: 2,
      activeCoverages: 2,
      revenue: { gross: "2000.00", fees: "30.00", net: "1970.00" },
      conversionRate: 0.5,
    });
  });
});

// ---- Authentication, permissions, tenancy ---------------------------------------------------

interface Operation {
  method: HttpMethod;
  path: (ctx: { reference: string }) => string;
  body?: (ctx: { policyId: string }) => unknown;
}
const OPERATIONS: Operation[] = [
  { method: "GET", path: () => "payments" },
  {
    method: "POST",
    path: () => "payments/initialize",
    body: ({ policyId }) => ({ amount: 150, policyId, email: "intruder@example.test" }),
  },
  { method: "GET", path: ({ reference }) => `payments/verify/${reference}` },
  { method: "GET", path: () => "business/coverages" },
];
const label = (op: Operation) => `${op.method} ${op.path({ reference: "{reference}" })}`;

async function tenantWithSale() {
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write);
  const paid = await buyPolicy(t.write, policy, "ada@example.test");
  const revoked = await ok(
    await t.write.post("business/api-keys", { data: { name: "old", permissions: ["read", "write"] } }),
    201,
  );
  await ok(await t.write.delete(`business/api-keys/${revoked.id}`));
  return { ...t, policy, paid, revokedKey: revoked.key as string };
}

test.describe("401 without a valid key, on every endpoint; nothing changes", () => {
  for (const op of OPERATIONS) {
    test(label(op), async () => {
      const t = await tenantWithSale();
      const before = await paymentsSnapshot(t.write);
      const cases: [Record<string, string>, string][] = [
        [{}, "missing_api_key"],
        [{ Authorization: `Bearer cd_live_${"A".repeat(32)}` }, "invalid_api_key"],
        [{ Authorization: "Bearer nope" }, "invalid_api_key"],
        [{ Authorization: `Bearer ${t.revokedKey}` }, "revoked_api_key"],
      ];
      for (const [headers, code] of cases) {
        const client = await restClient(undefined, headers);
        await problem(
          await send(client, op.method, op.path({ reference: t.paid.reference }), op.body?.({ policyId: t.policy.id })),
          401,
          code,
        );
        await client.dispose();
      }
      expect(await paymentsSnapshot(t.write)).toEqual(before);
    });
  }
});

test.describe("a read-only key", () => {
  test("may list and verify, but POST /payments/initialize → 403 insufficient_permissions, nothing created", async () => {
    const t = await tenantWithSale();
    const before = await paymentsSnapshot(t.write);
    for (const body of [
      { amount: 150, policyId: t.policy.id, email: "x@example.test" },
      { bogus: true },
      { amount: 150, policyId: "does-not-exist", email: "x@example.test" },
    ]) {
      await problem(await t.read.post("payments/initialize", { data: body }), 403, "insufficient_permissions");
    }
    expect(await paymentsSnapshot(t.write)).toEqual(before);
    expect(await paymentsSnapshot(t.read)).toEqual(before);
    expect((await verify(t.read, t.paid.reference)).status).toBe("success");
    expect(await listAll(t.read, "business/coverages")).toEqual([t.paid.coverage]);
  });
});

test.describe("another organization's records are invisible", () => {
  test("its policy cannot be sold (404), its payment not verified (404), its lists stay apart", async () => {
    const [a, b] = await Promise.all([tenantWithSale(), tenantWithSale()]);
    await problem(
      await a.write.post("payments/initialize", { data: { amount: 150, policyId: b.policy.id, email: "x@example.test" } }),
      404,
      "not_found",
    );
    await problem(await a.read.get(`payments/verify/${b.paid.reference}`), 404, "not_found");
    expect((await paymentsSnapshot(a.read)).map((p: any) => p.reference)).toEqual([a.paid.reference]);
    expect((await paymentsSnapshot(b.read)).map((p: any) => p.reference)).toEqual([b.paid.reference]);
    expect(await ok(await a.read.get(`payments?policyId=${b.policy.id}`))).toEqual({ data: [], nextCursor: null });
    expect(await ok(await a.read.get(`business/coverages?policyId=${b.policy.id}`))).toEqual({ data: [], nextCursor: null });
    expect(await listAll(a.read, "business/coverages")).toEqual([a.paid.coverage]);
    await problem(await a.read.get(`business/policies/${b.policy.id}/analytics`), 404, "not_found");
    // B's books are untouched.
    expect((await analytics(b.read, b.policy.id)).purchases).toBe(1);
  });
});
