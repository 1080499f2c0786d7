// Earnings: the overview's figures after payments, fees, a pending, a paid and
// a failed (reversed) withdrawal; the ledger list's filters; the dashboard's
// withdraw state and daily series.
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { formatMinor } from "@/lib/money";
import { availableBalance } from "@/server/ledger/balance";
import { settleWithdrawal } from "@/server/payouts/settle";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import { requestWithdrawal } from "@/server/withdrawals/service";
import { addMember, ownerWithOrganization } from "@/test/fixtures";
import { approveKyb, bankAccount, receivePayment } from "@/test/money";
import { ListTransactionsQuery, SeriesQuery } from "@/lib/schemas/earnings";
import { getEarningsOverview, getEarningsSeries, getWithdrawState, listTransactions } from "./service";

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10);

/** 150.00 paid in (fees 1.50 + 0.75); withdrawals: 40.00 pending, 20.00 paid, 10.13 failed. */
async function busyOrg() {
  const owner = await ownerWithOrganization();
  await receivePayment(owner.actor, "100.00");
  await receivePayment(owner.actor, "50.00");
  await approveKyb(owner.actor);
  const account = await bankAccount(owner.actor);
  const withdraw = async (amount: number) => {
    const w = await requestWithdrawal(owner.actor, WithdrawInput.parse({ amount, bankAccountId: account.id }));
    return db.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
  };
  await withdraw(40);
  const paid = await withdraw(20);
  await settleWithdrawal(paid.reference, "paid");
  const failed = await withdraw(10.13);
  await settleWithdrawal(failed.reference, "failed", "The bank refused the transfer");
  return { ...owner, account, failed };
}

beforeAll(connectDatabase);

describe("earnings overview", () => {
  it("an organization with nothing: zeros in its currency", async () => {
    const { actor } = await ownerWithOrganization();
    expect(await getEarningsOverview(actor)).toEqual({
      currency: "NGN",
      totalEarned: "0.00",
      platformFees: "0.00",
      availableBalance: "0.00",
      pendingWithdrawals: "0.00",
      totalWithdrawn: "0.00",
      totalRefunded: "0.00",
      totalClaimsPaid: "0.00",
      last30Days: { net: "0.00", previous30DaysNet: "0.00" },
    });
  });

  it("payments, fees, pending / paid / failed withdrawals", async () => {
    const { actor, org } = await busyOrg();
    const { actor: member } = await addMember(org.id, "MEMBER");
    const expected = {
      currency: "NGN",
      totalEarned: "150.00",
      platformFees: "2.25",
      // 150.00 − 2.25 − 40.00 − 20.00 (the failed 10.13 came back)
      availableBalance: "87.75",
      pendingWithdrawals: "40.00",
      totalWithdrawn: "20.00",
      totalRefunded: "0.00",
      totalClaimsPaid: "0.00",
      last30Days: { net: "147.75", previous30DaysNet: "0.00" },
    };
    expect(await getEarningsOverview(actor)).toEqual(expected);
    expect(await getEarningsOverview(member)).toEqual(expected);
    // Forty days on, this month's earnings are the previous 30 days'.
    const later = await getEarningsOverview(actor, new Date(Date.now() + 40 * DAY_MS));
    expect(later.last30Days).toEqual({ net: "0.00", previous30DaysNet: "147.75" });
    const muchLater = await getEarningsOverview(actor, new Date(Date.now() + 70 * DAY_MS));
    expect(muchLater.last30Days).toEqual({ net: "0.00", previous30DaysNet: "0.00" });
  });
});

describe("ledger transactions", () => {
  it("the 30-day windows end at an instant: entries either side of each boundary land in the right one (day sums between, the boundary days entry by entry)", async () => {
    const { actor, org } = await ownerWithOrganization();
    const now = new Date("2026-06-15T12:00:00.000Z");
    const at = (ms: number) => new Date(now.getTime() + ms);
    const minute = 60_000;
    const entries: [Date, bigint][] = [
      [at(60 * minute), 1n], // after now: in no window
      [at(-minute), 10n], // now's day, before now: last 30
      [at(-12 * 60 * minute - minute), 20n], // now's day, its first minutes: last 30
      [at(-10 * DAY_MS), 40n], // a whole day inside: last 30
      [at(-30 * DAY_MS + minute), 80n], // the 30-day boundary's day, after it: last 30
      [at(-30 * DAY_MS), 160n], // exactly on it: the previous 30 ("> now − 30 days" for the last)
      [at(-30 * DAY_MS - minute), 320n], // before it, same day: previous 30
      [at(-45 * DAY_MS), 640n], // a whole day inside: previous 30
      [at(-60 * DAY_MS + minute), 1280n], // the 60-day boundary's day, after it: previous 30
      [at(-60 * DAY_MS), 2560n], // on it: neither
      [at(-60 * DAY_MS - minute), 5120n], // before: neither
    ];
    for (const [createdAt, amountMinor] of entries) {
      await db.ledgerTransaction.create({
        data: {
          organizationId: org.id,
          type: "payment",
          amountMinor,
          currency: "NGN",
          reference: `cdp_window_${amountMinor}`,
          description: "window",
          createdAt,
        },
      });
    }
    const overview = await getEarningsOverview(actor, now);
    expect(overview.last30Days).toEqual({ net: formatMinor(10n + 20n + 40n + 80n, "NGN"), previous30DaysNet: formatMinor(160n + 320n + 640n + 1280n, "NGN") });
    expect(overview.availableBalance).toBe(formatMinor(entries.reduce((sum, [, a]) => sum + a, 0n), "NGN"));
  });

  it("the running balance of a page that starts days after the first entry: the day sums before it, its own day entry by entry", async () => {
    const { actor, org } = await ownerWithOrganization();
    const base = Date.now() - 5 * DAY_MS;
    const amounts = [1000n, -300n, 50n, 7n, -20n];
    for (const [i, amountMinor] of amounts.entries()) {
      // Two entries a day apart from each other, the last two on one day.
      await db.ledgerTransaction.create({
        data: {
          organizationId: org.id,
          type: amountMinor > 0n ? "payment" : "fee",
          amountMinor,
          currency: "NGN",
          reference: `cdp_running_${i}`,
          description: "running",
          createdAt: new Date(base + Math.min(i, 3) * DAY_MS + i * 60_000),
        },
      });
    }
    const first = await listTransactions(actor, ListTransactionsQuery.parse({ limit: 2 }));
    const second = await listTransactions(actor, ListTransactionsQuery.parse({ limit: 2, cursor: first.nextCursor }));
    const third = await listTransactions(actor, ListTransactionsQuery.parse({ limit: 2, cursor: second.nextCursor }));
    const after = [...first.data, ...second.data, ...third.data].map((t) => t.balanceAfter);
    // Newest first: 737 after the last entry, then back one entry at a time.
    const running = [1000n, 700n, 750n, 757n, 737n].reverse().map((v) => formatMinor(v, "NGN"));
    expect(after).toEqual(running);
  });

  it("newest first with signed amounts; filters by type and day; paginates", async () => {
    const { actor, failed } = await busyOrg();
    const all = await listTransactions(actor, ListTransactionsQuery.parse({ limit: "100" }));
    expect(all.data.map((t) => t.type).sort()).toEqual(
      ["fee", "fee", "payment", "payment", "withdrawal", "withdrawal", "withdrawal", "withdrawal_reversal"].sort(),
    );
    const times = all.data.map((t) => t.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.data[0]).toEqual({
      id: expect.any(String),
      type: "withdrawal_reversal",
      amount: "10.13",
      currency: "NGN",
      reference: failed.reference,
      description: expect.stringContaining("failed: The bank refused the transfer"),
      createdAt: expect.any(String),
      balanceAfter: expect.any(String),
      fee: null,
      net: null,
    });
    // The running balance: the newest entry's is the balance; each older one's is the newer one's less its amount.
    const minor = (v: string | null) => BigInt(Math.round(Number(v) * 100));
    expect(all.data[0]!.balanceAfter).toBe(formatMinor(await availableBalance(actor.organizationId), "NGN"));
    for (let i = 1; i < all.data.length; i++) {
      expect(minor(all.data[i]!.balanceAfter), `entry ${i}`).toBe(
        minor(all.data[i - 1]!.balanceAfter) - minor(all.data[i - 1]!.amount),
      );
    }
    expect(minor(all.data.at(-1)!.balanceAfter) - minor(all.data.at(-1)!.amount)).toBe(0n);
    // Page by page the same figures, one page's sum apart.
    const first = await listTransactions(actor, ListTransactionsQuery.parse({ limit: "3" }));
    const second = await listTransactions(actor, ListTransactionsQuery.parse({ limit: "3", cursor: first.nextCursor }));
    expect([...first.data, ...second.data].map((t) => t.balanceAfter)).toEqual(all.data.slice(0, 6).map((t) => t.balanceAfter));

    const fees = await listTransactions(actor, ListTransactionsQuery.parse({ type: "fee" }));
    expect(fees.data.map((t) => t.amount).sort()).toEqual(["-0.75", "-1.50"]);
    expect(fees.data.map((t) => t.balanceAfter)).toEqual([null, null]);
    const debits = await listTransactions(actor, ListTransactionsQuery.parse({ type: "withdrawal" }));
    expect(debits.data.map((t) => t.amount)).toEqual(["-10.13", "-20.00", "-40.00"]);

    expect((await listTransactions(actor, ListTransactionsQuery.parse({ from: today(), to: today() }))).data).toHaveLength(8);
    expect((await listTransactions(actor, ListTransactionsQuery.parse({ to: dayOffset(-1) }))).data).toEqual([]);
    expect((await listTransactions(actor, ListTransactionsQuery.parse({ from: dayOffset(1) }))).data).toEqual([]);

    const page1 = await listTransactions(actor, ListTransactionsQuery.parse({ limit: "5" }));
    const page2 = await listTransactions(actor, ListTransactionsQuery.parse({ limit: "5", cursor: page1.nextCursor }));
    expect(page2.nextCursor).toBeNull();
    expect([...page1.data, ...page2.data].map((t) => t.id)).toEqual(all.data.map((t) => t.id));
  });

  it("folded: one row per payment with its fee and net, the same running balance, paged alike", async () => {
    const { actor } = await busyOrg();
    const entries = (await listTransactions(actor, ListTransactionsQuery.parse({ limit: "100" }))).data;
    const folded = (await listTransactions(actor, ListTransactionsQuery.parse({ limit: "100", fees: "folded" }))).data;
    // No fee rows: each payment carries its fee, and net = amount − fee.
    expect(folded.map((t) => t.type)).toEqual(entries.filter((t) => t.type !== "fee").map((t) => t.type));
    const payments = folded.filter((t) => t.type === "payment");
    expect(payments.map((t) => [t.amount, t.fee, t.net]).sort()).toEqual([
      ["100.00", "1.50", "98.50"],
      ["50.00", "0.75", "49.25"],
    ]);
    expect(folded.filter((t) => t.type !== "payment").every((t) => t.fee === null && t.net === null)).toBe(true);
    // The balance after each row is the balance after its entries: a payment's includes its fee.
    const after = new Map(entries.map((t) => [t.id, t.balanceAfter]));
    for (const t of folded) {
      if (t.type !== "payment") expect(t.balanceAfter, t.type).toBe(after.get(t.id));
    }
    expect(folded[0]!.balanceAfter).toBe(formatMinor(await availableBalance(actor.organizationId), "NGN"));
    const minor = (v: string | null) => BigInt(Math.round(Number(v) * 100));
    for (let i = 1; i < folded.length; i++) {
      const newer = folded[i - 1]!;
      expect(minor(folded[i]!.balanceAfter), `row ${i}`).toBe(minor(newer.balanceAfter) - minor(newer.net ?? newer.amount));
    }
    // Page by page (every first row a different kind), the same rows and balances.
    for (const limit of ["1", "2", "3"]) {
      const seen: typeof folded = [];
      let cursor: string | undefined;
      do {
        const page = await listTransactions(actor, ListTransactionsQuery.parse({ limit, cursor, fees: "folded" }));
        seen.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(folded);
    }
    // Asking for the fees themselves lists them, folded or not.
    expect((await listTransactions(actor, ListTransactionsQuery.parse({ type: "fee", fees: "folded" }))).data).toHaveLength(2);
  });

  it("refuses impossible days and from after to (a query error)", () => {
    for (const bad of [{ from: "2026-02-30" }, { to: "yesterday" }, { from: "2026-03-02", to: "2026-03-01" }]) {
      expect(ListTransactionsQuery.safeParse(bad).success).toBe(false);
    }
    expect(ListTransactionsQuery.safeParse({ from: "2026-03-01", to: "2026-03-01" }).success).toBe(true);
    expect(ListTransactionsQuery.safeParse({ type: "refund" }).success).toBe(true);
    expect(ListTransactionsQuery.safeParse({ type: "chargeback" }).success).toBe(false);
  });
});

describe("withdraw state", () => {
  it("says why a withdrawal cannot be offered, in the order the service checks", async () => {
    const { actor } = await ownerWithOrganization();
    expect(await getWithdrawState(actor)).toEqual({
      kybStatus: "not_submitted",
      hasVerifiedAccount: false,
      available: "0.00",
      currency: "NGN",
      disabledReason: "kyb_not_approved",
    });
    await approveKyb(actor);
    expect((await getWithdrawState(actor)).disabledReason).toBe("no_verified_account");
    await bankAccount(actor);
    expect(await getWithdrawState(actor)).toMatchObject({ hasVerifiedAccount: true, disabledReason: "nothing_available" });
    await receivePayment(actor, "10.00");
    expect(await getWithdrawState(actor)).toEqual({
      kybStatus: "approved",
      hasVerifiedAccount: true,
      available: "9.85",
      currency: "NGN",
      disabledReason: null,
    });
  });
});

describe("earnings series", () => {
  it("daily gross, fees and net over the last 30 days by default, zeros included", async () => {
    const { actor } = await busyOrg();
    const series = await getEarningsSeries(actor, SeriesQuery.parse({}));
    expect(series).toHaveLength(30);
    expect(series[29]).toEqual({ date: today(), gross: "150.00", fees: "2.25", net: "147.75" });
    expect(series[0]).toEqual({ date: dayOffset(-29), gross: "0.00", fees: "0.00", net: "0.00" });

    const one = await getEarningsSeries(actor, SeriesQuery.parse({ from: dayOffset(-1), to: today() }));
    expect(one.map((p) => p.net)).toEqual(["0.00", "147.75"]);
  });

  it("at most 366 days; from not after to", async () => {
    const { actor } = await ownerWithOrganization();
    expect(SeriesQuery.safeParse({ from: "2025-01-01", to: "2026-01-01" }).success).toBe(true); // 366 days
    expect(SeriesQuery.safeParse({ from: "2025-01-01", to: "2026-01-02" }).success).toBe(false);
    expect(SeriesQuery.safeParse({ from: "2026-01-02", to: "2026-01-01" }).success).toBe(false);
    expect(await getEarningsSeries(actor, { from: "2025-01-01", to: "2026-01-01" })).toHaveLength(366);
    // Only `from`, a long time ago: the default `to` (today) makes the range too long.
    const err = await getEarningsSeries(actor, { from: "2020-01-01" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
  });
});
