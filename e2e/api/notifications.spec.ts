// Notices over REST, through the running app: the templates a business edits
// (GET /business/notification-templates, PUT and DELETE …/{kind}), the SMS a
// test-mode payment with a phone writes to DATA_DIR/sms/, and the portal's
// sign-in code by SMS and contact preferences. No key, revoked keys, read-only
// keys and unknown names are checked for every operation by the security matrix.
import fs from "node:fs/promises";
import path from "node:path";
import { expect, test, request as playwrightRequest } from "@playwright/test";
import { BASE_URL, unique } from "../support/api";
import { buyPolicy, createPolicyFor, ok, otherSide, tenantWithClients } from "./_helpers";
import { waitForMailbox } from "./_mail";

const smsDirectory = () => path.join(process.env.E2E_DATA_DIR ?? "", "sms");

interface SmsFile {
  to: string;
  body: string;
  kind: string;
  livemode: boolean;
  createdAt: string;
}

async function smsTo(to: string): Promise<SmsFile[]> {
  const names = await fs.readdir(smsDirectory()).catch(() => [] as string[]);
  const all = await Promise.all(
    names
      .filter((n) => n.endsWith(".json"))
      .map(async (n) => JSON.parse(await fs.readFile(path.join(smsDirectory(), n), "utf8")) as SmsFile),
  );
  return all.filter((m) => m.to === to).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

async function waitForSms(to: string, done: (texts: SmsFile[]) => boolean, what: string): Promise<SmsFile[]> {
  let texts: SmsFile[] = [];
  await expect
    .poll(async () => done((texts = await smsTo(to))), { message: `${what} to ${to} in ${smsDirectory()}`, timeout: 30_000 })
    .toBe(true);
  return texts;
}

const mobile = () => `+23481${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

test("templates: defaults listed; a business's words saved, refused field by field with nothing changed, and restored", async () => {
  const a = await tenantWithClients();
  const b = await tenantWithClients();
  const list = await ok(await a.read.get("business/notification-templates"));
  expect(list.data.map((t: { kind: string }) => t.kind)).toEqual([
    "receipt",
    "claim_received",
    "claim_approved",
    "claim_rejected",
    "claim_paid",
    "refund",
    "cancellation",
    "renewal_reminder",
    "auto_renewal_reminder",
    "renewal_failed",
  ]);
  const approved = list.data.find((t: { kind: string }) => t.kind === "claim_approved");
  expect(approved).toMatchObject({ customized: false, updatedAt: null, link: "portalLink" });
  expect(approved.placeholders.map((p: { name: string }) => p.name)).toEqual(
    expect.arrayContaining(["customerName", "policyName", "amount", "claimStatus", "portalLink"]),
  );

  const words = {
    emailSubject: "Good news about your claim, {{customerName}}",
    emailBody: "We approved {{amount}}.\n\n<b>Thank you</b>",
    smsBody: "{{businessName}}: approved {{amount}}. {{portalLink}}",
  };
  const saved = await ok(await a.write.put("business/notification-templates/claim_approved", { data: words }));
  expect(saved).toMatchObject({ ...words, kind: "claim_approved", customized: true });

  const refusals: [Record<string, string>, string, RegExp][] = [
    [{ emailSubject: "Hi {{nope}}" }, "emailSubject", /Unknown placeholder \{\{nope\}\}/],
    [{ emailBody: "{{#lambda}}x{{/lambda}}" }, "emailBody", /not allowed/],
    [{ emailBody: "{{{customerName}}}" }, "emailBody", /not allowed/],
    [{ smsBody: "Approved {{amount}}" }, "smsBody", /must include the link \{\{portalLink\}\}/],
    [{ smsBody: `${"x".repeat(300)}{{portalLink}}` }, "smsBody", /.+/],
    [{ emailBody: "x".repeat(5001) }, "emailBody", /5000 characters/],
    [{ emailSubject: "" }, "emailSubject", /.+/],
  ];
  for (const [patch, field, message] of refusals) {
    const res = await a.write.put("business/notification-templates/claim_approved", { data: { ...words, ...patch } });
    expect(res.status(), JSON.stringify(patch).slice(0, 80)).toBe(422);
    expect(res.headers()["content-type"]).toContain("application/problem+json");
    const body = await res.json();
    expect(body.code).toBe("validation_failed");
    expect(body.errors.find((e: { path: string }) => e.path === field)?.message).toMatch(message);
  }
  // An unknown field is refused too (strict input), and an unknown notice is not found.
  expect((await a.write.put("business/notification-templates/claim_approved", { data: { ...words, html: "x" } })).status()).toBe(422);
  const unknown = await a.write.put("business/notification-templates/no_such_notice", { data: words });
  expect(unknown.status()).toBe(404);
  // Nothing changed by the refusals; the other business still has the default words.
  const after = (await ok(await a.read.get("business/notification-templates"))).data.find(
    (t: { kind: string }) => t.kind === "claim_approved",
  );
  expect(after).toMatchObject({ ...words, customized: true });
  const theirs = (await ok(await b.read.get("business/notification-templates"))).data.find(
    (t: { kind: string }) => t.kind === "claim_approved",
  );
  expect(theirs).toMatchObject({ emailSubject: approved.emailSubject, customized: false });
  // A test key sees the account's words and cannot change them.
  const test = await otherSide(a, "test");
  const seen = (await ok(await test.read.get("business/notification-templates"))).data.find(
    (t: { kind: string }) => t.kind === "claim_approved",
  );
  expect(seen.emailSubject).toBe(words.emailSubject);
  expect((await test.write.put("business/notification-templates/claim_approved", { data: words })).status()).toBe(403);

  const restored = await ok(await a.write.delete("business/notification-templates/claim_approved"));
  expect(restored).toMatchObject({ customized: false, emailSubject: approved.emailSubject, updatedAt: null });
});

test("a test-mode payment that carried a phone: the receipt as a [Test] SMS file, in the business's words", async () => {
  const live = await tenantWithClients();
  await ok(await live.write.put("business/settings", { data: { notifications: { sms: true } } }));
  await ok(
    await live.write.put("business/notification-templates/receipt", {
      data: {
        emailSubject: "Receipt: {{policyName}}",
        emailBody: "Thanks, {{customerName}}.",
        smsBody: "Paid {{amount}} for {{policyName}}, {{customerName}}. {{portalLink}}",
      },
    }),
  );
  const test = await otherSide(live, "test");
  const policy = await createPolicyFor(test.write, { name: "Keke Cover", price: "2500.00" });
  const phone = mobile();
  const email = `ngozi-${unique()}@example.test`;
  const payment = await ok(
    await test.write.post("payments/initialize", {
      data: { amount: 2500, policyId: policy.id, email, name: "Ngozi Eze", phone: `0${phone.slice(4)}` },
    }),
    201,
  );
  const checkout = await playwrightRequest.newContext({ baseURL: `${BASE_URL}/` });
  const paid = await checkout.post(`api/checkout/${payment.reference}`, {
    data: { cardNumber: "4242424242424242", expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: "123" },
  });
  expect(paid.status()).toBe(200);
  await checkout.dispose();
  const [text] = await waitForSms(phone, (t) => t.length >= 1, "the receipt");
  expect(text).toMatchObject({ to: phone, kind: "customer_receipt", livemode: false });
  expect(text!.body).toMatch(/^\[Test\] Paid NGN 2,500\.00 for Keke Cover, Ngozi Eze\. http/);
  expect(text!.body).toContain(`/portal/`);
  const mails = await waitForMailbox(email, (m) => m.length >= 1, "the receipt");
  expect(mails[0]!.subject).toBe("[Test] Receipt: Keke Cover");
});

test("portal: a code asked for by SMS goes to the phone on file; the policyholder changes the phone and turns texts off", async () => {
  const a = await tenantWithClients();
  const policy = await createPolicyFor(a.write);
  const email = `tunde-${unique()}@example.test`;
  const phone = mobile();
  const paid = await buyPolicy(a.write, policy, email, { phone });
  expect(paid.status).toBe("success");
  const organizationId = a.organizationId;
  const portal = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });
  const ask = await portal.post(`/api/portal/${organizationId}/code`, { data: { email, via: "sms" } });
  expect(ask.status()).toBe(202);
  const texts = await waitForSms(phone, (t) => t.some((m) => m.kind === "portal_code"), "a sign-in code");
  const code = /^(\d{6}) is your /.exec(texts.find((t) => t.kind === "portal_code")!.body)![1]!;
  expect((await portal.post(`/api/portal/${organizationId}/session`, { data: { email, code } })).status()).toBe(200);

  expect(await ok(await portal.get(`/api/portal/${organizationId}/contact`))).toEqual({ phone, smsOptOut: false });
  const bad = await portal.put(`/api/portal/${organizationId}/contact`, { data: { phone: "12" } });
  expect(bad.status()).toBe(422);
  expect((await bad.json()).errors[0].path).toBe("phone");
  expect(await ok(await portal.get(`/api/portal/${organizationId}/contact`))).toEqual({ phone, smsOptOut: false });
  const next = mobile();
  expect(await ok(await portal.put(`/api/portal/${organizationId}/contact`, { data: { phone: next, smsOptOut: true } }))).toEqual({
    phone: next,
    smsOptOut: true,
  });
  // Signed out: no contact to read or change.
  const stranger = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: BASE_URL } });
  expect((await stranger.get(`/api/portal/${organizationId}/contact`)).status()).toBe(401);
  expect((await stranger.put(`/api/portal/${organizationId}/contact`, { data: { smsOptOut: false } })).status()).toBe(401);
  await Promise.all([portal.dispose(), stranger.dispose()]);
});
