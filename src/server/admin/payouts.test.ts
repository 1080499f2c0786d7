// The platform admin's payouts: every organization's withdrawals with names,
// newest first; the retry of a failed one (a new debit under a new reference,
// the balance checked again); and NOT_FOUND to anyone else at the tRPC level.
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { runDuePayouts } from "@/server/payouts/job";
import { settleWithdrawal } from "@/server/payouts/settle";
import { createCallerFactory, type Context } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { availableBalance, requestWithdrawal } from "@/server/withdrawals/service";
import { createUser, ownerWithOrganization, unique } from "@/test/fixtures";
import { approveKyb, bankAccount, drainDuePayouts, receivePayment } from "@/test/money";
import { PayoutsInput } from "@/lib/schemas/admin-payouts";
import { listPayouts, retryPayout } from "./payouts";
import { requirePlatformAdmin } from "./service";

beforeAll(async () => {
  await connectDatabase();
  await drainDuePayouts(); // the rows earlier files left due in this worker's database
});

type User = NonNullable<Context["user"]>;
const callerOf = async (userId: string) =>
  createCallerFactory(appRouter)({
    headers: new Headers(),
    user: (await db.user.findUniqueOrThrow({ where: { id: userId } })) as User,
  });

async function platformAdmin() {
  const user = await db.user.update({ where: { id: (await createUser("Payout Operator")).id }, data: { platformAdmin: true } });
  return { user, admin: await requirePlatformAdmin(user.id) };
}

async function business(name = `Payout Shop ${unique()}`) {
  const owner = await ownerWithOrganization(name);
  await receivePayment(owner.actor, "100.00");
  await approveKyb(owner.actor);
  const account = await bankAccount(owner.actor);
  return { ...owner, account };
}

const withdraw = (actor: Actor, bankAccountId: string, amount: number) =>
  requestWithdrawal(actor, WithdrawInput.parse({ amount, bankAccountId }));

/** A withdrawal the bank refused. */
async function failedWithdrawal(actor: Actor, bankAccountId: string, amount: number) {
  const w = await withdraw(actor, bankAccountId, amount);
  const row = await db.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
  await settleWithdrawal(row.reference, "failed", "The bank refused the transfer");
  return db.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
}

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

describe("listPayouts", () => {
  it("lists every organization's withdrawals newest first, with organization and bank names", async () => {
    const { admin } = await platformAdmin();
    const a = await business("Alpha Payout Stores");
    const b = await business("Beta Payout Stores");
    const wa = await withdraw(a.actor, a.account.id, 10);
    const wb = await withdraw(b.actor, b.account.id, 20.5);
    await failedWithdrawal(b.actor, b.account.id, 3);

    const page = await listPayouts(admin, PayoutsInput.parse({ limit: 100 }));
    const ours = page.data.filter((p) => [a.org.id, b.org.id].includes(p.organizationId));
    expect(ours).toHaveLength(3);
    expect(ours.find((p) => p.id === wa.id)).toEqual({
      id: wa.id,
      organizationId: a.org.id,
      organizationName: "Alpha Payout Stores",
      amount: "10.00",
      currency: wa.currency,
      status: "pending",
      failureReason: null,
      bankName: a.account.bankName,
      accountNumberLast4: a.account.accountNumberLast4,
      createdAt: wa.createdAt,
      completedAt: null,
    });
    expect(ours.find((p) => p.id === wb.id)).toMatchObject({ organizationName: "Beta Payout Stores", amount: "20.50" });
    const keys = page.data.map((p) => `${p.createdAt}|${p.id}`);
    expect(keys).toEqual([...keys].sort().reverse());

    const failed = await listPayouts(admin, PayoutsInput.parse({ status: "failed", limit: 100 }));
    expect(failed.data.every((p) => p.status === "failed")).toBe(true);
    expect(failed.data.some((p) => p.organizationId === b.org.id && p.failureReason === "The bank refused the transfer")).toBe(
      true,
    );

    // Pages of one walk the same list.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const next: Awaited<ReturnType<typeof listPayouts>> = await listPayouts(admin, PayoutsInput.parse({ limit: 1, cursor }));
      walked.push(...next.data.map((p) => p.id));
      cursor = next.nextCursor;
    } while (cursor);
    expect(walked).toEqual(page.data.map((p) => p.id));
    expect(await refusal(listPayouts(admin, PayoutsInput.parse({ limit: 1, cursor: "bm90LWEtY3Vyc29y" })))).toBe("invalid_query");
  });
});

describe("retryPayout", () => {
  it("sends a failed withdrawal again: pending, due now, a new debit under a new reference", async () => {
    const { admin, user } = await platformAdmin();
    const { actor, org, account } = await business();
    const before = await availableBalance(org.id);
    const failed = await failedWithdrawal(actor, account.id, 30);
    expect(await availableBalance(org.id)).toBe(before);

    const retried = await retryPayout(admin, failed.id);
    expect(retried).toMatchObject({ id: failed.id, status: "pending", failureReason: null, completedAt: null, amount: "30.00" });
    const row = await db.withdrawal.findUniqueOrThrow({ where: { id: failed.id } });
    expect(row.reference).toBe(`${failed.reference}-r1`);
    expect(row).toMatchObject({ retriedById: user.id, attempts: 0, providerTransferCode: null });
    expect(row.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await availableBalance(org.id)).toBe(before - 3000n);
    const entries = await db.ledgerTransaction.findMany({
      where: { organizationId: org.id, reference: { startsWith: failed.reference } },
      orderBy: { createdAt: "asc" },
      select: { type: true, amountMinor: true, reference: true },
    });
    expect(entries).toEqual([
      { type: "withdrawal", amountMinor: -3000n, reference: failed.reference },
      { type: "withdrawal_reversal", amountMinor: 3000n, reference: failed.reference },
      { type: "withdrawal", amountMinor: -3000n, reference: `${failed.reference}-r1` },
    ]);
    expect(await db.event.count({ where: { organizationId: org.id, type: "withdrawal.requested" } })).toBe(2);

    // Not failed any more: a second retry is refused.
    expect(await refusal(retryPayout(admin, failed.id))).toBe("invalid_state");

    // The job sends it under its new reference; failing again, the next retry is -r2.
    await runDuePayouts();
    expect((await db.withdrawal.findUniqueOrThrow({ where: { id: failed.id } })).status).toBe("processing");
    await settleWithdrawal(`${failed.reference}-r1`, "failed", "Refused again");
    await retryPayout(admin, failed.id);
    expect((await db.withdrawal.findUniqueOrThrow({ where: { id: failed.id } })).reference).toBe(`${failed.reference}-r2`);
    expect(await availableBalance(org.id)).toBe(before - 3000n);
  });

  it("is refused with insufficient_funds when the balance no longer covers it, and changes nothing", async () => {
    const { admin } = await platformAdmin();
    const { actor, org, account } = await business();
    const failed = await failedWithdrawal(actor, account.id, 50);
    const rest = await availableBalance(org.id);
    await withdraw(actor, account.id, Number(rest - 1000n) / 100); // leaves 10.00
    const ledgerBefore = await db.ledgerTransaction.count({ where: { organizationId: org.id } });

    expect(await refusal(retryPayout(admin, failed.id))).toBe("insufficient_funds");
    expect(await db.withdrawal.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({
      status: "failed",
      reference: failed.reference,
      retriedById: null,
    });
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id } })).toBe(ledgerBefore);
    expect(await refusal(retryPayout(admin, "wd_no_such_withdrawal"))).toBe("not_found");
  });
});

describe("admin.payouts and admin.retryPayout over tRPC", () => {
  it("are NOT_FOUND to a business owner and work for a platform admin", async () => {
    const { actor, user, account, org } = await business();
    const failed = await failedWithdrawal(actor, account.id, 4);
    const owner = await callerOf(user.id);
    for (const call of [() => owner.admin.payouts({ limit: 20 }), () => owner.admin.retryPayout({ id: failed.id })]) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TRPCError);
      expect((err as TRPCError).code).toBe("NOT_FOUND");
    }
    expect((await db.withdrawal.findUniqueOrThrow({ where: { id: failed.id } })).status).toBe("failed");

    const { user: adminUser } = await platformAdmin();
    const operator = await callerOf(adminUser.id);
    const page = await operator.admin.payouts({ status: "failed", limit: 100 });
    expect(page.data.some((p) => p.id === failed.id && p.organizationId === org.id)).toBe(true);
    expect(await operator.admin.retryPayout({ id: failed.id })).toMatchObject({ id: failed.id, status: "pending" });
  });
});
