// A business's bank accounts for money out: added with a micro-deposit from
// the payout provider, verified by typing back its code (3 tries), one
// default per organization, removed softly (withdrawals keep pointing at it).
// The account number is sealed at rest; only its last 4 digits leave here.
import crypto from "node:crypto";
import type { BankAccount as BankAccountRow } from "@/generated/prisma/client";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { recordEvent } from "@/server/events/record";
import { pageArgs, toPage, type Page, type PageQuery } from "@/server/pagination";
import { liveProviderName } from "@/server/payments/provider";
import { payoutProviderFor } from "@/server/payouts/provider";
import { SANDBOX_VERIFICATION_CODE } from "@/server/payouts/sandbox";
import { seal } from "@/server/seal";
import type { AddBankAccountInput, BankAccount, SandboxHint, VerifyBankAccountInput } from "@/lib/schemas/bank-accounts";
import { lockOrganizationBalance } from "@/server/withdrawals/service";

/** Purpose of the account number's sealing key (payouts unseal it with the same). */
export const ACCOUNT_NUMBER_PURPOSE = "bank-account-number";
export const MAX_VERIFICATION_ATTEMPTS = 3;

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
const accountNumberHash = (organizationId: string, accountNumber: string) => sha256(`${organizationId}:${accountNumber}`);
// Codes are compared as typed, trimmed and case-insensitively: descriptors are upper case.
const codeHash = (code: string) => sha256(code.trim().toUpperCase());
const sameHash = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a, "hex"), Buffer.from(b, "hex")];
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

export const toBankAccount = (row: BankAccountRow): BankAccount => ({
  id: row.id,
  bankName: row.bankName,
  accountName: row.accountName,
  accountNumberLast4: row.accountNumberLast4,
  status: row.status,
  isDefault: row.isDefault,
  createdAt: row.createdAt.toISOString(),
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
});

const live = (organizationId: string) => ({ organizationId, deletedAt: null });

// The per-organization lock withdrawals take too: defaults and removals never race a withdrawal.
const lockOrganization = lockOrganizationBalance;

/** The account's row, locked, still in the organization and not removed; else 404. */
async function lockAccount(tx: Tx, actor: Actor, id: string): Promise<BankAccountRow> {
  await lockOrganization(tx, actor.organizationId);
  const [locked] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM bank_account
    WHERE id = ${id} AND "organizationId" = ${actor.organizationId} AND "deletedAt" IS NULL FOR UPDATE`;
  const row = locked ? await tx.bankAccount.findFirst({ where: { id: locked.id, ...live(actor.organizationId) } }) : null;
  if (!row) throw notFound("Bank account");
  return row;
}

const duplicate = () =>
  new AppError("conflict", "This account number is already one of the organization's bank accounts", {
    errors: [{ path: "accountNumber", message: "This account is already one of your bank accounts" }],
  });

export async function addBankAccount(actor: Actor, input: AddBankAccountInput): Promise<BankAccount> {
  assertCan(actor, "admin");
  const org = await db.organization.findUnique({ where: { id: actor.organizationId }, select: { currency: true } });
  if (!org) throw notFound("Organization");
  const hash = accountNumberHash(actor.organizationId, input.accountNumber);
  // Checked before the provider too, so a duplicate sends no deposit.
  if (await db.bankAccount.count({ where: { ...live(actor.organizationId), accountNumberHash: hash } })) throw duplicate();
  // Outside the transaction: a provider failure writes nothing (and holds no lock while it waits).
  const provider = payoutProviderFor(isLive(actor));
  const deposit = await provider.startVerification({ ...input, currency: org.currency });
  return db.$transaction(async (tx) => {
    await lockOrganization(tx, actor.organizationId);
    if (await tx.bankAccount.count({ where: { ...live(actor.organizationId), accountNumberHash: hash } })) throw duplicate();
    const row = await tx.bankAccount.create({
      data: {
        organizationId: actor.organizationId,
        bankName: input.bankName,
        accountName: input.accountName,
        accountNumberSealed: seal(ACCOUNT_NUMBER_PURPOSE, input.accountNumber),
        accountNumberLast4: input.accountNumber.slice(-4),
        accountNumberHash: hash,
        verificationCodeHash: codeHash(deposit.verificationCode),
        provider: provider.name,
        recipientCode: deposit.recipientCode,
      },
    });
    const account = toBankAccount(row);
    await recordEvent(tx, actor.organizationId, "bank_account.added", account);
    await audit(tx, actor.organizationId, {
      action: "bank_account.added",
      resourceType: "bank_account",
      resourceId: account.id,
      details: { bankName: account.bankName, accountName: account.accountName, accountNumberLast4: account.accountNumberLast4 },
    });
    return account;
  });
}

export async function listBankAccounts(actor: Actor, page: PageQuery): Promise<Page<BankAccount>> {
  assertCan(actor, "read");
  const args = pageArgs(page);
  const rows = await db.bankAccount.findMany({ ...args, where: { ...live(actor.organizationId), ...args.where } });
  return toPage(rows, page, toBankAccount);
}

type VerifyOutcome = { verified: BankAccount } | { attemptsRemaining: number };

export async function verifyBankAccount(actor: Actor, id: string, input: VerifyBankAccountInput): Promise<BankAccount> {
  assertCan(actor, "admin");
  const outcome = await db.$transaction(async (tx): Promise<VerifyOutcome> => {
    const row = await lockAccount(tx, actor, id);
    if (row.status !== "pending_verification") {
      throw new AppError(
        "invalid_state",
        `Only an account pending verification can be verified; this one is ${row.status.replace("_", " ")}`,
      );
    }
    if (sameHash(codeHash(input.verificationCode), row.verificationCodeHash)) {
      // The organization's first verified account becomes where money goes by default.
      const hasDefault = await tx.bankAccount.count({ where: { ...live(actor.organizationId), isDefault: true } });
      const updated = await tx.bankAccount.update({
        where: { id: row.id },
        data: { status: "verified", verifiedAt: new Date(), isDefault: hasDefault === 0 },
      });
      const verified = toBankAccount(updated);
      await recordEvent(tx, actor.organizationId, "bank_account.verified", verified);
      await audit(tx, actor.organizationId, {
        action: "bank_account.verified",
        resourceType: "bank_account",
        resourceId: verified.id,
        details: { bankName: verified.bankName, accountNumberLast4: verified.accountNumberLast4, isDefault: verified.isDefault },
      });
      return { verified };
    }
    const attempts = row.failedAttempts + 1;
    const exhausted = attempts >= MAX_VERIFICATION_ATTEMPTS;
    const updated = await tx.bankAccount.update({
      where: { id: row.id },
      data: { failedAttempts: attempts, ...(exhausted ? { status: "verification_failed" as const } : {}) },
    });
    if (exhausted) await recordEvent(tx, actor.organizationId, "bank_account.verification_failed", toBankAccount(updated));
    return { attemptsRemaining: Math.max(0, MAX_VERIFICATION_ATTEMPTS - attempts) };
  });
  if ("verified" in outcome) return outcome.verified;
  // Thrown after the commit: the failed attempt counts even though the request fails.
  const n = outcome.attemptsRemaining;
  const left = n === 0 ? "no attempts left: remove the account and add it again" : `${n} attempt${n === 1 ? "" : "s"} left`;
  throw new AppError("validation_failed", `verificationCode: is not the code of the verification deposit; ${left}`, {
    errors: [{ path: "verificationCode", message: `is not the code of the verification deposit; ${left}` }],
    attemptsRemaining: n,
  });
}

export async function setDefaultBankAccount(actor: Actor, id: string): Promise<BankAccount> {
  assertCan(actor, "admin");
  return db.$transaction(async (tx) => {
    const row = await lockAccount(tx, actor, id);
    if (row.status !== "verified") {
      throw new AppError("bank_account_not_verified", "Only a verified bank account can be the default");
    }
    if (row.isDefault) return toBankAccount(row);
    await tx.bankAccount.updateMany({
      where: { organizationId: actor.organizationId, isDefault: true, id: { not: row.id } },
      data: { isDefault: false },
    });
    const account = toBankAccount(await tx.bankAccount.update({ where: { id: row.id }, data: { isDefault: true } }));
    await recordEvent(tx, actor.organizationId, "bank_account.default_changed", account);
    await audit(tx, actor.organizationId, {
      action: "bank_account.default_changed",
      resourceType: "bank_account",
      resourceId: account.id,
      details: { bankName: account.bankName, accountNumberLast4: account.accountNumberLast4 },
    });
    return account;
  });
}

export async function removeBankAccount(actor: Actor, id: string): Promise<void> {
  assertCan(actor, "admin");
  await db.$transaction(async (tx) => {
    const row = await lockAccount(tx, actor, id);
    // Under the organization lock withdrawals also take, so none can start meanwhile.
    const inFlight = await tx.withdrawal.count({
      where: { organizationId: actor.organizationId, bankAccountId: row.id, status: { in: ["pending", "processing"] } },
    });
    if (inFlight > 0) {
      throw new AppError(
        "invalid_state",
        "A withdrawal to this account is still pending or processing; remove it once that is done",
      );
    }
    await tx.bankAccount.update({ where: { id: row.id }, data: { deletedAt: new Date(), isDefault: false } });
    // Removing the default promotes the newest other verified account, so money
    // keeps a default destination whenever the organization has one to offer.
    let promoted: BankAccountRow | null = null;
    if (row.isDefault) {
      const next = await tx.bankAccount.findFirst({
        where: { ...live(actor.organizationId), status: "verified" },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      });
      if (next) promoted = await tx.bankAccount.update({ where: { id: next.id }, data: { isDefault: true } });
    }
    await recordEvent(tx, actor.organizationId, "bank_account.removed", { id: row.id, promotedDefaultId: promoted?.id ?? null });
    if (promoted) await recordEvent(tx, actor.organizationId, "bank_account.default_changed", toBankAccount(promoted));
    await audit(tx, actor.organizationId, {
      action: "bank_account.removed",
      resourceType: "bank_account",
      resourceId: row.id,
      details: {
        bankName: row.bankName,
        accountNumberLast4: row.accountNumberLast4,
        wasDefault: row.isDefault,
        promotedDefaultId: promoted?.id ?? null,
      },
    });
  });
}

/** The sandbox's fixed code, for the dashboard to show while no real provider pays out. */
export function sandboxHint(actor: Actor): SandboxHint {
  assertCan(actor, "read");
  const provider = isLive(actor) ? liveProviderName() : "sandbox";
  return { code: provider === "sandbox" ? SANDBOX_VERIFICATION_CODE : null };
}
