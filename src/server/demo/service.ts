// Sample data for a newcomer: a small, realistic insurance business made in
// an organization's TEST data, entirely through the services (so every state
// change writes its event and audit row as a real one would). Used by
// `npm run demo` (scripts/demo.ts) and the dashboard's "Load sample data".
//
// Once, and resumable. The organization's row keeps the load's state:
//  - sampleDataLoadedAt: the lease of the load in progress (when it started),
//    taken in ONE conditional UPDATE before anything is made — two loads at once
//    (two tabs, two instances) make one set: the other answers created: false;
//  - sampleDataStep: how many of its steps are complete (see STEP);
//  - sampleDataCompletedAt: set at the end; later loads add nothing.
// A load that throws releases its lease at once (sampleDataLoadedAt = null) and
// keeps what it made. A load killed mid-way (SIGKILL, a crash: no catch runs)
// leaves its lease, which runs out after SAMPLE_DATA_LEASE_MS (a full load takes
// well under 30 s). Either way the next load resumes: it skips the steps the
// counter says are complete, and every step finds what it makes by a natural key
// before making it (the webhook by URL, a policy by name, a purchase by its
// customer's email, a claim by its description…), so a load after a crash at any
// point ends with the set a clean load makes. The renewal cycles, which have no
// such key, are counted (see coversBehind). A test organization that holds
// policies of its own, no load ever having started there, is left alone.
// When: every service writes "now" (the ledger's daily rollups are kept from
// the same rows). Given a clock (./clock.ts: `npm run demo`, a process of its
// own), the full set is six months of history: each service call runs with the
// clock set to when it happened — the policies and the first purchases six
// months ago, then the renewal job and the coverage lifecycle (reminders,
// expiry) day by day up to today, as the job runner would have run them, so
// monthly covers renew each month, a card that declines later fails its
// renewal, retries and lapses; the claims over the last four months; the
// money out, the API usage and the load's own state now. Without a clock (the
// dashboard's button: the server runs other requests beside it) everything is
// dated now, and the renewals are cycles run now (the test clock's
// simulated ends).
import { accountOf, assertCan, isLive, type Actor } from "@/server/actor";
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
import { addClaimAttachments } from "@/server/claims/attachments";
import { payClaim } from "@/server/claim-payouts/service";
import { submitKyb } from "@/server/kyb/service";
import { addBankAccount, verifyBankAccount } from "@/server/bank-accounts/service";
import { requestWithdrawal } from "@/server/withdrawals/service";
import { createWebhook } from "@/server/webhooks/service";
import { createApiKey } from "@/server/api-keys/service";
import { simulateCoverageEnd } from "@/server/coverages/reminders";
import { coverageStatus } from "@/server/coverages/status";
import { runRenewals } from "@/server/renewals/job";
import { runCoverageLifecycle } from "@/server/coverages/lifecycle";
import { recordApiRequest, flushApiUsage } from "@/server/analytics/metering";
import { SANDBOX_CARDS } from "@/server/payments/provider";
import { SANDBOX_VERIFICATION_CODE } from "@/server/payouts/sandbox";
import { UploadedFile } from "@/server/files/multipart";
import { rgbPng } from "@/lib/png";
import type { z } from "zod";
import type { ClaimStatus } from "@/lib/enums";
import type { SampleDataResult, SampleDataState } from "@/lib/schemas/sample-data";
import type { SampleClock } from "./clock";

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

/** How long a load's lease holds: past it, a load that has not completed is taken for dead and the next one resumes it. */
export const SAMPLE_DATA_LEASE_MS = 5 * 60_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** How far back a dated load's history starts: about six months. */
export const HISTORY_DAYS = 182;

/** A dated load's times (a clock was given): see the header. */
interface History {
  /** The first purchase's day (HISTORY_DAYS before `end`, at midnight UTC). */
  start: number;
  /** Now, when the load began: nothing is dated after it. */
  end: number;
  /** Runs one service call with the clock set to `when`, then puts it back. */
  at<T>(when: number, fn: () => Promise<T>): Promise<T>;
}

function datedHistory(clock: SampleClock): History {
  const end = Date.now();
  const start = Math.floor(end / DAY) * DAY - HISTORY_DAYS * DAY;
  return {
    start,
    end,
    async at(when, fn) {
      clock.set(new Date(Math.min(when, end)));
      try {
        return await fn();
      } finally {
        clock.reset();
      }
    },
  };
}

/** The renewal cycles of each size. */
const CYCLES: Record<SampleSize, number> = { full: 3, light: 1 };

/** organization.sampleDataStep after each step; a renewal cycle n (1–3) completes step `purchases + n`. */
const STEP = { webhook: 1, policies: 2, purchases: 3, renewals: 7, claims: 8, moneyOut: 9, apiUsage: 10 } as const;

/** A step or checkpoint callback; the loader's own work is done when it is called. */
type Progress = (label: string) => void;

export interface LoadOptions {
  /**
   * Told at points inside the steps (after each claim's move, after a renewal cycle's covers are ended):
   * a test throws there to stop a load part-way through a step, as a crash would.
   */
  checkpoint?: Progress;
  /**
   * Dates the full set's history over the six months before now (see the header). Only for a process
   * that runs nothing beside the load: it moves the process's `Date`.
   */
  clock?: SampleClock;
}

/**
 * Makes the sample business in `actor`'s test data. `actor` acts as the test twin
 * (livemode false) and `account` as the live organization (for the test API key).
 * Live mode is refused: sample data never touches real data. created: false when
 * the set was completed before, another load is making it, or the test data
 * holds policies no load made; a load after one that failed or died resumes it.
 */
export async function loadSampleData(
  actor: Actor,
  size: SampleSize = "full",
  /** Told each step as it ends (the script prints them). */
  step: Progress = () => {},
  options: LoadOptions = {},
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
  const state = await db.organization.findUniqueOrThrow({
    where: { id: org },
    select: { sampleDataLoadedAt: true, sampleDataCompletedAt: true, sampleDataStep: true },
  });
  if (state.sampleDataCompletedAt) return counts(false);
  // No load ever started here (none holds the lease, none left progress), yet there are policies: the user's own.
  if (
    !state.sampleDataLoadedAt &&
    state.sampleDataStep === 0 &&
    (await db.policy.count({ where: { organizationId: org } })) > 0
  ) {
    return counts(false);
  }
  // The lease, in one statement before anything is made: free (never taken, released by a load that failed)
  // or run out (its load died). Of two loads at once one sets it and loads, the other finds it held.
  const lease = new Date();
  const claimed = await db.organization.updateMany({
    where: {
      id: org,
      sampleDataCompletedAt: null,
      OR: [{ sampleDataLoadedAt: null }, { sampleDataLoadedAt: { lt: new Date(lease.getTime() - SAMPLE_DATA_LEASE_MS) } }],
    },
    data: { sampleDataLoadedAt: lease },
  });
  if (claimed.count === 0) return counts(false);
  const mine = { id: org, sampleDataLoadedAt: lease };
  // Read again under the lease: what the load it resumes (if any) completed.
  const { sampleDataStep: done } = await db.organization.findUniqueOrThrow({
    where: { id: org },
    select: { sampleDataStep: true },
  });
  // Every write of the state is fenced by the lease: a load so slow that its lease ran out and another took
  // over stops at its next step instead of going on beside it.
  const progress = async (done: number) => {
    const saved = await db.organization.updateMany({ where: mine, data: { sampleDataStep: done } });
    if (saved.count === 0) throw new AppError("conflict", "Another sample data load took over this one (its lease ran out)");
  };
  try {
    await load(actor, size, done, progress, step, options.checkpoint ?? (() => {}), options.clock);
    const completed = await db.organization.updateMany({ where: mine, data: { sampleDataCompletedAt: new Date() } });
    if (completed.count === 0) throw new AppError("conflict", "Another sample data load took over this one (its lease ran out)");
    return counts(true);
  } catch (err) {
    // What was made stays (each step is a committed service call); the lease goes, so the next load resumes at once.
    await db.organization.updateMany({ where: mine, data: { sampleDataLoadedAt: null } });
    throw err;
  }
}

/**
 * Where the test data's sample set stands, for the dashboard: `interrupted` when a
 * load made part of it and stopped (its lease released or run out) — the next
 * load finishes it; `loading` while a load holds the lease. Live mode: `none`.
 */
export async function sampleDataState(actor: Actor): Promise<SampleDataState> {
  assertCan(actor, "read");
  if (isLive(actor)) return { state: "none" };
  const row = await db.organization.findUniqueOrThrow({
    where: { id: actor.organizationId },
    select: { sampleDataLoadedAt: true, sampleDataCompletedAt: true, sampleDataStep: true },
  });
  if (row.sampleDataCompletedAt) return { state: "completed" };
  if (row.sampleDataLoadedAt && row.sampleDataLoadedAt.getTime() > Date.now() - SAMPLE_DATA_LEASE_MS) return { state: "loading" };
  if (row.sampleDataLoadedAt || row.sampleDataStep > 0) return { state: "interrupted" };
  return { state: "none" };
}

async function load(
  actor: Actor,
  size: SampleSize,
  /** Steps a previous load completed (organization.sampleDataStep). */
  done: number,
  progress: (done: number) => Promise<void>,
  step: Progress,
  checkpoint: Progress,
  clock: SampleClock | undefined,
): Promise<void> {
  const org = actor.organizationId;
  const full = size === "full";
  const ended = async (n: number, label: string) => {
    if (n > done) await progress(n);
    step(label);
  };
  // The history's dates (a clock and the full set), else everything now.
  const history = clock && full ? datedHistory(clock) : undefined;
  const at = history?.at ?? (<T>(_when: number, fn: () => Promise<T>) => fn());
  const start = history?.start ?? Date.now();

  // Webhooks first: the events below are then fanned out to it, and the job runner delivers them
  // (example.com answers with an error, so the delivery log shows failed attempts and their retries).
  // On a machine without DNS it is registered all the same (every delivery resolves and checks the
  // host again: there they fail and are retried); a host that answers a private address is refused.
  const WEBHOOK_URL = "https://example.com/coverdesk/webhooks";
  if (!(await db.webhook.findFirst({ where: { organizationId: org, url: WEBHOOK_URL }, select: { id: true } }))) {
    try {
      await at(start - 10 * DAY, () => createWebhook(
        actor,
        {
          url: WEBHOOK_URL,
          events: [
            "payment.completed",
            "payment.failed",
            "policy.purchased",
            "policy.renewed",
            "claim.submitted",
            "claim.updated",
          ],
        },
        { unresolvedHost: "allow" },
      ));
    } catch (err) {
      if (!(err instanceof AppError && err.code === "validation_failed")) throw err;
    }
  }
  await ended(STEP.webhook, "webhook");

  // Policies, by name (what a later step needs of them is the sample's own price and duration).
  const policies: { id: string; price: string; duration: string }[] = [];
  for (const [n, p] of (full ? POLICIES : POLICIES.slice(0, 3)).entries()) {
    const found = await db.policy.findFirst({
      where: { organizationId: org, name: p.name },
      orderBy: { createdAt: "asc" },
      select: { id: true },
    });
    const id =
      found?.id ??
      (
        await at(start - 7 * DAY + n * HOUR, () =>
          createPolicy(
            actor,
            CreatePolicyInput.parse({
              ...p,
              description: `${p.name} for small businesses in Lagos and Abuja.`,
              benefits: ["24/7 claims line", "Payout within 10 working days"],
              exclusions: ["Wilful damage"],
            }),
          ),
        )
      ).id;
    policies.push({ id, price: p.price, duration: p.duration });
  }
  await ended(STEP.policies, "policies");

  // Purchases: most pay; two are declined; some cards decline their renewals later. Each is found by its
  // customer's email (the payment that is not a renewal): one a stopped load initialized is paid now.
  const customers = full ? CUSTOMERS : CUSTOMERS.slice(0, 6);
  const bought: { email: string; policyId: string; name: string }[] = [];
  for (const [i, [name, phone]] of customers.entries()) {
    const policy = policies[i % policies.length]!;
    const email = emailOf(name);
    const declined = i === 3 || i === 10;
    // Dated: one customer every other day from six months ago, mid-morning.
    const boughtAt = start + i * 2 * DAY + 10 * HOUR;
    const cardNumber = declined ? SANDBOX_CARDS.declined : i % 4 === 2 ? SANDBOX_CARDS.declinesLater : SANDBOX_CARDS.success;
    const payment =
      (await db.payment.findFirst({
        where: { organizationId: org, email, renewalAttempt: null },
        orderBy: { createdAt: "asc" },
        select: { reference: true, status: true },
      })) ??
      (await at(boughtAt, () =>
        initializePayment(
          actor,
          InitializePaymentInput.parse({ policyId: policy.id, amount: Number(policy.price), email, name, phone }),
        ),
      ));
    let status = payment.status;
    if (status === "pending") {
      try {
        status = (await at(boughtAt + 4 * MINUTE, () => payWithCard(payment.reference, card(cardNumber, name, phone)))).status;
      } catch (err) {
        if (!(err instanceof AppError && err.code === "card_declined")) throw err;
        status = "failed";
      }
    }
    if (status === "success") bought.push({ email, policyId: policy.id, name });
  }
  await ended(STEP.purchases, "purchases");

  // Renewals: the monthly and quarterly covers reach their end and are charged
  // (the cards that decline later fail: past due). Several cycles in full.
  const cycles = CYCLES[size];
  const cyclesDone = done >= STEP.renewals ? cycles : Math.max(0, done - STEP.purchases);
  if (history) {
    // Dated: the renewal job and the coverage lifecycle each morning (06:00 UTC) from the day after the first
    // purchase, and a last time now, as the job runner would have run them. A load resumed here runs the days
    // again from the start: a day runs what is due by then, and what an earlier run renewed is due later (a
    // charge it left unsettled is charged again, same reference, once its lease has run out: settled once).
    if (done < STEP.renewals) {
      const passes: number[] = [];
      for (let day = start + DAY + 6 * HOUR; day < history.end; day += DAY) passes.push(day);
      passes.push(history.end);
      for (const day of passes) {
        await at(day, async () => {
          await runRenewals(new Date(day), { organizationIds: [org] });
          await runCoverageLifecycle(new Date(day), { organizationIds: [org] });
        });
        checkpoint(`day ${new Date(day).toISOString().slice(0, 10)}`);
      }
    }
  } else if (cyclesDone < cycles) {
    const renewing = await db.coverage.findMany({
      where: { organizationId: org, autoRenew: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    for (let cycle = cyclesDone + 1; cycle <= cycles; cycle++) {
      // The first cycle run here may have been stopped part-way: only the covers it has not reached yet.
      const ids = renewing.map((c) => c.id);
      const due = cycle === cyclesDone + 1 ? await coversBehind(org, ids, cycle) : ids;
      for (const id of due) {
        try {
          await simulateCoverageEnd(actor, { coverageId: id, endsInDays: 0 });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
        }
      }
      checkpoint(`renewal cycle ${cycle}: covers ended`);
      await runRenewals(new Date(), { organizationIds: [org] });
      await progress(Math.max(done, STEP.purchases + cycle));
    }
  }
  await ended(STEP.renewals, "renewals");

  // Claims in every state, each with a photo and a PDF report; each found by its description and moved on
  // from where it is.
  if (done < STEP.claims) await makeClaims(actor, bought, policies[0]!.id, checkpoint, history);
  await ended(STEP.claims, "claims");

  // Money out: verification, a verified bank account, a withdrawal of part of the balance.
  if (done < STEP.moneyOut) {
    const kyb = await db.kyb.findUnique({ where: { organizationId: org }, select: { status: true } });
    if ((kyb?.status ?? "not_submitted") === "not_submitted") {
      await submitKyb(actor, {
        certificateOfIncorporation: new UploadedFile(
          "certificateOfIncorporation",
          "cac-certificate.pdf",
          "application/pdf",
          report(99).bytes,
        ),
        taxCertificate: new UploadedFile("taxCertificate", "tin-certificate.png", "image/png", photo(99).bytes),
      });
    }
    const input = AddBankAccountInput.parse({
      bankName: "Access Bank",
      accountNumber: "0690000031",
      accountName: "Sample Insurance Ltd",
    });
    const account =
      (await db.bankAccount.findFirst({
        where: {
          organizationId: org,
          deletedAt: null,
          bankName: input.bankName,
          accountName: input.accountName,
          accountNumberLast4: input.accountNumber.slice(-4),
        },
        select: { id: true, status: true },
      })) ?? (await addBankAccount(actor, input));
    if (account.status === "pending_verification") {
      await verifyBankAccount(actor, account.id, { verificationCode: SANDBOX_VERIFICATION_CODE });
    }
    if ((await db.withdrawal.count({ where: { organizationId: org } })) === 0) {
      await requestWithdrawal(actor, WithdrawInput.parse({ amount: 20_000, bankAccountId: account.id }));
    }
  }
  await ended(STEP.moneyOut, "money out");

  // API usage: a test key and two weeks of its requests, metered as the REST adapter meters them
  // (none when the organization already has usage: a stopped load flushed it).
  if (done < STEP.apiUsage) {
    const KEY_NAME = "Sample integration";
    const key =
      (await db.apiKey.findFirst({
        where: { organizationId: accountOf(actor), name: KEY_NAME, mode: "test", status: "active" },
        orderBy: { createdAt: "asc" },
        select: { id: true },
      })) ?? (await createApiKey(actor, { name: KEY_NAME, permissions: ["read", "write"], mode: "test" }));
    if ((await db.apiUsage.count({ where: { organizationId: org } })) === 0) {
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
    }
  }
  await ended(STEP.apiUsage, "API usage");
}

/**
 * The covers a renewal cycle (the `cycle`-th, from 1) has still to end. A cycle ends each cover
 * (simulateCoverageEnd), then charges the ones that became due. A cover ended and not charged yet (due now) is
 * left to the charge: ended again it would be taken for past due and lose its charge. Otherwise the cycle
 * either charged it (a renewal payment, whatever its outcome — one still pending, its charge stopped part-way,
 * is finished by the renewal job once its lease runs out, with the same reference) or, its last charge having
 * been declined, ended its grace period (past due → expired, no payment). So the cycles a cover has been
 * through are its renewal payments, plus its declined ones whose grace period a later cycle ended: all of
 * them but the one it is past due on now.
 */
async function coversBehind(organizationId: string, ids: string[], cycle: number): Promise<string[]> {
  const now = new Date();
  const [covers, payments] = await Promise.all([
    db.coverage.findMany({
      where: { organizationId, id: { in: ids } },
      select: { id: true, endsAt: true, graceEndsAt: true, cancelledAt: true, renewAt: true },
    }),
    db.payment.groupBy({
      by: ["coverageId", "status"],
      where: { organizationId, coverageId: { in: ids }, renewalAttempt: { not: null } },
      _count: true,
    }),
  ]);
  const endedNotCharged = new Set(covers.filter((c) => c.renewAt && c.renewAt <= now).map((c) => c.id));
  const cyclesOf = new Map(covers.map((c) => [c.id, coverageStatus(c, now) === "past_due" ? -1 : 0]));
  for (const p of payments) {
    cyclesOf.set(p.coverageId!, (cyclesOf.get(p.coverageId!) ?? 0) + p._count * (p.status === "failed" ? 2 : 1));
  }
  return ids.filter((id) => !endedNotCharged.has(id) && (cyclesOf.get(id) ?? 0) < cycle);
}

/** Where each sample claim ends: "paid_out" is paid through Coverdesk (the payout settles in the job runner), "paid_outside" at once. */
const MOVES = ["submitted", "under_review", "approved", "partially_approved", "rejected", "paid_out", "paid_outside"] as const;
const CLAIM_TYPES = ["fire", "theft", "accident", "medical", "flood", "liability", "other"] as const;
const INCIDENTS = [
  "shop fire at Balogun market",
  "stolen delivery van",
  "collision on Third Mainland Bridge",
  "staff hospital stay",
  "flooded warehouse in Lekki",
  "customer injured on premises",
  "damaged stock",
] as const;
/** What each sample claim asks for, in naira: the recent settled one small, as most claims are. */
const CLAIMED: Record<(typeof MOVES)[number], number> = {
  submitted: 42_500,
  under_review: 60_000,
  approved: 25_000,
  partially_approved: 77_500,
  rejected: 95_000,
  paid_out: 18_500,
  paid_outside: 130_000,
};
/** Dated: how many days ago each sample claim was filed (the open ones recent, the settled ones older). */
const FILED_DAYS_AGO: Record<(typeof MOVES)[number], number> = {
  submitted: 3,
  under_review: 9,
  approved: 40,
  partially_approved: 65,
  rejected: 100,
  paid_out: 12,
  paid_outside: 130,
};
/** Dated: days from filing to each move (under review, the decision, paid) and to the payout asked for. */
const MOVE_AFTER_DAYS = [1, 5, 9] as const;
const PAYOUT_AFTER_DAYS = 6;

/** How far along its review a claim is (approved and rejected are both a decision). */
const REVIEW_STAGE: Record<ClaimStatus, number> = { submitted: 0, under_review: 1, approved: 2, rejected: 2, paid: 3 };

async function makeClaims(
  actor: Actor,
  bought: { email: string; policyId: string; name: string }[],
  fallbackPolicyId: string,
  checkpoint: Progress,
  history: History | undefined,
): Promise<void> {
  const org = actor.organizationId;
  const at = history?.at ?? (<T>(_when: number, fn: () => Promise<T>) => fn());
  for (const [i, move] of MOVES.entries()) {
    const filedAt = (history?.end ?? Date.now()) - FILED_DAYS_AGO[move] * DAY + (9 + i) * HOUR;
    const holder = bought[i % Math.max(bought.length, 1)];
    const amount = CLAIMED[move];
    const description = `${holder?.name ?? "A customer"}: ${INCIDENTS[i % 7]}.`;
    const evidence = [photo(i), report(i)];
    const found = await db.claim.findFirst({
      where: { organizationId: org, description },
      orderBy: { createdAt: "asc" },
      select: { id: true, status: true, attachments: { select: { file: { select: { fileName: true } } } } },
    });
    let claim: { id: string; status: ClaimStatus };
    if (found) {
      claim = found;
      // A claim is filed with its evidence in one transaction; this only makes up for one that lost some.
      const has = new Set(found.attachments.map((a) => a.file.fileName));
      const missing = evidence.filter((f) => !has.has(f.fileName));
      if (missing.length) await at(filedAt, () => addClaimAttachments(actor, found.id, missing, "dashboard"));
    } else {
      claim = await at(filedAt, () =>
        submitClaim(
          actor,
          CreateClaimInput.parse({
            policyId: holder?.policyId ?? fallbackPolicyId,
            type: CLAIM_TYPES[i % CLAIM_TYPES.length],
            description,
            amount,
            email: holder?.email,
          }),
          evidence,
        ),
      );
      checkpoint(`claim ${i + 1}: submitted`);
    }
    const partial = move === "partially_approved";
    const moves: z.input<typeof UpdateClaimStatusInput>[] =
      move === "submitted"
        ? []
        : move === "under_review"
          ? [{ status: "under_review" }]
          : move === "rejected"
            ? [{ status: "under_review" }, { status: "rejected", note: "Not covered: wilful damage" }]
            : [
                { status: "under_review" },
                {
                  status: "approved",
                  approvedAmount: partial ? Math.round(amount * 0.6) : amount,
                  note: partial ? "Approved in part: excess and depreciation deducted" : undefined,
                },
                ...(move === "paid_outside"
                  ? [{ status: "paid" as const, settledOutside: true, note: "Paid by bank transfer on site" }]
                  : []),
              ];
    for (const [m, next] of moves.entries()) {
      if (REVIEW_STAGE[next.status] <= REVIEW_STAGE[claim.status]) continue;
      const id = claim.id;
      claim = await at(filedAt + MOVE_AFTER_DAYS[m]! * DAY, () => updateClaimStatus(actor, id, UpdateClaimStatusInput.parse(next)));
      checkpoint(`claim ${i + 1}: ${next.status}`);
    }
    if (
      move === "paid_out" &&
      claim.status === "approved" &&
      (await db.claimPayout.count({ where: { organizationId: org, claimId: claim.id } })) === 0
    ) {
      const id = claim.id;
      await at(filedAt + PAYOUT_AFTER_DAYS * DAY, () =>
        payClaim(actor, id, PayClaimInput.parse({ accountNumber: "0123456789", bankCode: "044" })),
      );
      checkpoint(`claim ${i + 1}: payout`);
    }
  }
}
