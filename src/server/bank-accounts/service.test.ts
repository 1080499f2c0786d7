// Bank accounts against the real database with the sandbox payout provider
// (its micro-deposit code is always SM11AA). The Paystack path is in
// src/server/payouts/paystack-recipient.test.ts.
import crypto from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { connectDatabase, db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { problemBody } from "@/server/rest/problem";
import { unseal } from "@/server/seal";
import type { Context } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { addMember, ownerWithOrganization, signedInUser, unique } from "@/test/fixtures";
import { AddBankAccountInput, BankAccount, VerifyBankAccountInput } from "@/lib/schemas/bank-accounts";
import {
  ACCOUNT_NUMBER_PURPOSE,
  addBankAccount,
  listBankAccounts,
  removeBankAccount,
  sandboxHint,
  setDefaultBankAccount,
  verifyBankAccount,
} from "./service";

beforeAll(connectDatabase);

const RIGHT = "SM11AA";
const newNumber = () => String(crypto.randomInt(1_000_000_000, 9_999_999_999));
const add = (actor: Actor, accountNumber = newNumber(), bankName = "Access Bank") =>
  addBankAccount(actor, AddBankAccountInput.parse({ bankName, accountNumber, accountName: "Ada Stores Ltd" }));
const verify = (actor: Actor, id: string, verificationCode: string) =>
  verifyBankAccount(actor, id, VerifyBankAccountInput.parse({ verificationCode }));
const addVerified = async (actor: Actor) => verify(actor, (await add(actor)).id, RIGHT);
const all = async (actor: Actor) => (await listBankAccounts(actor, { limit: 100 })).data;
const rowOf = (id: string) => db.bankAccount.findUniqueOrThrow({ where: { id } });

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}
const eventsOf = (organizationId: string, type: string) =>
  db.event.findMany({ where: { organizationId, type }, orderBy: { createdAt: "asc" } });

describe("adding a bank account", () => {
  it("is pending verification, shows only the last 4 digits, stores the number sealed, and records bank_account.added", async () => {
    const { actor, org } = await ownerWithOrganization();
    const number = "0123456789";
    const account = await add(actor, number);
    expect(BankAccount.strict().parse(account)).toEqual({
      id: expect.any(String),
      bankName: "Access Bank",
      accountName: "Ada Stores Ltd",
      accountNumberLast4: "6789",
      status: "pending_verification",
      isDefault: false,
      createdAt: expect.any(String),
      verifiedAt: null,
    });
    const row = await rowOf(account.id);
    expect(row.accountNumberSealed).not.toContain(number);
    expect(unseal(ACCOUNT_NUMBER_PURPOSE, row.accountNumberSealed)).toBe(number);
    expect(row.accountNumberHash).toBe(crypto.createHash("sha256").update(`${org.id}:${number}`).digest("hex"));
    expect(row.verificationCodeHash).toBe(crypto.createHash("sha256").update(RIGHT).digest("hex"));
    expect(row).toMatchObject({ provider: "sandbox", recipientCode: null, failedAttempts: 0 });
    const events = await eventsOf(org.id, "bank_account.added");
    expect(events.map((e) => e.data)).toEqual([account]);
  });

  it("accepts exactly 10 digits (a NUBAN) and nothing else", () => {
    const base = { bankName: "Access Bank", accountName: "Ada" };
    for (const accountNumber of ["012345678", "01234567890", "01234567a9", " 0123456789", "", 123456789]) {
      const parsed = AddBankAccountInput.safeParse({ ...base, accountNumber });
      expect(parsed.success, String(accountNumber)).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(["accountNumber"]);
    }
    expect(AddBankAccountInput.safeParse({ ...base, accountNumber: "0000000000" }).success).toBe(true);
    expect(AddBankAccountInput.safeParse({ ...base, accountNumber: "0123456789", extra: 1 }).success).toBe(false);
    expect(AddBankAccountInput.safeParse({ accountNumber: "0123456789", bankName: " ", accountName: "A" }).success).toBe(false);
  });

  it("refuses the same account number twice in one organization (409 conflict), not in another, nor after removal", async () => {
    const { actor, org } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    const number = newNumber();
    const first = await add(actor, number);
    const err = await failure(add(actor, number, "Another Bank"));
    expect(err.code).toBe("conflict");
    expect(err.status).toBe(409);
    expect(err.extra.errors).toEqual([{ path: "accountNumber", message: expect.any(String) }]);
    expect(await db.bankAccount.count({ where: { organizationId: org.id } })).toBe(1);
    expect((await add(other.actor, number)).accountNumberLast4).toBe(number.slice(-4));
    await removeBankAccount(actor, first.id);
    expect((await add(actor, number)).status).toBe("pending_verification");
  });

  it("lists newest first, paginated, without removed accounts or other organizations' accounts", async () => {
    const { actor } = await ownerWithOrganization();
    const other = await ownerWithOrganization();
    await add(other.actor);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await add(actor));
    await removeBankAccount(actor, made[1]!.id);
    const page1 = await listBankAccounts(actor, { limit: 1 });
    expect(page1.data.map((a) => a.id)).toEqual([made[2]!.id]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await listBankAccounts(actor, { limit: 1, cursor: page1.nextCursor! });
    expect(page2.data.map((a) => a.id)).toEqual([made[0]!.id]);
    expect(page2.nextCursor).toBeNull();
  });

  it("never shows the account number in any answer or event", async () => {
    const { actor, org } = await ownerWithOrganization();
    const number = "9081726354";
    const a = await add(actor, number);
    const outputs: unknown[] = [a, await verify(actor, a.id, RIGHT), await all(actor), await setDefaultBankAccount(actor, a.id)];
    const b = await add(actor);
    await failure(verify(actor, b.id, "WRONG1"));
    await removeBankAccount(actor, a.id);
    outputs.push(await all(actor), await db.event.findMany({ where: { organizationId: org.id } }));
    for (const out of outputs) expect(JSON.stringify(out)).not.toContain(number);
  });
});

describe("verifying", () => {
  it("the right code verifies; the organization's first verified account becomes the default, later ones do not", async () => {
    const { actor, org } = await ownerWithOrganization();
    const [a, b] = [await add(actor), await add(actor)];
    const before = Date.now();
    const va = await verify(actor, a.id, RIGHT);
    expect(va).toMatchObject({ id: a.id, status: "verified", isDefault: true });
    expect(Date.parse(va.verifiedAt!)).toBeGreaterThanOrEqual(before - 1000);
    // Typed in lower case with spaces around: descriptors are upper case.
    const vb = await verify(actor, b.id, "  sm11aa ");
    expect(vb).toMatchObject({ id: b.id, status: "verified", isDefault: false });
    expect((await eventsOf(org.id, "bank_account.verified")).map((e) => e.data)).toEqual([va, vb]);
  });

  it("three wrong codes answer attemptsRemaining 2, 1, 0, the third fails the account, and then any verify is 409", async () => {
    const { actor, org } = await ownerWithOrganization();
    const a = await add(actor);
    for (const [i, remaining] of [2, 1, 0].entries()) {
      const err = await failure(verify(actor, a.id, `WRONG${i}`));
      expect(err.code).toBe("validation_failed");
      expect(err.status).toBe(422);
      expect(err.extra.attemptsRemaining).toBe(remaining);
      expect(err.extra.errors).toEqual([{ path: "verificationCode", message: expect.stringMatching(/^is not the code/) }]);
      expect((await rowOf(a.id)).failedAttempts).toBe(i + 1);
      // REST: attemptsRemaining at the top level of the problem.
      const body = JSON.parse(problemBody(err, "req_test")) as Record<string, unknown>;
      expect(body).toMatchObject({ status: 422, code: "validation_failed", attemptsRemaining: remaining });
      expect(body.errors).toEqual(err.extra.errors);
    }
    expect(await rowOf(a.id)).toMatchObject({ status: "verification_failed", isDefault: false, verifiedAt: null });
    expect(await eventsOf(org.id, "bank_account.verification_failed")).toHaveLength(1);
    for (const code of [RIGHT, "WRONG3"]) {
      const err = await failure(verify(actor, a.id, code));
      expect(err.code).toBe("invalid_state");
      expect(err.status).toBe(409);
    }
    expect((await rowOf(a.id)).failedAttempts).toBe(3);
  });

  it("a wrong code after two wrong ones still verifies with the right one while attempts remain", async () => {
    const { actor } = await ownerWithOrganization();
    const a = await add(actor);
    await failure(verify(actor, a.id, "NOPE01"));
    await failure(verify(actor, a.id, "NOPE02"));
    expect(await verify(actor, a.id, RIGHT)).toMatchObject({ status: "verified", isDefault: true });
  });

  it("an account that is already verified → 409 invalid_state", async () => {
    const { actor } = await ownerWithOrganization();
    const a = await addVerified(actor);
    const err = await failure(verify(actor, a.id, RIGHT));
    expect(err.code).toBe("invalid_state");
    expect((await failure(verify(actor, a.id, "WRONG1"))).code).toBe("invalid_state");
    expect((await rowOf(a.id)).failedAttempts).toBe(0);
  });

  it("two wrong codes at once count two attempts", async () => {
    const { actor } = await ownerWithOrganization();
    const a = await add(actor);
    const errs = await Promise.all([failure(verify(actor, a.id, "WRONG1")), failure(verify(actor, a.id, "WRONG2"))]);
    expect(errs.map((e) => e.extra.attemptsRemaining).sort()).toEqual([1, 2]);
    expect(await rowOf(a.id)).toMatchObject({ failedAttempts: 2, status: "pending_verification" });
  });

  it("over tRPC a wrong code is UNPROCESSABLE_CONTENT with data.attemptsRemaining", async () => {
    const { user, org, actor } = await ownerWithOrganization();
    const a = await add(actor);
    const signedIn = await signedInUser(user.id);
    const ctx: Context = { headers: new Headers(), user: signedIn as NonNullable<Context["user"]> };
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request("http://app.test/api/trpc/bankAccounts.verify", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ json: { id: a.id, verificationCode: "WRONG1" } }),
      }),
      router: appRouter,
      createContext: () => ctx,
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { json: { data: Record<string, unknown> } } };
    expect(body.error.json.data).toMatchObject({
      code: "validation_failed",
      attemptsRemaining: 2,
      errors: [{ path: "verificationCode", message: expect.any(String) }],
    });
    expect(await db.bankAccount.count({ where: { organizationId: org.id, failedAttempts: 1 } })).toBe(1);
  });
});

describe("the default account", () => {
  it("only a verified account can be the default (409 bank_account_not_verified); one default per organization", async () => {
    const { actor, org } = await ownerWithOrganization();
    const pending = await add(actor);
    const failed = await add(actor);
    for (let i = 0; i < 3; i++) await failure(verify(actor, failed.id, `WRONG${i}`));
    for (const id of [pending.id, failed.id]) {
      const err = await failure(setDefaultBankAccount(actor, id));
      expect(err.code).toBe("bank_account_not_verified");
      expect(err.status).toBe(409);
    }
    const first = await addVerified(actor);
    const second = await addVerified(actor);
    expect(await setDefaultBankAccount(actor, second.id)).toMatchObject({ id: second.id, isDefault: true });
    expect((await all(actor)).filter((a) => a.isDefault).map((a) => a.id)).toEqual([second.id]);
    // Again: no change, still one default.
    expect(await setDefaultBankAccount(actor, second.id)).toMatchObject({ isDefault: true });
    await Promise.all([setDefaultBankAccount(actor, first.id), setDefaultBankAccount(actor, second.id)]);
    expect(await db.bankAccount.count({ where: { organizationId: org.id, isDefault: true } })).toBe(1);
    expect(await eventsOf(org.id, "bank_account.default_changed")).not.toHaveLength(0);
  });
});

describe("removing", () => {
  it("hides the account (soft) and keeps the row", async () => {
    const { actor } = await ownerWithOrganization();
    const a = await add(actor);
    await removeBankAccount(actor, a.id);
    expect(await all(actor)).toEqual([]);
    expect((await rowOf(a.id)).deletedAt).toBeInstanceOf(Date);
    // Gone for every operation.
    // One at a time (thunks): a rejection is never left unawaited.
    for (const call of [
      () => removeBankAccount(actor, a.id),
      () => verify(actor, a.id, RIGHT),
      () => setDefaultBankAccount(actor, a.id),
    ]) {
      expect((await failure(call())).code).toBe("not_found");
    }
  });

  it("removing the default promotes the newest other verified account", async () => {
    const { actor } = await ownerWithOrganization();
    const older = await addVerified(actor); // the default
    const newer = await addVerified(actor);
    await add(actor); // pending: never promoted
    await removeBankAccount(actor, older.id);
    expect((await all(actor)).filter((a) => a.isDefault).map((a) => a.id)).toEqual([newer.id]);
    await removeBankAccount(actor, newer.id);
    expect((await all(actor)).filter((a) => a.isDefault)).toEqual([]);
  });

  it("409 invalid_state while a withdrawal to it is pending or processing; fine once it is paid or failed", async () => {
    const { actor, org } = await ownerWithOrganization();
    const a = await addVerified(actor);
    const w = await db.withdrawal.create({
      data: { organizationId: org.id, bankAccountId: a.id, amountMinor: 100n, currency: "NGN", reference: `wd_${unique()}` },
    });
    for (const status of ["pending", "processing"] as const) {
      await db.withdrawal.update({ where: { id: w.id }, data: { status } });
      const err = await failure(removeBankAccount(actor, a.id));
      expect(err.code).toBe("invalid_state");
      expect(err.status).toBe(409);
      expect(await rowOf(a.id)).toMatchObject({ deletedAt: null, isDefault: true });
    }
    await db.withdrawal.update({ where: { id: w.id }, data: { status: "paid" } });
    await removeBankAccount(actor, a.id);
    expect(await all(actor)).toEqual([]);
  });
});

describe("who may", () => {
  it("another organization's account is 404 not_found for every operation, and the row is unchanged", async () => {
    const a = await ownerWithOrganization();
    const b = await ownerWithOrganization();
    const pending = await add(b.actor);
    const verified = await addVerified(b.actor);
    const before = await Promise.all([rowOf(pending.id), rowOf(verified.id)]);
    for (const call of [
      () => verify(a.actor, pending.id, RIGHT),
      () => verify(a.actor, pending.id, "WRONG1"),
      () => setDefaultBankAccount(a.actor, verified.id),
      () => removeBankAccount(a.actor, verified.id),
      () => removeBankAccount(a.actor, pending.id),
    ]) {
      const err = await failure(call());
      expect(err.code).toBe("not_found");
      expect(err.status).toBe(404);
    }
    expect(await Promise.all([rowOf(pending.id), rowOf(verified.id)])).toEqual(before);
    expect(await all(a.actor)).toEqual([]);
  });

  it("a MEMBER may list but not add, verify, set the default or remove (403); nor may a read-only key", async () => {
    const { actor, org } = await ownerWithOrganization();
    const pending = await add(actor);
    const verified = await addVerified(actor);
    const member = (await addMember(org.id, "MEMBER")).actor;
    const readKey: Actor = { ...actor, apiKey: { id: "key_test", permissions: ["read"] } };
    const before = await all(actor);
    for (const [who, code] of [
      [member, "forbidden"],
      [readKey, "insufficient_permissions"],
    ] as const) {
      expect((await all(who)).map((a) => a.id)).toEqual(before.map((a) => a.id));
      for (const call of [
        () => add(who),
        () => verify(who, pending.id, RIGHT),
        () => setDefaultBankAccount(who, verified.id),
        () => removeBankAccount(who, verified.id),
      ]) {
        const err = await failure(call());
        expect(err.code).toBe(code);
        expect(err.status).toBe(403);
      }
    }
    expect(await all(actor)).toEqual(before);
    // An ADMIN may.
    const admin = (await addMember(org.id, "ADMIN")).actor;
    expect((await add(admin)).status).toBe("pending_verification");
  });

  it("the sandbox hint is the sandbox's code while the sandbox pays out", async () => {
    const { actor } = await ownerWithOrganization();
    expect(sandboxHint(actor)).toEqual({ code: RIGHT });
  });
});
