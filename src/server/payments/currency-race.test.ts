// A currency change racing payment initialization, on two app instances that
// share one PostgreSQL: each instance is its own module graph with its own
// PrismaClient and connection pool (as two processes would be). Whatever the
// interleaving, either the change is refused (a payment got in first) or no
// payment exists in the old currency — never a payment of NGN on a USD
// business. On the embedded database one process owns the data (its lock
// refuses a second), so the same race runs with both sides on one instance.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "@/server/actor";
import { connectDatabase, db } from "@/server/db/client";
import { ensureTestTwin } from "@/server/organizations/twin";
import { UpdateOrganizationInput } from "@/lib/schemas/organizations";
import * as organizations from "@/server/organizations/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { ownerWithOrganization } from "@/test/fixtures";
import { InitializePaymentInput } from "@/lib/schemas/payments";
import * as payments from "./service";

interface Instance {
  initializePayment: typeof payments.initializePayment;
  updateOrganization: typeof organizations.updateOrganization;
  close: () => Promise<void>;
}

const first: Instance = { ...payments, ...organizations, close: async () => {} };

/** A second copy of the app's modules, with a database client (and pool) of its own. */
async function secondInstance(): Promise<Instance> {
  if (!process.env.DATABASE_URL) return first;
  const g = globalThis as { __coverdeskDb?: unknown };
  const saved = g.__coverdeskDb;
  delete g.__coverdeskDb;
  vi.resetModules();
  try {
    const [p, o, client] = await Promise.all([
      import("./service"),
      import("@/server/organizations/service"),
      import("@/server/db/client"),
    ]);
    await client.db.$connect();
    expect(client.db).not.toBe(db);
    return {
      initializePayment: p.initializePayment,
      updateOrganization: o.updateOrganization,
      close: () => client.db.$disconnect(),
    };
  } finally {
    g.__coverdeskDb = saved;
  }
}

let second: Instance;
beforeAll(async () => {
  await connectDatabase();
  second = await secondInstance();
});
afterAll(async () => second.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The error's code, also for an AppError of the other instance's module graph. */
const codeOfError = (reason: unknown) => (reason as { code?: string }).code ?? String(reason);

async function raceRound(mode: "live" | "test", delayMs: number) {
  const { actor: owner, org } = await ownerWithOrganization();
  const twin = await ensureTestTwin(org.id);
  const actor: Actor = mode === "live" ? owner : { ...owner, organizationId: twin, accountId: org.id, livemode: false };
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: "Race cover", type: "property", duration: "yearly", price: "25.00" }),
  );
  const input = (i: number) => InitializePaymentInput.parse({ amount: 25, policyId: policy.id, email: `c${i}@example.test` });

  const [change, ...inits] = await Promise.allSettled([
    sleep(delayMs).then(() => second.updateOrganization(owner, UpdateOrganizationInput.parse({ currency: "USD" }))),
    ...Array.from({ length: 8 }, (_, i) => first.initializePayment(actor, input(i))),
  ]);

  // The change succeeds or is refused with currency_locked; every payment is made (one that saw the old
  // currency before the change is asked again in the new one).
  if (change!.status === "rejected") expect(codeOfError(change!.reason)).toBe("currency_locked");
  expect(inits.map((r) => (r.status === "fulfilled" ? "made" : codeOfError(r.reason)))).toEqual(inits.map(() => "made"));

  const [live, test] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: org.id } }),
    db.organization.findUniqueOrThrow({ where: { id: twin } }),
  ]);
  const made = await db.payment.findMany({ where: { organizationId: { in: [org.id, twin] } }, select: { currency: true } });
  expect(test.currency).toBe(live.currency);
  // Every payment is in the business's currency, whichever side won.
  expect(made.map((p) => p.currency)).toEqual(made.map(() => live.currency));
  expect(live.currency).toBe(change!.status === "fulfilled" ? "USD" : "NGN");
  // The answers agree with the rows.
  const answered = inits.flatMap((r) => (r.status === "fulfilled" ? [r.value.currency] : []));
  expect(answered).toEqual(answered.map(() => live.currency));
  expect(made).toHaveLength(answered.length);
  return change!.status;
}

describe("a currency change racing payment initialization (two instances on PostgreSQL)", () => {
  it("never leaves a payment in the old currency: the change is refused or the payments follow it", async () => {
    const outcomes: string[] = [];
    // The change starts 0–3 ms after the payments, so both orders come up; every round must hold on its own.
    for (let round = 0; round < 8; round++) outcomes.push(await raceRound(round % 2 === 0 ? "live" : "test", round % 4));
    expect(outcomes).toHaveLength(8);
  });
});
