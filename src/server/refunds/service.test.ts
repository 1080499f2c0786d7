// Refunds: the order of the checks, the amount left, the balance lock against
// concurrent refunds, and the job settling them in the sandbox (processed, or
// failed with the money back) — each with the ledger checked.
import { beforeAll, describe, expect, it } from "vitest";
import { RefundPaymentInput } from "@/lib/schemas/refunds";
import { InitializePaymentInput } from "@/lib/schemas/payments";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { availableBalance } from "@/server/ledger/balance";
import { earningsTotals } from "@/server/earnings/service";
import { checkLedger } from "@/server/ledger/check";
import { initializePayment } from "@/server/payments/service";
import { addMember, ownerWithOrganization, refusal } from "@/test/fixtures";
import { receivePayment } from "@/test/money";
import { runDueRefunds } from "./job";
import { listRefunds, refundPayment } from "./service";

const input = (v: Record<string, unknown> = {}) => RefundPaymentInput.parse(v);

/** Runs the refund job until nothing is due, the sandbox's delay skipped. */
async function settleDueRefunds() {
  for (let pass = 0; pass < 10; pass++) {
    await db.refund.updateMany({ where: { status: "pending" }, data: { runAt: new Date(Date.now() - 1000) } });
    if ((await runDueRefunds()) === 0) return;
  }
}

async function paymentRow(reference: string) {
  return db.payment.findUniqueOrThrow({ where: { reference } });
}

beforeAll(connectDatabase);

describe("refundPayment", () => {
  it("refunds what is left by default, partly when asked, and never more than the payment", async () => {
    const { actor, org } = await ownerWithOrganization();
    const reference = await receivePayment(actor, "100.00");
    await receivePayment(actor, "100.00"); // the balance (197.00) is not what limits here
    const before = await availableBalance(org.id);

    const part = await refundPayment(actor, reference, input({ amount: 30.25, reason: "Bought twice" }));
    expect(part).toMatchObject({ paymentReference: reference, amount: "30.25", status: "pending", reason: "Bought twice" });
    expect((await paymentRow(reference)).refundedMinor).toBe(3025n);
    expect(await availableBalance(org.id)).toBe(before - 3025n);

    const over = await refusal(refundPayment(actor, reference, input({ amount: 69.76 })));
    expect([over.status, over.code]).toEqual([422, "validation_failed"]);
    expect(over.extra.errors).toEqual([{ path: "amount", message: "Refund at most what is left of the payment, 69.75" }]);

    const rest = await refundPayment(actor, reference, input());
    expect(rest.amount).toBe("69.75");
    expect((await paymentRow(reference)).refundedMinor).toBe(10000n);
    const none = await refusal(refundPayment(actor, reference, input()));
    expect(none.extra.errors).toEqual([{ path: "amount", message: "This payment is refunded in full already" }]);

    // Two debits with their own references, the fee never returned.
    const entries = await db.ledgerTransaction.findMany({ where: { organizationId: org.id, type: "refund" } });
    expect(entries.map((e) => e.amountMinor).sort((a, b) => (a < b ? -1 : 1))).toEqual([-6975n, -3025n]);
    expect(await availableBalance(org.id)).toBe(before - 10000n);
    expect(await db.event.count({ where: { organizationId: org.id, type: "refund.created" } })).toBe(2);
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });

  it("the checks in order: the payment's state (409), then what is left (422), then the balance (409); nothing written on refusal", async () => {
    const { actor, org } = await ownerWithOrganization();
    const policyRef = await receivePayment(actor, "100.00");
    const paid = await paymentRow(policyRef);
    const pending = await initializePayment(
      actor,
      InitializePaymentInput.parse({ amount: 100, policyId: paid.policyId, email: "later@example.test" }),
    );
    const notPaid = await refusal(refundPayment(actor, pending.reference, input({ amount: 500 })));
    expect([notPaid.status, notPaid.code]).toEqual([409, "invalid_state"]);

    // 98.50 available (100.00 less the 1.50 fee): a full refund of 100.00 does not fit.
    const short = await refusal(refundPayment(actor, policyRef, input()));
    expect([short.status, short.code]).toEqual([409, "insufficient_funds"]);
    expect(await db.refund.count({ where: { organizationId: org.id } })).toBe(0);
    expect((await paymentRow(policyRef)).refundedMinor).toBe(0n);
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id, type: "refund" } })).toBe(0);

    // Another organization's payment does not exist here; a MEMBER may not refund.
    const other = await ownerWithOrganization();
    expect((await refusal(refundPayment(other.actor, policyRef, input({ amount: 1 })))).code).toBe("not_found");
    const member = await addMember(org.id, "MEMBER");
    expect((await refusal(refundPayment(member.actor, policyRef, input({ amount: 1 })))).code).toBe("forbidden");
    expect(await db.refund.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it("two full refunds of one payment at once: one is made, the other finds nothing left", async () => {
    const { actor, org } = await ownerWithOrganization();
    const reference = await receivePayment(actor, "100.00");
    await receivePayment(actor, "100.00");
    const results = await Promise.allSettled([
      refundPayment(actor, reference, input()),
      refundPayment(actor, reference, input()),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as AppError).status).toBe(422);
    expect((await paymentRow(reference)).refundedMinor).toBe(10000n);
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });
});

describe("the refund job (sandbox)", () => {
  it("processes a refund (payment.refunded), and a refused one gives the money back and can be refunded again", async () => {
    const { actor, org } = await ownerWithOrganization();
    const reference = await receivePayment(actor, "100.00");
    await receivePayment(actor, "100.00");
    const before = await availableBalance(org.id);

    const ok = await refundPayment(actor, reference, input({ amount: 20 }));
    const refused = await refundPayment(actor, reference, input({ amount: 10.13 })); // the sandbox refuses .13
    await settleDueRefunds();

    const done = await db.refund.findUniqueOrThrow({ where: { id: ok.id } });
    expect([done.status, done.processedAt]).toEqual(["processed", expect.any(Date)]);
    const events = await db.event.findMany({ where: { organizationId: org.id, type: "payment.refunded" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.subject).toBe(reference);
    expect(events[0]!.data).toMatchObject({ id: ok.id, amount: "20.00", status: "processed", paymentReference: reference });

    const failed = await db.refund.findUniqueOrThrow({ where: { id: refused.id } });
    expect(failed.status).toBe("failed");
    expect(failed.failureReason).toMatch(/\.13 fail/);
    const reversal = await db.ledgerTransaction.findFirstOrThrow({ where: { organizationId: org.id, type: "refund_reversal" } });
    expect([reversal.amountMinor, reversal.reference]).toEqual([1013n, failed.reference]);
    expect((await paymentRow(reference)).refundedMinor).toBe(2000n);
    expect(await availableBalance(org.id)).toBe(before - 2000n);
    expect((await earningsTotals(org.id)).totalRefunded).toBe(2000n); // the failed one came back

    // Settled once: another pass changes nothing.
    await settleDueRefunds();
    expect(await db.event.count({ where: { organizationId: org.id, type: "payment.refunded" } })).toBe(1);
    expect(await db.ledgerTransaction.count({ where: { organizationId: org.id, type: "refund_reversal" } })).toBe(1);

    const listed = await listRefunds(actor, { limit: 10 });
    expect(listed.data.map((r) => [r.amount, r.status])).toEqual([
      ["10.13", "failed"],
      ["20.00", "processed"],
    ]);
    const onlyFailed = await listRefunds(actor, { limit: 10, status: "failed", paymentReference: reference });
    expect(onlyFailed.data.map((r) => r.id)).toEqual([refused.id]);
    expect((await listRefunds(actor, { limit: 10, paymentReference: "cdp_nothing" })).data).toEqual([]);
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });
});
