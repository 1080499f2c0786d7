// The one loss ratio (SPEC §10): approved and paid claims — the approved
// amount where set — ÷ (premium − refunds), over one range, for the
// organization or one policy; the home and a policy's page give the same.
import { beforeAll, describe, expect, it } from "vitest";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { RefundPaymentInput } from "@/lib/schemas/refunds";
import { submitClaim, updateClaimStatus } from "@/server/claims/service";
import { formatMinor } from "@/lib/money";
import { connectDatabase, db } from "@/server/db/client";
import { availableBalance } from "@/server/ledger/balance";
import { getPolicyAnalytics } from "@/server/policies/analytics";
import { refundPayment } from "@/server/refunds/service";
import { ownerWithOrganization } from "@/test/fixtures";
import { receivePayment } from "@/test/money";
import type { Actor } from "@/server/actor";
import { lossRatio } from "./loss-ratio";
import { getDashboardStats, resolveRange } from "./service";

beforeAll(connectDatabase);

async function claim(actor: Actor, policyId: string, amount: number, moves: Record<string, unknown>[]) {
  const c = await submitClaim(actor, CreateClaimInput.parse({ policyId, type: "fire", description: "Smoke", amount }));
  for (const m of moves) await updateClaimStatus(actor, c.id, UpdateClaimStatusInput.parse(m));
  return c;
}

describe("lossRatio", () => {
  it("approved (at the approved amount) and paid claims ÷ (premium − refunds); the home and the policy page agree", async () => {
    const { actor, org } = await ownerWithOrganization();
    const first = await receivePayment(actor, "100.00");
    await receivePayment(actor, "100.00");
    const payment = await db.payment.findUniqueOrThrow({ where: { reference: first } });
    const other = await db.payment.findFirstOrThrow({ where: { organizationId: org.id, NOT: { reference: first } } });
    await refundPayment(actor, first, RefundPaymentInput.parse({ amount: 50 }));

    const review = { status: "under_review" };
    await claim(actor, payment.policyId, 40, [review, { status: "approved", approvedAmount: 30 }]);
    await claim(actor, payment.policyId, 20, [review, { status: "approved" }, { status: "paid", settledOutside: true, note: "Cash" }]);
    await claim(actor, payment.policyId, 100, [review, { status: "rejected" }]);
    await claim(actor, other.policyId, 10, []);

    // (30 + 20) ÷ (200 − 50)
    const range = resolveRange({}, new Date());
    expect(await lossRatio({ organizationId: org.id }, range)).toBe(0.3333);
    expect(await lossRatio({ organizationId: org.id }, null)).toBe(0.3333);
    const home = await getDashboardStats(actor, {});
    expect(home.lossRatio).toBe(0.3333);
    // The home's balance counts the refund (the rollups do not: it is summed from the ledger).
    expect(home.availableBalance).toBe(formatMinor(await availableBalance(org.id), "NGN"));
    expect(home.availableBalance).toBe("147.00");
    // The first policy alone: (30 + 20) ÷ (100 − 50); the other: nothing approved.
    expect((await getPolicyAnalytics(actor, payment.policyId)).lossRatio).toBe(1);
    expect((await getPolicyAnalytics(actor, other.policyId)).lossRatio).toBe(0);
    // A range before any of it: no premium, no ratio.
    expect(await lossRatio({ organizationId: org.id }, { start: new Date("2020-01-01"), end: new Date("2020-02-01") })).toBeNull();
  });
});
