// Money in, for tests of money out: real payments settled through the sandbox
// checkout, KYB approved by a platform admin, bank accounts added and verified
// through their services.
import type { Actor } from "@/server/actor";
import { AddBankAccountInput } from "@/lib/schemas/bank-accounts";
import { addBankAccount, verifyBankAccount } from "@/server/bank-accounts/service";
import { db } from "@/server/db/client";
import { decideKyb, submitKyb } from "@/server/kyb/service";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { runDuePayouts } from "@/server/payouts/job";
import { SANDBOX_VERIFICATION_CODE } from "@/server/payouts/sandbox";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { createUser, unique } from "./fixtures";
import { kybUploads } from "./uploads";

/** The sandbox's card that succeeds, valid for two more years. */
export const card = () =>
  CheckoutInput.parse({ cardNumber: SANDBOX_CARDS.success, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" });

/** Settles one successful payment of `price` ("100.00") to the organization; returns its reference. */
export async function receivePayment(actor: Actor, price: string): Promise<string> {
  const policy = await createPolicy(
    actor,
    CreatePolicyInput.parse({ name: `Cover ${unique()}`, type: "property", duration: "yearly", price }),
  );
  const payment = await initializePayment(
    actor,
    InitializePaymentInput.parse({ amount: Number(price), policyId: policy.id, email: `c${unique()}@example.test` }),
  );
  await payWithCard(payment.reference, card());
  return payment.reference;
}

export async function approveKyb(actor: Actor): Promise<void> {
  await submitKyb(actor, kybUploads());
  const reviewer = await createUser("Platform Reviewer");
  await db.user.update({ where: { id: reviewer.id }, data: { platformAdmin: true } });
  await decideKyb(reviewer.id, actor.organizationId, { status: "approved" });
}

/** A bank account of the organization, verified unless `verified` is false. */
export async function bankAccount(actor: Actor, { verified = true, bankName = "Access Bank" } = {}) {
  const accountNumber = String(Math.floor(Math.random() * 1e10)).padStart(10, "0");
  const added = await addBankAccount(
    actor,
    AddBankAccountInput.parse({ bankName, accountNumber, accountName: "Test Stores Ltd" }),
  );
  return verified ? verifyBankAccount(actor, added.id, { verificationCode: SANDBOX_VERIFICATION_CODE }) : added;
}

/**
 * Runs the payout job until no withdrawal is due: files that ran earlier in this worker (one database per
 * worker) may have left due withdrawals, and a pass claims one batch, so a test's own row might wait.
 */
export async function drainDuePayouts(): Promise<void> {
  for (let pass = 0; pass < 100 && (await runDuePayouts()) > 0; pass++);
}
