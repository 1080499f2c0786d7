// Cancellations: the rule (cooling-off, pro rata, claim on cover) at its
// boundaries, the refund written with the cancellation in one transaction
// under the balance lock, what a cancelled coverage no longer gets (reminders,
// expiry, renewal), and a later purchase starting a new period.
import { beforeAll, describe, expect, it } from "vitest";
import { formatMinor } from "@/lib/money";
import { CancelCoverageInput } from "@/lib/schemas/coverages";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { InitializePaymentInput } from "@/lib/schemas/payments";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import type { Actor } from "@/server/actor";
import { submitClaim, updateClaimStatus } from "@/server/claims/service";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { availableBalance } from "@/server/ledger/balance";
import { checkLedger } from "@/server/ledger/check";
import { payWithCard } from "@/server/payments/checkout";
import { initializePayment } from "@/server/payments/service";
import { createPolicy } from "@/server/policies/service";
import { portalCancelCoverage, portalCancellationQuote, renewCoverage } from "@/server/portal/service";
import { updateSettings } from "@/server/settings/service";
import { ownerWithOrganization, refusal, unique } from "@/test/fixtures";
import { cancelCoverage, cancelCoverageOf, cancellationFigures, cancellationQuoteFor, getCancellationQuote } from "./cancel";
import { runCoverageLifecycle } from "./lifecycle";
import { listCoverages } from "./service";
import { card as testCard } from "@/test/money";

const DAY = 86_400_000;
// Not renewing automatically: these covers end (and expire) at their end.
const card = { ...testCard(), autoRenew: false };

/** A customer buys a monthly policy of `price` (a new one unless `policyId`); answers the coverage row and the payment's reference. */
async function buy(actor: Actor, price = "300.00", policyId?: string, email = `c${unique()}@example.test`) {
  const policy =
    policyId ??
    (
      await createPolicy(
        actor,
        CreatePolicyInput.parse({ name: `Cover ${unique()}`, type: "property", duration: "monthly", price }),
      )
    ).id;
  const payment = await initializePayment(
    actor,
    InitializePaymentInput.parse({ amount: Number(price), policyId: policy, email }),
  );
  await payWithCard(payment.reference, card);
  const coverage = await db.coverage.findFirstOrThrow({ where: { policyId: policy, customerEmail: email } });
  return { coverage, policyId: policy, email, reference: payment.reference };
}

const cancel = (reason = "Sold the car", refund: "auto" | "none" = "auto") => CancelCoverageInput.parse({ reason, refund });

beforeAll(connectDatabase);

describe("cancellationFigures (the rule)", () => {
  const start = new Date("2030-01-01T00:00:00Z");
  const end = new Date("2030-01-31T00:00:00Z"); // 30 days
  const at = (ms: number) => new Date(start.getTime() + ms);
  const figures = (now: Date, o: { coolingOffDays?: number; claim?: boolean } = {}) =>
    cancellationFigures({
      periodStart: start,
      periodEnd: end,
      coolingOffDays: o.coolingOffDays ?? 14,
      premiumMinor: 30_000n,
      claimOnCover: o.claim ?? false,
      now,
    });

  it("within the cooling-off days the whole premium; at exactly the boundary pro rata", () => {
    expect(figures(at(14 * DAY - 1))).toEqual({ rule: "cooling_off", refundMinor: 30_000n, usedDays: 14, periodDays: 30 });
    expect(figures(at(14 * DAY))).toEqual({ rule: "pro_rata", refundMinor: 16_000n, usedDays: 14, periodDays: 30 });
    // A day begun counts as used; rounded down to the minor unit.
    expect(figures(at(14 * DAY + 1))).toEqual({ rule: "pro_rata", refundMinor: 15_000n, usedDays: 15, periodDays: 30 });
  });

  it("on the last day of the period nothing is left; no cooling-off with 0 days; a claim on cover refunds nothing", () => {
    expect(figures(at(29 * DAY + 1))).toMatchObject({ rule: "pro_rata", refundMinor: 0n, usedDays: 30 });
    expect(figures(at(1), { coolingOffDays: 0 })).toMatchObject({ rule: "pro_rata", refundMinor: 29_000n, usedDays: 1 });
    expect(figures(at(1), { claim: true })).toMatchObject({ rule: "claim_on_cover", refundMinor: 0n });
    // 7 of 30 days left of 100.00 → 23.333… → 23.33.
    expect(
      cancellationFigures({
        periodStart: start,
        periodEnd: end,
        coolingOffDays: 0,
        premiumMinor: 10_000n,
        claimOnCover: false,
        now: at(23 * DAY),
      }).refundMinor,
    ).toBe(2333n);
  });
});

describe("cancelling a coverage", () => {
  it("in the cooling-off days: the whole premium refunded with the cancellation, its event, no reminder or expiry left", async () => {
    const { actor, org } = await ownerWithOrganization();
    await buy(actor, "1000.00"); // the balance the refund needs besides this payment's own net
    const { coverage, reference } = await buy(actor, "300.00");
    const before = await availableBalance(org.id);

    const quote = await getCancellationQuote(actor, coverage.id);
    expect(quote).toMatchObject({
      rule: "cooling_off",
      refundAmount: "300.00",
      premium: "300.00",
      coolingOffDays: 14,
      paymentReference: reference,
    });

    const done = await cancelCoverage(actor, coverage.id, cancel());
    expect(done).toMatchObject({
      status: "cancelled",
      cancellationReason: "Sold the car",
      refund: { amount: "300.00", paymentReference: reference },
    });
    expect(await availableBalance(org.id)).toBe(before - 30_000n);
    const row = await db.coverage.findUniqueOrThrow({ where: { id: coverage.id } });
    expect([row.remindAt, row.lapseAt, row.cancelledAt?.toISOString()]).toEqual([null, null, done.cancelledAt]);
    expect((await db.payment.findUniqueOrThrow({ where: { reference } })).refundedMinor).toBe(30_000n);
    const event = await db.event.findFirstOrThrow({ where: { organizationId: org.id, type: "coverage.cancelled" } });
    expect(event.data).toMatchObject({ id: coverage.id, status: "cancelled", refund: { id: done.refund!.id } });
    expect((await checkLedger(org.id)).problems).toEqual([]);

    // Listed as cancelled, not active; twice → 409; the quote too.
    expect((await listCoverages(actor, { limit: 10, status: "cancelled" })).data.map((c) => c.id)).toEqual([coverage.id]);
    expect((await listCoverages(actor, { limit: 10, status: "active" })).data.map((c) => c.id)).not.toContain(coverage.id);
    expect((await refusal(cancelCoverage(actor, coverage.id, cancel()))).code).toBe("invalid_state");
    expect((await refusal(getCancellationQuote(actor, coverage.id))).code).toBe("invalid_state");

    // Its end passing writes no coverage.expired.
    const after = new Date(row.endsAt.getTime() + DAY);
    expect(await runCoverageLifecycle(after, { organizationIds: [org.id] })).toEqual({ reminders: 0, expired: 1 }); // the other coverage
    expect(await db.event.count({ where: { organizationId: org.id, type: "coverage.expired", subject: coverage.id } })).toBe(0);
  });

  it("after the cooling-off days: the unused whole days pro rata; on the period's last day nothing", async () => {
    const { actor, org } = await ownerWithOrganization();
    await updateSettings(actor, { coverage: { coolingOffDays: 3 } });
    await buy(actor, "1000.00");
    const { coverage } = await buy(actor, "300.00");
    const start = coverage.periodStartsAt.getTime();
    const days = Math.round((coverage.endsAt.getTime() - start) / DAY);

    const mid = await cancellationQuoteFor(org.id, coverage.id, undefined, new Date(start + 10 * DAY + 5));
    expect(mid).toMatchObject({ rule: "pro_rata", usedDays: 11, periodDays: days, coolingOffDays: 3 });
    expect(mid.refundAmount).toBe(formatMinor((30_000n * BigInt(days - 11)) / BigInt(days), "NGN"));

    const last = await cancelCoverageOf(org.id, coverage.id, cancel(), { now: new Date(coverage.endsAt.getTime() - 1000) });
    expect([last.status, last.refund]).toEqual(["cancelled", null]);
  });

  it("after a claim on the coverage was approved in the period: no refund (claim_on_cover)", async () => {
    const { actor } = await ownerWithOrganization();
    await buy(actor, "1000.00");
    const { coverage, policyId, email } = await buy(actor, "300.00");
    const claim = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId, type: "theft", description: "Phone stolen", amount: 50, email }),
    );
    expect(claim.coverageId).toBe(coverage.id);
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
    expect((await getCancellationQuote(actor, coverage.id)).rule).toBe("cooling_off"); // under review: not yet
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved" }));
    expect((await getCancellationQuote(actor, coverage.id)).rule).toBe("claim_on_cover");
    const done = await cancelCoverage(actor, coverage.id, cancel());
    expect(done.refund).toBeNull();
  });

  it("a refund the balance cannot cover → 409 insufficient_funds, nothing changed; with refund none it cancels", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { coverage } = await buy(actor, "300.00"); // the balance is 295.50 after the fee: less than the premium
    const refused = await refusal(cancelCoverage(actor, coverage.id, cancel()));
    expect([refused.status, refused.code]).toEqual([409, "insufficient_funds"]);
    expect((await db.coverage.findUniqueOrThrow({ where: { id: coverage.id } })).cancelledAt).toBeNull();
    expect(await db.refund.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await db.event.count({ where: { organizationId: org.id, type: "coverage.cancelled" } })).toBe(0);

    const done = await cancelCoverage(actor, coverage.id, cancel("Customer asked", "none"));
    expect([done.status, done.refund]).toEqual(["cancelled", null]);
  });

  it("two concurrent cancellations: one wins, one refund", async () => {
    const { actor, org } = await ownerWithOrganization();
    await buy(actor, "1000.00");
    const { coverage } = await buy(actor, "300.00");
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => cancelCoverage(actor, coverage.id, cancel())));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("invalid_state");
    expect(await db.refund.count({ where: { organizationId: org.id } })).toBe(1);
    expect((await checkLedger(org.id)).problems).toEqual([]);
  });

  it("only an owner or admin cancels; another organization's coverage is not found", async () => {
    const { actor } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    await buy(actor, "1000.00");
    const { coverage } = await buy(actor, "300.00");
    expect((await refusal(cancelCoverage({ ...actor, role: "MEMBER" }, coverage.id, cancel()))).status).toBe(403);
    expect((await refusal(cancelCoverage(other.actor, coverage.id, cancel()))).status).toBe(404);
    expect((await refusal(getCancellationQuote(other.actor, coverage.id))).status).toBe(404);
    expect((await db.coverage.findUniqueOrThrow({ where: { id: coverage.id } })).cancelledAt).toBeNull();
  });

  it("the policyholder: quoted and cancelled on their own cover only; a cancelled cover cannot be renewed (409 coverage_cancelled)", async () => {
    const { actor, org } = await ownerWithOrganization();
    await buy(actor, "1000.00");
    const { coverage, email } = await buy(actor, "300.00");
    const other = await buy(actor, "300.00");
    const session = { id: `ps_${unique()}`, organizationId: org.id, email };
    expect((await refusal(portalCancellationQuote(session, other.coverage.id))).status).toBe(404);
    expect((await refusal(portalCancelCoverage(session, other.coverage.id, { reason: "Not mine" }))).status).toBe(404);
    expect((await portalCancellationQuote(session, coverage.id)).refundAmount).toBe("300.00");
    const done = await portalCancelCoverage(session, coverage.id, { reason: "Moving abroad" });
    expect([done.status, done.refund?.amount]).toEqual(["cancelled", "300.00"]);
    const renewal = await refusal(renewCoverage(session, coverage.id));
    expect([renewal.status, renewal.code]).toEqual([409, "coverage_cancelled"]);
    expect((await db.coverage.findUniqueOrThrow({ where: { id: other.coverage.id } })).cancelledAt).toBeNull();
  });

  it("a later purchase of the same policy by the same email starts a new period: policy.purchased, not renewed", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { coverage, policyId, email } = await buy(actor, "300.00");
    await cancelCoverage(actor, coverage.id, cancel("Changed my mind", "none"));
    const again = await buy(actor, "300.00", policyId, email);
    expect(again.coverage.id).toBe(coverage.id);
    expect([again.coverage.cancelledAt, again.coverage.renewalCount]).toEqual([null, 0]);
    expect(again.coverage.periodStartsAt.getTime()).toBeGreaterThan(coverage.periodStartsAt.getTime());
    expect(again.coverage.remindAt).not.toBeNull();
    const kinds = await db.event.findMany({
      where: { organizationId: org.id, type: { in: ["policy.purchased", "policy.renewed"] } },
      select: { type: true },
    });
    expect(kinds.map((k) => k.type)).toEqual(["policy.purchased", "policy.purchased"]);
    // A renewal (the next payment) extends it from its end as usual.
    const renewed = await buy(actor, "300.00", policyId, email);
    expect(renewed.coverage.renewalCount).toBe(1);
    expect(renewed.coverage.periodStartsAt.toISOString()).toBe(again.coverage.endsAt.toISOString());
  });
});
