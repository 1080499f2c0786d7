// Live SMS through the notice job: the real twilio SDK against a local
// stand-in of Twilio's API. What a refusal, an outage and a silent provider do
// to the task row — and to nothing else.
//
// The app reads its environment once, so Twilio's variables are set and the
// cached environment dropped BEFORE the app's modules load (dynamically,
// below); this file runs isolated.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeTwilio, twilioErrors, type TwilioAnswer, type TwilioRequest } from "@/test/fake-twilio";

const SID = `AC${"fedcba9876543210".repeat(2)}`;
const TOKEN = "twilio_token_for_notice_tests_42";
const FROM = "+15005550006";

const requests: TwilioRequest[] = [];
let answer: (req: TwilioRequest) => TwilioAnswer = () => "queued";
const twilio = fakeTwilio({ accountSid: SID, authToken: TOKEN, requests, answer: (req) => answer(req) });

type App = {
  db: typeof import("@/server/db/client").db;
  runJobsOnce: typeof import("@/server/jobs/runner").runJobsOnce;
  fixtures: typeof import("@/test/fixtures");
  settings: typeof import("@/server/settings/service");
  policies: typeof import("@/server/policies/service");
  payments: typeof import("@/server/payments/service");
  checkout: typeof import("@/server/payments/checkout");
  schemas: typeof import("@/lib/schemas/payments") & typeof import("@/lib/schemas/policies") & typeof import("@/lib/schemas/settings");
};
let app: App;

beforeAll(async () => {
  vi.stubEnv("TWILIO_ACCOUNT_SID", SID);
  vi.stubEnv("TWILIO_AUTH_TOKEN", TOKEN);
  vi.stubEnv("SMS_FROM", FROM);
  vi.stubEnv("TWILIO_API_URL", await twilio.start());
  vi.stubEnv("SMS_TIMEOUT_MS", "400");
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  app = {
    db: (await import("@/server/db/client")).db,
    runJobsOnce: (await import("@/server/jobs/runner")).runJobsOnce,
    fixtures: await import("@/test/fixtures"),
    settings: await import("@/server/settings/service"),
    policies: await import("@/server/policies/service"),
    payments: await import("@/server/payments/service"),
    checkout: await import("@/server/payments/checkout"),
    schemas: {
      ...(await import("@/lib/schemas/payments")),
      ...(await import("@/lib/schemas/policies")),
      ...(await import("@/lib/schemas/settings")),
    },
  };
});

afterAll(async () => {
  await twilio.stop();
  vi.unstubAllEnvs();
});

beforeEach(() => {
  requests.length = 0;
  answer = () => "queued";
});

/** A live business with SMS on, and a paid customer with this phone: their receipt goes by email and SMS. */
async function paidCustomer(phone: string) {
  const { fixtures, settings, policies, payments, checkout, schemas } = app;
  const { actor, org } = await fixtures.ownerWithOrganization();
  await settings.updateSettings(actor, schemas.UpdateSettingsInput.parse({ notifications: { sms: true, email: false } }));
  const policy = await policies.createPolicy(
    actor,
    schemas.CreatePolicyInput.parse({ name: "Shop cover", type: "business", duration: "yearly", price: "25.00" }),
  );
  const email = `sms-${fixtures.unique()}@example.test`;
  const payment = await payments.initializePayment(actor, schemas.InitializePaymentInput.parse({ amount: 25, policyId: policy.id, email, phone }));
  await checkout.payWithCard(
    payment.reference,
    schemas.CheckoutInput.parse({ cardNumber: checkout.SANDBOX_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" }),
  );
  return { org, email };
}

/** Runs the job until both of the receipt's tasks were tried once. */
async function tryOnce(organizationId: string) {
  await vi.waitFor(
    async () => {
      await app.runJobsOnce();
      const tasks = await app.db.mailTask.findMany({ where: { organizationId, kind: "customer_receipt" } });
      expect(tasks).toHaveLength(2);
      expect(tasks.every((t) => t.sentAt || t.attempts > 0)).toBe(true);
    },
    { timeout: 30_000, interval: 50 },
  );
  const tasks = await app.db.mailTask.findMany({ where: { organizationId, kind: "customer_receipt" } });
  return { email: tasks.find((t) => t.channel === "email")!, sms: tasks.find((t) => t.channel === "sms")! };
}

describe("SMS through Twilio", () => {
  it("sends the receipt to the customer's phone from SMS_FROM and keeps what it said", async () => {
    const { org } = await paidCustomer("+2348031112233");
    const { email, sms } = await tryOnce(org.id);
    const sent = requests.find((r) => r.form.To === "+2348031112233")!;
    expect(sent.form.From).toBe(FROM);
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString("base64")}`);
    expect(sms).toMatchObject({ sentAt: expect.any(Date), failedAt: null, preview: sent.form.Body });
    expect(sent.form.Body).toContain("NGN 25.00");
    expect(email.sentAt).not.toBeNull();
  });

  it("a number Twilio refuses is failed at once and never retried; the email of the same notice still goes", async () => {
    answer = (req) => twilioErrors.invalidTo(req.form.To!);
    const { org } = await paidCustomer("+2348039998877");
    const { email, sms } = await tryOnce(org.id);
    expect(sms).toMatchObject({ sentAt: null, attempts: 1, failedAt: expect.any(Date) });
    expect(sms.lastError).toContain("21211");
    expect(sms.lastError).not.toContain(TOKEN);
    expect(email.sentAt).not.toBeNull();
    requests.length = 0;
    await app.runJobsOnce();
    expect(requests).toEqual([]);
  });

  it("an outage (5xx) and a provider that never answers are retried later, the row alone touched", async () => {
    answer = () => twilioErrors.internal;
    const first = await paidCustomer("+2348035554433");
    const { sms } = await tryOnce(first.org.id);
    expect(sms).toMatchObject({ sentAt: null, failedAt: null, attempts: 1 });
    expect(sms.runAt.getTime()).toBeGreaterThan(Date.now() + 30_000);

    answer = () => "hang";
    const second = await paidCustomer("+2348036665544");
    const started = Date.now();
    const { sms: silent } = await tryOnce(second.org.id);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(silent).toMatchObject({ sentAt: null, failedAt: null, attempts: 1 });
    expect(silent.lastError).toMatch(/did not answer|timeout/i);
    // The payment it is about is untouched.
    expect(await app.db.payment.count({ where: { organizationId: second.org.id, status: "success" } })).toBe(1);
  });
});
