// Claim payouts: the order of the checks, one payout at a time per claim, the
// sandbox paying (the claim becomes paid, with its events) or refusing (the
// money back, the claim approved, paid again), and 30 concurrent movements of
// three kinds against a balance that affords a few.
import { beforeAll, describe, expect, it } from "vitest";
import { PayClaimInput } from "@/lib/schemas/claim-payouts";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { RefundPaymentInput } from "@/lib/schemas/refunds";
import { WithdrawInput } from "@/lib/schemas/withdrawals";
import type { Actor } from "@/server/actor";
import { getClaim, submitClaim, updateClaimStatus } from "@/server/claims/service";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { availableBalance } from "@/server/ledger/balance";
import { earningsTotals } from "@/server/earnings/service";
import { checkLedger } from "@/server/ledger/check";
import { ensureTestTwin } from "@/server/organizations/twin";
import { refundPayment } from "@/server/refunds/service";
import { requestWithdrawal } from "@/server/withdrawals/service";
import { addMember, ownerWithOrganization, refusal } from "@/test/fixtures";
import { approveKyb, bankAccount, receivePayment } from "@/test/money";
import { runDueClaimPayouts } from "./job";
import { listClaimPayouts, payClaim, setClaimantAccount } from "./service";

const account = (n: number) => `30${String(n).padStart(8, "0")}`;
const pay = (v: Record<string, unknown> = {}) => PayClaimInput.parse({ accountNumber: account(1), bankCode: "058", ...v });

/** A claim of `amount` on the organization's first policy, approved at `approved`. */
async function approvedClaim(actor: Actor, amount: number, approved = amount) {
  const policy = await db.policy.findFirstOrThrow({ where: { organizationId: actor.organizationId } });
  const claim = await submitClaim(
    actor,
    CreateClaimInput.parse({ policyId: policy.id, type: "theft", description: "Phone stolen", amount }),
  );
  await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
  await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved", approvedAmount: approved }));
  return claim;
}

/** Runs the claim payout job until nothing is due, the sandbox's delay skipped. */
async function settleDuePayouts() {
  for (let pass = 0; pass < 10; pass++) {
    await db.claimPayout.updateMany({
      where: { status: { in: ["pending", "processing"] } },
      data: { runAt: new Date(Date.now() - 1000) },
    });
    if ((await runDueClaimPayouts()) === 0) return;
  }
}

/** Approved KYB and 98.50 × n available. */
async function funded(n = 1) {
  const owner = await ownerWithOrganization();
  for (let i = 0; i < n; i++) await receivePayment(owner.actor, "100.00");
  await approveKyb(owner.actor);
  return owner;
}

beforeAll(connectDatabase);

describe("payClaim: the order of the checks", () => {
  it("state (409), then KYB in live mode (409), then the approved amount (422), then the balance (409); nothing written on refusal", async () => {
    const { actor, org } = await ownerWithOrganization();
    await receivePayment(actor, "100.00");
    const policy = await db.policy.findFirstOrThrow({ where: { organizationId: org.id } });
    const filed = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "fire", description: "Kitchen", amount: 50 }),
    );
    const notApproved = await refusal(payClaim(actor, filed.id, pay()));
    expect([notApproved.status, notApproved.code]).toEqual([409, "invalid_state"]);

    const claim = await approvedClaim(actor, 500, 450);
    expect((await refusal(payClaim(actor, claim.id, pay()))).code).toBe("kyb_not_approved");
    await approveKyb(actor);
    const over = await refusal(payClaim(actor, claim.id, pay({ amount: 450.01 })));
    expect([over.status, over.extra.errors]).toEqual([
      422,
      [{ path: "amount", message: "Pay at most the approved amount, 450.00" }],
    ]);
    const short = await refusal(payClaim(actor, claim.id, pay()));
    expect([short.status, short.code]).toEqual([409, "insufficient_funds"]);
    // Unknown bank or account: 422 on its field (the sandbox knows no number ending 0000).
    const noBank = await refusal(payClaim(actor, claim.id, pay({ bankCode: "999", amount: 1 })));
    expect(noBank.extra.errors).toEqual([{ path: "bankCode", message: expect.stringMatching(/not known/) }]);
    const noAccount = await refusal(payClaim(actor, claim.id, pay({ accountNumber: "3000010000", amount: 1 })));
    expect(noAccount.extra.errors).toEqual([{ path: "accountNumber", message: expect.stringMatching(/No account/) }]);

    expect(await db.claimPayout.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id, type: "claim_payout" } })).toBe(0);

    // Another organization's claim does not exist; a MEMBER may not pay one.
    const other = await funded();
    expect((await refusal(payClaim(other.actor, claim.id, pay({ amount: 1 })))).code).toBe("not_found");
    expect((await refusal(listClaimPayouts(other.actor, claim.id))).code).toBe("not_found");
    const member = await addMember(org.id, "MEMBER");
    expect((await refusal(payClaim(member.actor, claim.id, pay({ amount: 1 })))).code).toBe("forbidden");
  });

  it("test mode needs no KYB", async () => {
    const { actor } = await ownerWithOrganization();
    const testActor: Actor = { ...actor, organizationId: await ensureTestTwin(actor.organizationId), livemode: false };
    await receivePayment(testActor, "100.00");
    const claim = await approvedClaim(testActor, 50);
    const payout = await payClaim(testActor, claim.id, pay());
    expect(payout.status).toBe("pending");
  });
});

describe("paying a claim", () => {
  it("pays the approved amount to the resolved account; the claim becomes paid with claim.updated and claim.paid", async () => {
    const { actor, org } = await funded();
    const claim = await approvedClaim(actor, 60, 40);
    const before = await availableBalance(org.id);

    const payout = await payClaim(actor, claim.id, pay());
    expect(payout).toMatchObject({
      claimId: claim.id,
      amount: "40.00",
      status: "pending",
      bankName: "Guaranty Trust Bank",
      accountNumberLast4: "0001",
      paidAt: null,
    });
    expect(payout.accountName).toMatch(/^[A-Z]+ [A-Z]+$/);
    expect(await availableBalance(org.id)).toBe(before - 4000n);
    // The account number is sealed: only its last 4 digits are stored in clear.
    const row = await db.claimPayout.findUniqueOrThrow({ where: { id: payout.id } });
    expect(row.accountNumberSealed).not.toContain(account(1));

    const second = await refusal(payClaim(actor, claim.id, pay({ amount: 1 })));
    expect([second.status, second.code]).toEqual([409, "payout_exists"]);
    const byHand = await refusal(
      updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "paid", settledOutside: true, note: "Cash" })),
    );
    expect(byHand.code).toBe("payout_exists");

    await settleDuePayouts();
    const paid = await db.claimPayout.findUniqueOrThrow({ where: { id: payout.id } });
    expect([paid.status, paid.paidAt]).toEqual(["paid", expect.any(Date)]);
    const settled = await db.claim.findUniqueOrThrow({
      where: { id: claim.id },
      include: { history: { orderBy: { createdAt: "asc" } } },
    });
    expect(settled.status).toBe("paid");
    expect(settled.history.at(-1)).toMatchObject({
      fromStatus: "approved",
      toStatus: "paid",
      note: expect.stringMatching(/••••0001$/),
    });
    const events = await db.event.findMany({
      where: { organizationId: org.id, subject: claim.id },
      orderBy: { createdAt: "asc" },
    });
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === "claim.updated")).toHaveLength(3); // under review, approved, paid
    expect(types).toContain("claim.paid");
    const lastUpdate = events.filter((e) => e.type === "claim.updated").at(-1)!;
    expect(lastUpdate.data).toMatchObject({ id: claim.id, status: "paid", previousStatus: "approved" });
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });

  it("a refused transfer gives the money back and leaves the claim approved; it is paid again", async () => {
    const { actor, org } = await funded();
    const claim = await approvedClaim(actor, 30.13);
    const before = await availableBalance(org.id);
    const refused = await payClaim(actor, claim.id, pay()); // the sandbox's bank refuses .13
    await settleDuePayouts();
    const failed = await db.claimPayout.findUniqueOrThrow({ where: { id: refused.id } });
    expect(failed.status).toBe("failed");
    expect((await db.claim.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe("approved");
    expect(await availableBalance(org.id)).toBe(before);
    const reversal = await db.ledgerTransaction.findFirstOrThrow({
      where: { organizationId: org.id, type: "claim_payout_reversal" },
    });
    expect([reversal.amountMinor, reversal.reference]).toEqual([3013n, failed.reference]);
    expect(await db.event.count({ where: { organizationId: org.id, type: "claim_payout.failed" } })).toBe(1);

    const again = await payClaim(actor, claim.id, pay({ amount: 30 }));
    await settleDuePayouts();
    expect((await db.claim.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe("paid");
    expect((await earningsTotals(org.id)).totalClaimsPaid).toBe(3000n); // the failed one came back
    const listed = await listClaimPayouts(actor, claim.id);
    expect(listed.data.map((p) => [p.id, p.status])).toEqual([
      [again.id, "paid"],
      [refused.id, "failed"],
    ]);
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });

  it("two payouts of one claim at once: one is made, the other is payout_exists", async () => {
    const { actor, org } = await funded();
    const claim = await approvedClaim(actor, 20);
    const results = await Promise.allSettled([payClaim(actor, claim.id, pay()), payClaim(actor, claim.id, pay())]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason as AppError).code).toBe(
      "payout_exists",
    );
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id, type: "claim_payout" } })).toBe(1);
  });

  it("marked paid by hand only with settledOutside and a note: claim.updated and claim.paid", async () => {
    const { actor, org } = await funded();
    const claim = await approvedClaim(actor, 20);
    expect(() => UpdateClaimStatusInput.parse({ status: "paid" })).toThrow(/settledOutside/);
    expect(() => UpdateClaimStatusInput.parse({ status: "paid", settledOutside: true })).toThrow(/how the claim was paid/);
    await updateClaimStatus(
      actor,
      claim.id,
      UpdateClaimStatusInput.parse({ status: "paid", settledOutside: true, note: "Cheque 0042" }),
    );
    expect(await db.event.count({ where: { organizationId: org.id, subject: claim.id, type: "claim.paid" } })).toBe(1);
    // No money moved through Coverdesk.
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id, type: "claim_payout" } })).toBe(0);
  });
});

describe("one balance lock for every outgoing movement", () => {
  it("30 concurrent withdrawals, refunds and claim payouts against 394.00: exactly the affordable ones go through", async () => {
    const { actor, org } = await funded(4); // 4 × 98.50 = 394.00
    const bank = await bankAccount(actor);
    const payments = await db.payment.findMany({ where: { organizationId: org.id, status: "success" } });
    const claims = [];
    for (let i = 0; i < 10; i++) claims.push(await approvedClaim(actor, 50));
    expect(await availableBalance(org.id)).toBe(39400n);

    const attempts = [
      ...Array.from({ length: 10 }, () => requestWithdrawal(actor, WithdrawInput.parse({ amount: 50, bankAccountId: bank.id }))),
      ...Array.from({ length: 10 }, (_, i) =>
        refundPayment(actor, payments[i % 4]!.reference, RefundPaymentInput.parse({ amount: 50 })),
      ),
      ...claims.map((c, i) => payClaim(actor, c.id, pay({ accountNumber: account(100 + i) }))),
    ];
    const results = await Promise.allSettled(attempts);
    const ok = results.filter((r) => r.status === "fulfilled").length;
    const refused = results
      .filter((r) => r.status === "rejected")
      .map((r) => ((r as PromiseRejectedResult).reason as AppError).code);
    // 394.00 affords 7 movements of 50.00; each payment can be refunded 50.00 twice, but the balance stops first.
    expect(ok).toBe(7);
    expect(refused.every((code) => code === "insufficient_funds" || code === "validation_failed")).toBe(true);
    expect(refused.filter((c) => c === "insufficient_funds").length).toBeGreaterThanOrEqual(20);
    expect(await availableBalance(org.id)).toBe(39400n - 7n * 5000n);
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });
});

describe("the policyholder's payout account (portal)", () => {
  const holder = "claimant@example.test";

  async function approvedClaimOf(actor: Actor, email: string) {
    const policy = await db.policy.findFirstOrThrow({ where: { organizationId: actor.organizationId } });
    const claim = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "theft", description: "Bicycle", amount: 40, email }),
    );
    return { claim, policy };
  }

  it("is given once approved, by the claimant only, named by the bank; then one call pays it", async () => {
    const { actor, org } = await funded();
    const { claim } = await approvedClaimOf(actor, holder);
    const given = { bankCode: "058", accountNumber: account(7) };
    // Not yet approved: 409; another policyholder or business: 404; an unknown bank: 422.
    expect((await refusal(setClaimantAccount(org.id, claim.id, given, holder))).code).toBe("invalid_state");
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved", approvedAmount: 30 }));
    expect((await refusal(setClaimantAccount(org.id, claim.id, given, "someone-else@example.test"))).code).toBe("not_found");
    const other = await ownerWithOrganization();
    expect((await refusal(setClaimantAccount(other.org.id, claim.id, given, holder))).code).toBe("not_found");
    const badBank = await refusal(setClaimantAccount(org.id, claim.id, { ...given, bankCode: "999" }, holder));
    expect([badBank.code, badBank.extra.errors?.[0]?.path]).toEqual(["validation_failed", "bankCode"]);
    expect((await db.claim.findUniqueOrThrow({ where: { id: claim.id } })).payoutAccountSealed).toBeNull();

    const saved = await setClaimantAccount(org.id, claim.id, given, holder);
    expect(saved).toMatchObject({ bankCode: "058", accountNumberLast4: "0007" });
    expect(saved.accountName.length).toBeGreaterThan(0);
    const row = await db.claim.findUniqueOrThrow({ where: { id: claim.id } });
    // Sealed: the number is not stored in the clear.
    expect(row.payoutAccountSealed).not.toContain(account(7));
    expect((await getClaim(actor, claim.id)).payoutAccount).toMatchObject({
      bankName: saved.bankName,
      accountNumberLast4: "0007",
    });

    // The business pays it without naming an account: the approved amount, to that account.
    const payout = await payClaim(actor, claim.id, PayClaimInput.parse({}));
    expect(payout).toMatchObject({
      amount: "30.00",
      accountNumberLast4: "0007",
      accountName: saved.accountName,
      status: "pending",
    });
    // Under way: the account can no longer change.
    expect((await refusal(setClaimantAccount(org.id, claim.id, { ...given, accountNumber: account(8) }, holder))).code).toBe(
      "payout_exists",
    );
    await settleDuePayouts();
    expect((await getClaim(actor, claim.id)).status).toBe("paid");
  });

  it("without an account given in the portal, a payout must name one (422); a half-named account is refused by the schema", async () => {
    const { actor } = await funded();
    const claim = await approvedClaim(actor, 20);
    const none = await refusal(payClaim(actor, claim.id, PayClaimInput.parse({})));
    expect([none.code, none.extra.errors?.[0]?.path]).toEqual(["validation_failed", "accountNumber"]);
    expect(await db.claimPayout.count({ where: { claimId: claim.id } })).toBe(0);
    expect(PayClaimInput.safeParse({ bankCode: "058" }).error?.issues[0]?.path).toEqual(["accountNumber"]);
    expect(PayClaimInput.safeParse({ accountNumber: account(1) }).error?.issues[0]?.path).toEqual(["bankCode"]);
  });
});
