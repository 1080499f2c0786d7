// Payment links over HTTP (issue 26): the REST resource, and the public page
// /buy/<slug> a visitor opens without any key — the policy in the business's
// branding with Open Graph tags, a form whose errors come back all at once,
// 303 to the checkout, 404 / 410 / 429 pages, a honeypot, and the payment
// attributed to its link. The 401/403/404-other-organization cases of the
// REST endpoints are the generated security matrix's.
import crypto from "node:crypto";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { problem } from "../support/api";
import { createPolicyFor, errorPaths, ok, payReference, tenantWithClients } from "./_helpers";

const LINK_FIELDS = [
  "active",
  "collectPhone",
  "createdAt",
  "currency",
  "id",
  "livemode",
  "name",
  "payments",
  "policyId",
  "policyName",
  "redirectUrl",
  "revenue",
  "started",
  "updatedAt",
  "url",
  "views",
];

/**
 * A visitor of its own: requests go out from a fresh loopback address (Linux
 * routes all of 127/8 to lo), so the per-address limit of each test starts at
 * zero and the rest of the suite's 127.0.0.1 is untouched.
 */
const visitor = () => `127.${1 + crypto.randomInt(254)}.${crypto.randomInt(256)}.${1 + crypto.randomInt(254)}`;

interface Answer {
  status: number;
  headers: { get(name: string): string | null };
  text: () => Promise<string>;
}

/** The public page, as a visitor's browser asks for it (no key, no cookie), from `source`. */
function page(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  source = "127.0.0.1",
) {
  const { hostname, port } = new URL(BASE_URL);
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port: Number(port),
        method: init.method ?? "GET",
        path,
        localAddress: source,
        agent: false,
        headers: init.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: res.statusCode ?? 0,
            headers: { get: (n) => (res.headers[n.toLowerCase()] as string | undefined) ?? null },
            text: async () => body,
          });
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${path}`)));
    req.on("error", reject);
    req.end(init.body);
  });
}
const form = (fields: Record<string, string>) => {
  const body = new URLSearchParams(fields).toString();
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) },
    body,
  };
};
const pathOf = (url: string) => new URL(url).pathname;

test.describe("payment links (REST)", () => {
  test("create, read, list with figures, turn off; bad input 422 and nothing made", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { name: "Okada cover", price: "2500.00", duration: "monthly" });
    const link = await ok(
      await t.write.post("business/payment-links", { data: { policyId: policy.id, name: "Motor park", collectPhone: true } }),
      201,
    );
    expect(Object.keys(link).sort()).toEqual(LINK_FIELDS);
    expect(link).toMatchObject({ policyName: "Okada cover", active: true, collectPhone: true, livemode: true, revenue: "0.00" });
    expect(link.url).toMatch(new RegExp(`^${BASE_URL}/buy/[A-Za-z0-9_-]{12}$`));
    expect(await ok(await t.read.get(`business/payment-links/${link.id}`))).toEqual(link);

    for (const [body, path] of [
      [{ policyId: policy.id, redirectUrl: "javascript:alert(1)" }, "redirectUrl"],
      [{ policyId: policy.id, name: "x".repeat(121) }, "name"],
      [{ policyId: policy.id, collectPhone: "yes" }, "collectPhone"],
      [{}, "policyId"],
      [{ policyId: policy.id, extra: 1 }, "extra"],
    ] as const) {
      const err = await problem(await t.write.post("business/payment-links", { data: body }), 422, "validation_failed");
      // (An unknown field is named in the message of the body's own error.)
      expect(path === "extra" ? JSON.stringify(err.errors) : errorPaths(err), JSON.stringify(body)).toContain(path);
    }
    await problem(await t.write.post("business/payment-links", { data: { policyId: "no-such-policy" } }), 404, "not_found");
    await problem(await t.write.patch(`business/payment-links/${link.id}`, { data: {} }), 422, "validation_failed");
    expect((await ok(await t.read.get("business/payment-links"))).data.map((l: { id: string }) => l.id)).toEqual([link.id]);

    const off = await ok(await t.write.patch(`business/payment-links/${link.id}`, { data: { active: false } }));
    expect(off.active).toBe(false);
    expect((await page(pathOf(link.url))).status).toBe(410);
  });
});

test.describe("the public page /buy/<slug>", () => {
  test("shows the policy with Open Graph tags; the form's errors all at once (422); a visitor pays and the payment records the link", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { name: "Shop & Stock <cover>", price: "1500.00" });
    const link = await ok(
      await t.write.post("business/payment-links", { data: { policyId: policy.id, collectPhone: true } }),
      201,
    );
    const path = pathOf(link.url);
    const me = visitor();

    const shown = await page(path, {}, me);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toContain("text/html");
    const html = await shown.text();
    expect(html).toContain("<h1>Shop &#38; Stock &#60;cover&#62;</h1>"); // escaped
    expect(html).toMatch(/<meta property="og:title" content="Shop &#38; Stock &#60;cover&#62; — [^"]+">/);
    expect(html).toContain('<meta name="twitter:card" content="summary">');
    expect(html).toContain("₦1,500.00");
    expect(html).not.toContain("<script"); // no JavaScript at all
    expect(html).not.toContain('class="test"'); // a live link

    // Every error at once, the values kept, nothing started.
    const bad = await page(path, form({ name: "", email: "not-an-email", phone: "12" }), me);
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    for (const id of ["name", "email", "phone"]) expect(badHtml).toContain(`id="${id}-error"`);
    expect(badHtml).toContain('value="not-an-email"');
    expect(badHtml).toContain("Check the 3 fields marked below.");
    // A bot filling the hidden field: refused, nothing started.
    const bot = await page(path, form({ name: "Bot", email: "bot@example.test", website: "https://spam.example" }), me);
    expect(bot.status).toBe(400);
    // A NUL in a field (PostgreSQL refuses it), another media type, a body past the form's size
    // (chunked: no Content-Length to trust): refused with the page, never a 500, nothing started.
    const nul = await page(path, form({ name: "Ada\u0000", email: "ada@example.test" }), me);
    expect(nul.status).toBe(422);
    expect(await nul.text()).toContain('id="name-error"');
    const json = await page(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }, me);
    expect(json.status).toBe(415);
    const huge = await page(
      path,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
        body: `name=${"a".repeat(64 * 1024)}`,
      },
      me,
    );
    expect(huge.status).toBe(413);
    expect((await ok(await t.read.get(`payments?paymentLinkId=${link.id}`))).data).toEqual([]);

    // A local Nigerian number becomes E.164; the visitor goes to the checkout.
    const started = await page(path, form({ name: "Ada Obi", email: "Ada@Example.test", phone: "0803 123 4567" }), me);
    expect(started.status).toBe(303);
    const checkout = started.headers.get("location")!;
    expect(checkout).toMatch(/\/pay\/cdp_/);
    const reference = checkout.split("/pay/")[1]!;
    expect((await payReference(reference)).status).toBe(200);
    const payment = await ok(await t.read.get(`payments/verify/${reference}`));
    expect(payment).toMatchObject({ status: "success", email: "ada@example.test", paymentLinkId: link.id, amount: "1500.00" });
    const listed = await ok(await t.read.get(`payments?paymentLinkId=${link.id}`));
    expect(listed.data.map((p: { reference: string }) => p.reference)).toEqual([reference]);

    const figures = await ok(await t.read.get(`business/payment-links/${link.id}`));
    expect(figures).toMatchObject({ started: 1, payments: 1, revenue: "1500.00" });
    // Views are written in batches (METERING_FLUSH_MS): the page was opened once.
    await expect
      .poll(async () => (await ok(await t.read.get(`business/payment-links/${link.id}`))).views, { timeout: 10_000 })
      .toBe(1);
  });

  test("a test-mode link says TEST; unknown, badly encoded or NUL slugs 404; off or off sale 410", async () => {
    const live = await tenantWithClients();
    const t = await tenantWithClients(undefined, "test");
    const policy = await createPolicyFor(t.write);
    const link = await ok(await t.write.post("business/payment-links", { data: { policyId: policy.id } }), 201);
    expect(link.livemode).toBe(false);
    const html = await (await page(pathOf(link.url))).text();
    expect(html).toContain('<span class="test">TEST</span>');
    expect(html).toContain("pay with a test card");

    // (A slug the router itself cannot decode gets the app's own branded 404 page.)
    for (const slug of ["nothere12345", "%E0%A4%A", "abc%00def1234", "x".repeat(300)]) {
      const res = await page(`/buy/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(await res.text(), slug).toMatch(/This link does not exist|Page not found/);
    }

    // The policy taken off sale after the link was made: 410, on GET and POST.
    const livePolicy = await createPolicyFor(live.write);
    const liveLink = await ok(await live.write.post("business/payment-links", { data: { policyId: livePolicy.id } }), 201);
    await ok(await live.write.patch(`business/policies/${livePolicy.id}/status`, { data: { isActive: false } }));
    const gone = await page(pathOf(liveLink.url));
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain("no longer available");
    expect((await page(pathOf(liveLink.url), form({ name: "A", email: "a@example.test" }), visitor())).status).toBe(410);
  });

  test("200 rapid starts from one address: 10 go to the checkout, the rest 429 with Retry-After; no more pending payments", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const link = await ok(await t.write.post("business/payment-links", { data: { policyId: policy.id } }), 201);
    const path = pathOf(link.url);
    const bot = visitor();
    const statuses: number[] = [];
    const batch = 20;
    for (let i = 0; i < 200; i += batch) {
      const answers = await Promise.all(
        Array.from({ length: batch }, (_, j) => page(path, form({ name: "Rapid", email: `r${i + j}@example.test` }), bot)),
      );
      statuses.push(...answers.map((a) => a.status));
      const last = answers.find((a) => a.status === 429);
      if (last) {
        expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await last.text()).toContain("Too many tries");
      }
    }
    expect(statuses.filter((s) => s === 303)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(190);
    expect((await ok(await t.read.get(`payments?paymentLinkId=${link.id}&limit=100`))).data).toHaveLength(10);
  });
});
