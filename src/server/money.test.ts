// Amounts in each currency's own minor unit (ISO 4217): none for JPY, 3 for
// KWD, 2 for NGN — from the request through the ledger to the display and to
// Paystack.
import { describe, expect, it } from "vitest";
import { displayMoney, formatMinor, minorDigits, parseDecimal, parseGiven } from "@/lib/money-format";
import { CreateClaimInput, UpdateClaimStatusInput } from "@/lib/schemas/claims";
import { CreatePolicyInput, UpdatePolicyInput } from "@/lib/schemas/policies";
import { InitializePaymentInput } from "@/lib/schemas/payments";
import { RefundPaymentInput } from "@/lib/schemas/refunds";
import { submitClaim, updateClaimStatus } from "@/server/claims/service";
import { db } from "@/server/db/client";
import { availableBalance } from "@/server/ledger/balance";
import { payWithCard } from "@/server/payments/checkout";
import { fromPaystackAmount, toPaystackAmount } from "@/server/payments/paystack-amount";
import { initializePayment } from "@/server/payments/service";
import { updateOrganization } from "@/server/organizations/service";
import { createPolicy, updatePolicy } from "@/server/policies/service";
import { refundPayment } from "@/server/refunds/service";
import { ownerWithOrganization, refusal } from "@/test/fixtures";
import { card } from "@/test/money";

async function businessIn(currency: string) {
  const owner = await ownerWithOrganization();
  await db.organization.update({ where: { id: owner.org.id }, data: { currency } });
  return owner;
}

const policyInput = (price: string) => CreatePolicyInput.parse({ name: "Cover", type: "property", duration: "yearly", price });

describe("parsing and formatting", () => {
  it("knows each currency's decimals, and formats and parses by them", () => {
    expect([minorDigits("NGN"), minorDigits("JPY"), minorDigits("XOF"), minorDigits("KWD"), minorDigits("usd")]).toEqual([
      2, 0, 0, 3, 2,
    ]);
    expect([formatMinor(15050n, "NGN"), formatMinor(1000n, "JPY"), formatMinor(1500n, "KWD"), formatMinor(-5n, "KWD")]).toEqual([
      "150.50",
      "1000",
      "1.500",
      "-0.005",
    ]);
    expect([parseDecimal("1000", "JPY"), parseDecimal("1000.00", "JPY"), parseDecimal("1000.5", "JPY")]).toEqual([
      1000n,
      1000n,
      null,
    ]);
    expect([parseDecimal("1.234", "KWD"), parseDecimal("1.2345", "KWD"), parseDecimal("1.5", "NGN")]).toEqual([
      1234n,
      null,
      150n,
    ]);
    expect(parseGiven("1.23456")).toBeNull();
    // (Intl puts a no-break space between a code and the amount.)
    const shown = [displayMoney("1000", "JPY"), displayMoney("1.500", "KWD"), displayMoney("40000.00", "NGN")];
    expect(shown.map((s) => s.replace(/\s/g, " "))).toEqual(["JP¥1,000", "KWD 1.500", "₦40,000.00"]);
  });

  it("Paystack counts in hundredths of every currency it serves", () => {
    expect([toPaystackAmount(15050n, "NGN"), toPaystackAmount(1000n, "XOF")]).toEqual([15050, 100000]);
    expect([fromPaystackAmount("15050", "NGN"), fromPaystackAmount(100000, "XOF"), fromPaystackAmount("100050", "XOF")]).toEqual([
      15050n,
      1000n,
      null,
    ]);
    expect(fromPaystackAmount("1e5", "NGN")).toBeNull();
  });
});

describe("a business in yen", () => {
  it("sells a ¥1,000 policy as 1000 minor units, charges and credits 1000, and refuses fractions of a yen", async () => {
    const { actor, org } = await businessIn("JPY");
    const policy = await createPolicy(actor, policyInput("1000"));
    expect(policy).toMatchObject({ price: "1000", currency: "JPY" });
    expect((await db.policy.findUniqueOrThrow({ where: { id: policy.id } })).priceMinor).toBe(1000n);

    const fraction = await refusal(createPolicy(actor, policyInput("1000.5")));
    expect([fraction.code, fraction.extra]).toEqual([
      "validation_failed",
      { errors: [{ path: "price", message: "JPY amounts are whole numbers, like 1500" }] },
    ]);
    expect(await db.policy.count({ where: { organizationId: org.id } })).toBe(1);
    const update = await refusal(updatePolicy(actor, policy.id, UpdatePolicyInput.parse({ price: "999.9" })));
    expect(update.code).toBe("validation_failed");
    expect((await db.policy.findUniqueOrThrow({ where: { id: policy.id } })).priceMinor).toBe(1000n);

    const payment = await initializePayment(
      actor,
      InitializePaymentInput.parse({ amount: 1000, policyId: policy.id, email: "yen@example.test" }),
    );
    expect(payment).toMatchObject({ amount: "1000", currency: "JPY" });
    await payWithCard(payment.reference, card());
    // 1.5% of ¥1,000 is ¥15: the fee is in whole yen too.
    const entries = await db.ledgerTransaction.findMany({ where: { organizationId: org.id }, orderBy: { amountMinor: "desc" } });
    expect(entries.map((e) => [e.type, e.amountMinor])).toEqual([
      ["payment", 1000n],
      ["fee", -15n],
    ]);
    expect(await availableBalance(org.id)).toBe(985n);

    const refund = await refundPayment(actor, payment.reference, RefundPaymentInput.parse({ amount: 100 }));
    expect(refund).toMatchObject({ amount: "100", currency: "JPY" });
    const half = await refusal(refundPayment(actor, payment.reference, RefundPaymentInput.parse({ amount: 0.5 })));
    expect(half.code).toBe("validation_failed");
    expect(await availableBalance(org.id)).toBe(885n);

    const claim = await submitClaim(
      actor,
      CreateClaimInput.parse({ policyId: policy.id, type: "fire", description: "Kitchen", amount: 800 }),
    );
    expect(claim).toMatchObject({ amount: "800", currency: "JPY" });
    await updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "under_review" }));
    const overClaimed = await refusal(
      updateClaimStatus(actor, claim.id, UpdateClaimStatusInput.parse({ status: "approved", approvedAmount: 750.5 })),
    );
    expect(overClaimed.extra).toEqual({
      errors: [{ path: "approvedAmount", message: "JPY amounts are whole numbers, like 1500" }],
    });
    const approved = await updateClaimStatus(
      actor,
      claim.id,
      UpdateClaimStatusInput.parse({ status: "approved", approvedAmount: 750 }),
    );
    expect(approved.approvedAmount).toBe("750");
  });
});

describe("a business in Kuwaiti dinar", () => {
  it("takes three decimals (fils), and no more", async () => {
    const { actor } = await businessIn("KWD");
    const policy = await createPolicy(actor, policyInput("12.345"));
    expect(policy).toMatchObject({ price: "12.345", currency: "KWD" });
    expect((await db.policy.findUniqueOrThrow({ where: { id: policy.id } })).priceMinor).toBe(12_345n);
    const tooFine = await refusal(createPolicy(actor, policyInput("12.3456")));
    expect(tooFine.code).toBe("validation_failed");
  });

  it("a naira business still refuses a third decimal, with a message naming its currency", async () => {
    const { actor } = await businessIn("NGN");
    const kobo = await refusal(createPolicy(actor, policyInput("150.005")));
    expect(kobo.extra).toEqual({ errors: [{ path: "price", message: "NGN amounts have at most 2 decimals, like 150.50" }] });
  });
});

describe("a currency change before any sale", () => {
  it("keeps each price's number in the new currency's minor unit", async () => {
    const { actor } = await businessIn("NGN");
    const policy = await createPolicy(actor, policyInput("20.50"));
    const priceOf = async () => db.policy.findUniqueOrThrow({ where: { id: policy.id } });
    await updateOrganization(actor, { currency: "JPY" });
    // ¥20.50 cannot be: rounded half up to whole yen.
    expect(await priceOf()).toMatchObject({ currency: "JPY", priceMinor: 21n });
    await updateOrganization(actor, { currency: "KWD" });
    expect(await priceOf()).toMatchObject({ currency: "KWD", priceMinor: 21_000n });
    await updateOrganization(actor, { currency: "USD" });
    expect(await priceOf()).toMatchObject({ currency: "USD", priceMinor: 2_100n });
  });
});
