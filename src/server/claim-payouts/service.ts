// Claim payouts: an approved claim paid to the claimant's bank account. The
// account's holder is resolved at the bank first (the business sees whom it
// pays); then ONE transaction under the organization's balance lock checks
// the claim, KYB (live mode), that no payout of it is under way or paid, the
// amount against the approved amount and the available balance, and writes
// the payout, its ledger debit and the event. The claim payout job
// (job.ts) sends the transfer; settle.ts makes the claim paid, or puts the
// money back and leaves the claim approved, to be paid again.
import crypto from "node:crypto";
import { optionalMinorOf } from "@/server/money";
import { Prisma, type ClaimPayout as PayoutRow } from "@/generated/prisma/client";
import { formatMinor } from "@/lib/money";
import type {
  BankList,
  ClaimantAccount,
  ClaimantAccountInput,
  ClaimPayout,
  ClaimPayoutList,
  PayClaimInput,
  ResolveAccountQuery,
  ResolvedAccount,
} from "@/lib/schemas/claim-payouts";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db } from "@/server/db/client";
import { currencyOf } from "@/server/earnings/service";
import { env } from "@/server/env";
import { AppError, notFound, validationError } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { assertKybApproved } from "@/server/kyb/service";
import { assertBalanceCovers, LOCKED_TX, lockOrganizationBalance } from "@/server/ledger/balance";
import { payoutProviderFor } from "@/server/payouts/provider";
import { seal, unseal } from "@/server/seal";

/** Sealed account numbers of claim payouts, apart from bank accounts'. */
export const CLAIM_PAYOUT_SEAL = "claim-payout-account";

export const toClaimPayout = (row: PayoutRow): ClaimPayout => ({
  id: row.id,
  claimId: row.claimId,
  amount: formatMinor(row.amountMinor, row.currency),
  currency: row.currency,
  status: row.status,
  bankName: row.bankName,
  accountName: row.accountName,
  accountNumberLast4: row.accountNumberLast4,
  failureReason: row.failureReason,
  createdAt: row.createdAt.toISOString(),
  paidAt: row.paidAt?.toISOString() ?? null,
});

// Paystack accepts lowercase letters, digits, - and _ in a transfer reference.
const newPayoutReference = () => `cp_${crypto.randomBytes(16).toString("hex")}`;

const ACTIVE: PayoutRow["status"][] = ["pending", "processing", "paid"];

const payoutExists = () =>
  new AppError("payout_exists", "This claim has a payout under way or paid already; a failed one can be paid again");

/** The claim's state comes first (409), before KYB, an active payout and the amount. */
function assertApproved(claim: { status: string }) {
  if (claim.status !== "approved") {
    throw new AppError("invalid_state", `Only an approved claim can be paid; this one is ${claim.status.replace("_", " ")}`);
  }
}

const overApproved = (approved: bigint, currency: string) =>
  validationError([{ path: "amount", message: `Pay at most the approved amount, ${formatMinor(approved, currency)}` }]);

type PayoutProvider = ReturnType<typeof payoutProviderFor>;

/** A bank of the provider's list for the currency, by code: 422 on `path` when it is not one. */
async function bankOf(provider: PayoutProvider, currency: string, code: string, path: string) {
  const bank = (await provider.banks(currency)).find((b) => b.code === code);
  if (!bank) throw validationError([{ path, message: "Choose a bank from the list: this bank code is not known" }]);
  return bank;
}

/**
 * Where the money goes: the account given with the request (its name asked of
 * the bank), or else the one the policyholder gave in the portal (named when
 * they gave it). Neither → 422.
 */
async function payeeOf(
  claim: {
    currency: string;
    payoutBankCode: string | null;
    payoutBankName: string | null;
    payoutAccountName: string | null;
    payoutAccountSealed: string | null;
  },
  input: PayClaimInput,
  provider: PayoutProvider,
): Promise<{ bank: { code: string; name: string }; accountName: string; accountNumber: string }> {
  if (input.accountNumber !== undefined && input.bankCode !== undefined) {
    const bank = await bankOf(provider, claim.currency, input.bankCode, "bankCode");
    return {
      bank,
      accountName: await provider.resolveAccount(input.accountNumber, input.bankCode),
      accountNumber: input.accountNumber,
    };
  }
  if (!claim.payoutBankCode || !claim.payoutAccountSealed) {
    throw validationError([
      { path: "accountNumber", message: "Enter the claimant's account: the policyholder has not given one in the portal" },
    ]);
  }
  return {
    bank: { code: claim.payoutBankCode, name: claim.payoutBankName ?? claim.payoutBankCode },
    accountName: claim.payoutAccountName ?? "",
    accountNumber: unseal(CLAIM_PAYOUT_SEAL, claim.payoutAccountSealed),
  };
}

/**
 * The policyholder names the account to be paid to, for one of their approved
 * claims (the portal): the bank is one of the provider's, the account's name is
 * asked of the bank, the number is stored sealed. While a payout is under way
 * or paid it cannot change (409 `payout_exists`).
 */
export async function setClaimantAccount(
  organizationId: string,
  claimId: string,
  input: ClaimantAccountInput,
  customerEmail: string,
): Promise<ClaimantAccount> {
  const claim = await db.claim.findFirst({
    where: { id: claimId, organizationId, customerEmail },
    select: { id: true, status: true, currency: true, organization: { select: { livemode: true } } },
  });
  if (!claim) throw notFound("Claim");
  if (claim.status !== "approved") {
    throw new AppError("invalid_state", "A payout account can be given once the claim is approved, and until it is paid");
  }
  if ((await db.claimPayout.count({ where: { claimId: claim.id, status: { in: ACTIVE } } })) > 0) throw payoutExists();
  const provider = payoutProviderFor(claim.organization.livemode);
  const bank = await bankOf(provider, claim.currency, input.bankCode, "bankCode");
  const accountName = await provider.resolveAccount(input.accountNumber, input.bankCode);
  const now = new Date();
  // Only while it is still approved with no payout under way: a payout that started meanwhile keeps its account.
  const row = await db.$transaction(async (tx) => {
    const [updated] = await tx.$queryRaw<{ id: string }[]>`
      UPDATE claim SET "payoutBankCode" = ${bank.code}, "payoutBankName" = ${bank.name}, "payoutAccountName" = ${accountName},
        "payoutAccountSealed" = ${seal(CLAIM_PAYOUT_SEAL, input.accountNumber)}, "payoutAccountLast4" = ${input.accountNumber.slice(-4)},
        "payoutAccountAt" = ${now}, "updatedAt" = ${now}
      WHERE id = ${claim.id} AND status = 'approved'
        AND NOT EXISTS (SELECT 1 FROM claim_payout p WHERE p."claimId" = ${claim.id} AND p.status IN ('pending', 'processing', 'paid'))
      RETURNING id`;
    if (updated)
      await audit(tx, organizationId, {
        action: "claim.payout_account_set",
        resourceType: "claim",
        resourceId: claim.id,
        details: { bankName: bank.name, accountName, accountNumberLast4: input.accountNumber.slice(-4) },
      });
    return updated;
  });
  if (!row) throw payoutExists();
  return {
    bankCode: bank.code,
    bankName: bank.name,
    accountName,
    accountNumberLast4: input.accountNumber.slice(-4),
    givenAt: now.toISOString(),
  };
}

export async function payClaim(actor: Actor, claimId: string, input: PayClaimInput): Promise<ClaimPayout> {
  assertCan(actor, "admin");
  const orgId = actor.organizationId;
  const claim = await db.claim.findFirst({ where: { id: claimId, organizationId: orgId } });
  if (!claim) throw notFound("Claim");
  const live = isLive(actor);
  const provider = payoutProviderFor(live);

  // Early answers, in the SPEC's order, before the bank is asked (checked again under the lock).
  assertApproved(claim);
  if (live) await assertKybApproved(orgId);
  if ((await db.claimPayout.count({ where: { claimId, status: { in: ACTIVE } } })) > 0) throw payoutExists();
  const amount = optionalMinorOf(input.amount, claim.currency, "amount") ?? claim.approvedAmountMinor ?? 0n;
  if (amount > (claim.approvedAmountMinor ?? 0n)) throw overApproved(claim.approvedAmountMinor ?? 0n, claim.currency);

  const { bank, accountName, accountNumber } = await payeeOf(claim, input, provider);

  try {
    return await db.$transaction(async (tx) => {
      await lockOrganizationBalance(tx, orgId);
      const [fresh] = await tx.$queryRaw<{ status: string; approvedAmountMinor: bigint | null }[]>`
        SELECT status::text AS status, "approvedAmountMinor" FROM claim WHERE id = ${claim.id} FOR UPDATE`;
      assertApproved(fresh!);
      if (live) await assertKybApproved(orgId, tx);
      if ((await tx.claimPayout.count({ where: { claimId, status: { in: ACTIVE } } })) > 0) throw payoutExists();
      const approved = fresh!.approvedAmountMinor ?? 0n;
      if (amount > approved) throw overApproved(approved, claim.currency);
      await assertBalanceCovers(tx, orgId, amount, claim.currency);

      const now = new Date();
      const reference = newPayoutReference();
      const row = await tx.claimPayout.create({
        data: {
          organizationId: orgId,
          claimId,
          amountMinor: amount,
          currency: claim.currency,
          bankCode: bank.code,
          bankName: bank.name,
          accountName,
          accountNumberSealed: seal(CLAIM_PAYOUT_SEAL, accountNumber),
          accountNumberLast4: accountNumber.slice(-4),
          provider: provider.name,
          reference,
          createdAt: now,
          // The sandbox pays after a delay (so "pending" can be seen), a real provider's job at once.
          runAt: new Date(now.getTime() + (provider.name === "sandbox" ? env.PAYOUT_DELAY_SECONDS * 1000 : 0)),
        },
      });
      await tx.ledgerTransaction.create({
        data: {
          organizationId: orgId,
          type: "claim_payout",
          amountMinor: -amount,
          currency: claim.currency,
          reference,
          policyId: claim.policyId,
          description: `Claim payout to ${accountName}, ${bank.name} ••••${row.accountNumberLast4}`,
          createdAt: now,
        },
      });
      const payout = toClaimPayout(row);
      await recordEvent(tx, orgId, "claim_payout.requested", payout, claimId);
      await audit(tx, orgId, {
        action: "claim_payout.requested",
        resourceType: "claim_payout",
        resourceId: payout.id,
        details: {
          claimId,
          amount: formatMinor(amount, claim.currency),
          currency: claim.currency,
          bankName: bank.name,
          accountName,
          accountNumberLast4: row.accountNumberLast4,
        },
      });
      return payout;
    }, LOCKED_TX);
  } catch (err) {
    // Two payouts of one claim at once: the partial unique index lets one through.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw payoutExists();
    throw err;
  }
}

export async function listClaimPayouts(actor: Actor, claimId: string): Promise<ClaimPayoutList> {
  assertCan(actor, "read");
  const claim = await db.claim.findFirst({ where: { id: claimId, organizationId: actor.organizationId }, select: { id: true } });
  if (!claim) throw notFound("Claim");
  const rows = await db.claimPayout.findMany({ where: { claimId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 100 });
  return { data: rows.map(toClaimPayout) };
}

/** The banks a payout can go to, from the payout provider of the actor's mode. */
export async function listBanks(actor: Actor): Promise<BankList> {
  assertCan(actor, "read");
  return { data: await payoutProviderFor(isLive(actor)).banks(await currencyOf(actor.organizationId)) };
}

/** The account holder's name at the bank (422 when the bank or the account is unknown). */
export async function resolveBankAccount(actor: Actor, input: ResolveAccountQuery): Promise<ResolvedAccount> {
  assertCan(actor, "read");
  const accountName = await payoutProviderFor(isLive(actor)).resolveAccount(input.accountNumber, input.bankCode);
  return { accountNumber: input.accountNumber, bankCode: input.bankCode, accountName };
}
