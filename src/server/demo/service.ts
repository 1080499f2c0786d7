// Sample data for a newcomer: a small, realistic insurance business made in
// an organization's TEST data, entirely through the services (so every state
// change writes its event and audit row as a real one would). Used by
// `npm run demo` (scripts/demo.ts) and the dashboard's "Load sample data".
//
// Idempotent: it does nothing when the test data already holds a policy, or
// when a load already claimed the organization (organization.sampleDataLoadedAt,
// set atomically first: two loads at once make one set).
// What it cannot do through the services: date things in the past — every
// service writes "now" (the ledger's daily rollups are kept from the same
// rows), so the history is made of renewal cycles run now, not back-dated.
import { assertCan, isLive, type Actor } from "@/server/actor";
import { AppError } from "@/server/errors";
import { db } from "@/server/db/client";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { PayClaimInput } from "@/lib/schemas/claim-payouts";
import { AddBankAccountInput } from "@/lib/schemas/bank-accounts";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { createPolicy } from "@/server/policies/service";
import { initializePayment } from "@/server/payments/service";
import { payWithCard } from "@/server/payments/checkout";
import { submitClaim, updateClaimStatus } from "@/server/claims/service";
import { payClaim } from "@/server/claim-payouts/service";
import { submitKyb } from "@/server/kyb/service";
import { addBankAccount, verifyBankAccount } from "@/server/bank-accounts/service";
import { requestWithdrawal } from "@/server/withdrawals/service";
import { createWebhook } from "@/server/webhooks/service";
import { createApiKey } from "@/server/api-keys/service";
import { simulateCoverageEnd } from "@/server/coverages/reminders";
import { runRenewals } from "@/server/renewals/job";
import { recordApiRequest, flushApiUsage } from "@/server/analytics/metering";
import { SANDBOX_CARDS } from "@/server/payments/provider";
import { SANDBOX_VERIFICATION_CODE } from "@/server/payouts/sandbox";
import { UploadedFile } from "@/server/files/multipart";
import { rgbPng } from "@/lib/png";
import type { SampleDataResult } from "@/lib/schemas/sample-data";

/** full: the `npm run demo` business; light: what the dashboard's button loads (a few seconds). */
export type SampleSize = "full" | "light";

const POLICIES = [
  { name: "Shop Fire & Burglary", type: "property", duration: "yearly", price: "85000.00" },
  { name: "Fleet Motor Cover", type: "auto", duration: "quarterly", price: "42500.00" },
  { name: "Staff Health Plan", type: "health", duration: "monthly", price: "12000.00" },
  { name: "Public Liability", type: "liability", duration: "yearly", price: "150000.00" },
  { name: "Goods in Transit", type: "business", duration: "monthly", price: "7500.00" },
] as const;

const CUSTOMERS = [
  ["Chinedu Okafor", "+2348031234567"],
  ["Aisha Bello", "+2348057654321"],
  ["Oluwaseun Adeyemi", "+2348092345678"],
  ["Ngozi Eze", "+2347061122334"],
  ["Ibrahim Musa", "+2348122233445"],
  ["Funmilayo Ogunleye", "+2349033344556"],
  ["Emeka Nwosu", "+2348064455667"],
  ["Halima Abubakar", "+2347015566778"],
  ["Tunde Bakare", "+2348146677889"],
  ["Chiamaka Obi", "+2349017788990"],
  ["Yusuf Danjuma", "+2348038899001"],
  ["Adaeze Umeh", "+2348169900112"],
] as const;

const emailOf = (name: string) => `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.ng`;

/** A small picture (a receipt-coloured block) and a one-page PDF: the evidence of each claim. */
const photo = (seed: number) =>
  new UploadedFile(
    "file1",
    `damage-${seed}.png`,
    "image/png",
    rgbPng(48, 32, (x, y) => [(x * 5 + seed * 40) % 256, (y * 7) % 256, 120]),
  );
const report = (seed: number) =>
  new UploadedFile(
    "file2",
    `report-${seed}.pdf`,
    "application/pdf",
    Buffer.from(
      `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
      "latin1",
    ),
  );

const card = (cardNumber: string, name: string, phone?: string) =>
  CheckoutInput.parse({ cardNumber, expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: "123", name, phone });

/**
 * Makes the sample business in `actor`'s test data. `actor` acts as the test twin
 * (livemode false) and `account` as the live organization (for the test API key).
 * Live mode is refused: sample data never touches real data.
 */
export async function loadSampleData(
  actor: Actor,
  size: SampleSize = "full",
  /** Told each step as it ends (the script prints them). */
  step: (label: string) => void = () => {},
): Promise<SampleDataResult> {
  // Webhooks, verification and money out are an admin's: a member cannot load it all.
  assertCan(actor, "admin");
  if (isLive(actor)) {
    throw new AppError("test_mode_only", "Sample data is loaded into test data only: switch to test mode first");
  }
  const org = actor.organizationId;
  const counts = async (created: boolean): Promise<SampleDataResult> => ({
    created,
    policies: await db.policy.count({ where: { organizationId: org } }),
    payments: await db.payment.count({ where: { organizationId: org } }),
    claims: await db.claim.count({ where: { organizationId: org } }),
    webhooks: await db.webhook.count({ where: { organizationId: org } }),
  });
  if ((await db.policy.count({ where: { organizationId: org } })) > 0) return counts(false);
  // Claimed in one statement before anything is made: of two loads at once (two tabs, two instances)
  // one sets the column and loads, the other finds it set and loads nothing.
  const claimed = await db.organization.updateMany({
    where: { id: org, sampleDataLoadedAt: null },
    data: { sampleDataLoadedAt: new Date() },
  });
  if (claimed.count === 0) return counts(false);
  try {
    return await load(actor, size, step, counts);
  } catch (err) {
    // What was made stays (each step is a committed service call); the claim goes, so a load after a
    // failure before the first policy was made starts again.
    await db.organization.updateMany({ where: { id: org }, data: { sampleDataLoadedAt: null } });
    throw err;
  }
}

async function load(
  actor: Actor,
  size: SampleSize,
  step: (label: string) => void,
  counts: (created: boolean) => Promise<SampleDataResult>,
): Promise<SampleDataResult> {
  const org = actor.organizationId;
  const full = size === "full";
  // Webhooks first: the events below are then fanned out to it, and the job runner delivers them
  // (example.com answers with an error, so the delivery log shows failed attempts and their retries).
  // A machine without DNS cannot register it (the address is checked): the rest is made without it.
  try {
    await createWebhook(actor, {
      url: "https://example.com/coverdesk/webhooks",
      events: ["payment.completed", "payment.failed", "policy.purchased", "policy.renewed", "claim.submitted", "claim.updated"],
    });
  } catch (err) {
    if (!(err instanceof AppError && err.code === "validation_failed")) throw err;
  }

  step("webhook");
  const policies = [];
  for (const p of full ? POLICIES : POLICIES.slice(0, 3)) {
    policies.push(
      await createPolicy(
        actor,
        CreatePolicyInput.parse({
          ...p,
          description: `${p.name} for small businesses in Lagos and Abuja.`,
          benefits: ["24/7 claims line", "Payout within 10 working days"],
          exclusions: ["Wilful damage"],
        }),
      ),
    );
  }

  step("policies");
  // Purchases: most pay; two are declined; some cards decline their renewals later.
  const customers = full ? CUSTOMERS : CUSTOMERS.slice(0, 6);
  const bought: { email: string; policyId: string; duration: string; name: string }[] = [];
  for (const [i, [name, phone]] of customers.entries()) {
    const policy = policies[i % policies.length]!;
    const email = emailOf(name);
    const payment = await initializePayment(
      actor,
      InitializePaymentInput.parse({ policyId: policy.id, amount: Number(policy.price), email, name, phone }),
    );
    const declined = i === 3 || i === 10;
    const cardNumber = declined ? SANDBOX_CARDS.declined : i % 4 === 2 ? SANDBOX_CARDS.declinesLater : SANDBOX_CARDS.success;
    try {
      await payWithCard(payment.reference, card(cardNumber, name, phone));
      bought.push({ email, policyId: policy.id, duration: policy.duration, name });
    } catch (err) {
      if (!(err instanceof AppError && err.code === "card_declined")) throw err;
    }
  }

  step("purchases");
  // Renewals: the monthly and quarterly covers reach their end and are charged
  // (the cards that decline later fail: past due). Several cycles in full.
  const renewing = await db.coverage.findMany({
    where: { organizationId: org, autoRenew: true },
    select: { id: true },
  });
  for (let cycle = 0; cycle < (full ? 3 : 1); cycle++) {
    for (const c of renewing) {
      try {
        await simulateCoverageEnd(actor, { coverageId: c.id, endsInDays: 0 });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
      }
    }
    await runRenewals(new Date(), { organizationIds: [org] });
  }

  step("renewals");
  // Claims in every state, each with a photo and a PDF report.
  const claimPolicies = bought.length ? bought : [];
  // "paid_out" is paid through Coverdesk (the payout settles in the job runner), "paid_outside" at once.
  const moves = ["submitted", "under_review", "approved", "partially_approved", "rejected", "paid_out", "paid_outside"] as const;
  const TYPES = ["fire", "theft", "accident", "medical", "flood", "liability", "other"] as const;
  for (const [i, move] of moves.entries()) {
    const holder = claimPolicies[i % Math.max(claimPolicies.length, 1)];
    const policyId = holder?.policyId ?? policies[0]!.id;
    const amount = 25_000 + i * 17_500;
    const claim = await submitClaim(
      actor,
      CreateClaimInput.parse({
        policyId,
        type: TYPES[i % TYPES.length],
        description: `${holder?.name ?? "A customer"}: ${["shop fire at Balogun market", "stolen delivery van", "collision on Third Mainland Bridge", "staff hospital stay", "flooded warehouse in Lekki", "customer injured on premises", "damaged stock"][i % 7]}.`,
        amount,
        email: holder?.email,
      }),
      [photo(i), report(i)],
    );
    if (move === "submitted") continue;
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
    if (move === "under_review") continue;
    if (move === "rejected") {
      await updateClaimStatus(
        actor,
        claim.id,
        UpdateClaimStatusInput.parse({ status: "rejected", note: "Not covered: wilful damage" }),
      );
      continue;
    }
    const partial = move === "partially_approved";
    await updateClaimStatus(
      actor,
      claim.id,
      UpdateClaimStatusInput.parse({
        status: "approved",
        approvedAmount: partial ? Math.round(amount * 0.6) : amount,
        note: partial ? "Approved in part: excess and depreciation deducted" : undefined,
      }),
    );
    if (move === "paid_out") {
      await payClaim(actor, claim.id, PayClaimInput.parse({ accountNumber: "0123456789", bankCode: "044" }));
    }
    if (move === "paid_outside") {
      await updateClaimStatus(
        actor,
        claim.id,
        UpdateClaimStatusInput.parse({ status: "paid", settledOutside: true, note: "Paid by bank transfer on site" }),
      );
    }
  }

  step("claims");
  // Money out: verification, a verified bank account, a withdrawal of part of the balance.
  await submitKyb(actor, {
    certificateOfIncorporation: new UploadedFile(
      "certificateOfIncorporation",
      "cac-certificate.pdf",
      "application/pdf",
      report(99).bytes,
    ),
    taxCertificate: new UploadedFile("taxCertificate", "tin-certificate.png", "image/png", photo(99).bytes),
  });
  const account = await addBankAccount(
    actor,
    AddBankAccountInput.parse({ bankName: "Access Bank", accountNumber: "0690000031", accountName: "Sample Insurance Ltd" }),
  );
  await verifyBankAccount(actor, account.id, { verificationCode: SANDBOX_VERIFICATION_CODE });
  await requestWithdrawal(actor, WithdrawInput.parse({ amount: 20_000, bankAccountId: account.id }));

  step("money out");
  // API usage: a test key and two weeks of its requests, metered as the REST adapter meters them.
  const key = await createApiKey(actor, { name: "Sample integration", permissions: ["read", "write"], mode: "test" });
  const routes = [
    ["GET", "/api/v1/business/policies"],
    ["POST", "/api/v1/business/payments/initialize"],
    ["GET", "/api/v1/business/payments/{reference}/verify"],
    ["GET", "/api/v1/business/claims"],
  ] as const;
  const now = Date.now();
  for (let day = 0; day < (full ? 14 : 7); day++) {
    for (const [r, [method, route]] of routes.entries()) {
      for (let n = 0; n < 3 + ((day * 7 + r * 3) % 9); n++) {
        recordApiRequest({
          organizationId: org,
          apiKeyId: key.id,
          method,
          route,
          status: n % 11 === 10 ? 422 : 200,
          durationMs: 20 + ((n * 37 + r * 11) % 180),
          at: new Date(now - day * 86_400_000 - n * 60_000),
        });
      }
    }
  }
  await flushApiUsage();
  step("API usage");
  return counts(true);
}
