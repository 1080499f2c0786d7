// The Paystack payout provider's micro-deposit against a local fake of
// Paystack's REST API: the bank code from its bank list, a NUBAN transfer
// recipient, a 1.00 transfer whose reason carries the code; then the whole
// path through the bank accounts service.
//
// The app reads its environment once (cached on globalThis), so PAYSTACK_* are
// stubbed and the cache dropped BEFORE any app module is imported: every app
// import below is dynamic (see src/server/payments/paystack.test.ts).
import { fakePaystack, type FakeRequest } from "@/test/fake-paystack";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const SECRET = "sk_test_coverdesk_payouts_0123456789abcdef";
const BANKS = [
  { id: 1, name: "Access Bank", code: "044", currency: "NGN", type: "nuban" },
  { id: 2, name: "Guaranty Trust Bank", code: "058", currency: "NGN", type: "nuban" },
];

const fake = {
  requests: [] as FakeRequest[],
  /** The fake refuses transfers while set (a balance too low for the 1.00 deposit). */
  refuseTransfers: false,
};

const paystack = fakePaystack({
  secret: SECRET,
  requests: fake.requests,
  route: ({ method, path, body }, reply) => {
    if (method === "GET" && path === "/bank?currency=NGN") {
      return reply(200, { status: true, message: "Banks retrieved", data: BANKS });
    }
    if (method === "POST" && path === "/transferrecipient") {
      return reply(201, {
        status: true,
        message: "Transfer recipient created successfully",
        data: { recipient_code: `RCP_${String(body?.account_number)}`, type: "nuban", details: body },
      });
    }
    if (method === "POST" && path === "/transfer") {
      if (fake.refuseTransfers)
        return reply(400, { status: false, message: "Your balance is not enough to fulfil this request" });
      return reply(200, {
        status: true,
        message: "Transfer has been queued",
        data: { transfer_code: "TRF_fake", status: "pending", reference: body?.reference },
      });
    }
  },
});

let app: {
  provider: typeof import("./provider");
  service: typeof import("@/server/bank-accounts/service");
  schemas: typeof import("@/lib/schemas/bank-accounts");
  fixtures: typeof import("@/test/fixtures");
  db: typeof import("@/server/db/client").db;
  errors: typeof import("@/server/errors");
};

beforeAll(async () => {
  const baseUrl = await paystack.start();
  vi.stubEnv("PAYSTACK_SECRET_KEY", SECRET);
  // Live money through Paystack, not the sandbox the test config selects.
  vi.stubEnv("PAYMENTS_PROVIDER", "");
  vi.stubEnv("PAYSTACK_BASE_URL", baseUrl);
  delete (globalThis as { __coverdeskEnv?: unknown }).__coverdeskEnv;
  const db = await import("@/server/db/client");
  await db.connectDatabase();
  app = {
    provider: await import("./provider"),
    service: await import("@/server/bank-accounts/service"),
    schemas: await import("@/lib/schemas/bank-accounts"),
    fixtures: await import("@/test/fixtures"),
    db: db.db,
    errors: await import("@/server/errors"),
  };
  const { env } = await import("@/server/env");
  expect(env.PAYSTACK_BASE_URL).toBe(baseUrl);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await paystack.stop();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.refuseTransfers = false;
});

const account = { bankName: "access bank", accountNumber: "0123456789", accountName: "Ada Stores Ltd", currency: "NGN" };
const reasonCode = (reason: unknown) => /^Coverdesk verification ([A-Z0-9]{6})$/.exec(String(reason))?.[1];

async function failure(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(app.errors.AppError);
  return err as InstanceType<typeof app.errors.AppError>;
}

describe("Paystack micro-deposit", () => {
  it("is the active payout provider when PAYSTACK_SECRET_KEY is set", () => {
    expect(app.provider.activePayoutProvider().name).toBe("paystack");
  });

  it("finds the bank code by name, creates a NUBAN recipient, and sends 1.00 with the code in its reason", async () => {
    const deposit = await app.provider.activePayoutProvider().startVerification(account);
    expect(deposit.recipientCode).toBe("RCP_0123456789");
    expect(deposit.verificationCode).toMatch(/^[A-Z0-9]{6}$/);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /bank?currency=NGN",
      "POST /transferrecipient",
      "POST /transfer",
    ]);
    expect(fake.requests.every((r) => r.authorization === `Bearer ${SECRET}`)).toBe(true);
    expect(fake.requests[1]!.body).toEqual({
      type: "nuban",
      name: "Ada Stores Ltd",
      account_number: "0123456789",
      bank_code: "044",
      currency: "NGN",
    });
    const transfer = fake.requests[2]!.body!;
    expect(transfer).toMatchObject({ source: "balance", amount: 100, recipient: "RCP_0123456789" });
    expect(reasonCode(transfer.reason)).toBe(deposit.verificationCode);
    expect(String(transfer.reference)).toMatch(/^[a-z0-9_]{16,50}$/);
  });

  it("codes differ from one deposit to the next", async () => {
    const provider = app.provider.activePayoutProvider();
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) codes.add((await provider.startVerification(account)).verificationCode);
    expect(codes.size).toBeGreaterThan(1);
  });

  it("a bank Paystack does not list → validation_failed on bankName, nothing sent", async () => {
    const err = await failure(app.provider.activePayoutProvider().startVerification({ ...account, bankName: "Bank of Nowhere" }));
    expect(err.code).toBe("validation_failed");
    expect(err.extra.errors).toEqual([{ path: "bankName", message: expect.any(String) }]);
    expect(fake.requests.map((r) => r.path)).toEqual(["/bank?currency=NGN"]);
  });
});

describe("bank accounts on Paystack", () => {
  const input = (accountNumber: string, bankName = "Guaranty Trust Bank") =>
    app.schemas.AddBankAccountInput.parse({ bankName, accountNumber, accountName: "Ada Stores Ltd" });

  it("adding stores the recipient; the code in the transfer's reason verifies the account", async () => {
    const { actor } = await app.fixtures.ownerWithOrganization();
    const added = await app.service.addBankAccount(actor, input("1234567890"));
    const row = await app.db.bankAccount.findUniqueOrThrow({ where: { id: added.id } });
    expect(row).toMatchObject({ provider: "paystack", recipientCode: "RCP_1234567890", status: "pending_verification" });
    const code = reasonCode(fake.requests.find((r) => r.path === "/transfer")?.body?.reason);
    expect(code).toBeDefined();
    // The sandbox's code means nothing here.
    const wrong = await failure(
      app.service.verifyBankAccount(actor, added.id, app.schemas.VerifyBankAccountInput.parse({ verificationCode: "SM11AA" })),
    );
    expect(wrong.extra.attemptsRemaining).toBe(2);
    const verified = await app.service.verifyBankAccount(actor, added.id, { verificationCode: code! });
    expect(verified).toMatchObject({ status: "verified", isDefault: true });
    expect(app.service.sandboxHint(actor)).toEqual({ code: null });
  });

  it("a refused deposit is a provider_error (502) and writes nothing", async () => {
    const { actor, org } = await app.fixtures.ownerWithOrganization();
    fake.refuseTransfers = true;
    const err = await failure(app.service.addBankAccount(actor, input("2234567890")));
    expect(err.code).toBe("provider_error");
    expect(err.status).toBe(502);
    expect(await app.db.bankAccount.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await app.db.event.count({ where: { organizationId: org.id, type: { startsWith: "bank_account." } } })).toBe(0);
  });

  it("an unknown bank is 422 on bankName and writes nothing", async () => {
    const { actor, org } = await app.fixtures.ownerWithOrganization();
    const err = await failure(app.service.addBankAccount(actor, input("3234567890", "Bank of Nowhere")));
    expect(err.code).toBe("validation_failed");
    expect(await app.db.bankAccount.count({ where: { organizationId: org.id } })).toBe(0);
  });
});
