// Bank accounts over REST (sandbox payout provider: the micro-deposit's code
// is always SM11AA): add → verify → default → remove, the 422 with a
// top-level attemptsRemaining, 409s, keys and roles, and tenancy.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { problem, restClient } from "../support/api";
import { errorPaths, ISO, joinTeam, listAll, ok, tenantWithClients, trpc, trpcError } from "./_helpers";

// Specs read loosely-typed JSON and assert on it.
/* eslint-disable @typescript-eslint/no-explicit-any */

const BASE = "business/payment-methods/bank-accounts";
const CODE = "SM11AA";
const FIELDS = ["accountName", "accountNumberLast4", "bankName", "createdAt", "id", "isDefault", "status", "verifiedAt"];
type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;

const newNumber = () => String(crypto.randomInt(1_000_000_000, 9_999_999_999));
const body = (accountNumber = newNumber()) => ({ bankName: "Access Bank", accountNumber, accountName: "Ada Stores Ltd" });
const add = async (t: Tenant, accountNumber = newNumber()) => ok(await t.write.post(BASE, { data: body(accountNumber) }), 201);
const verify = (t: Tenant, id: string, verificationCode: string) =>
  t.write.post(`${BASE}/${id}/verify`, { data: { verificationCode } });
const addVerified = async (t: Tenant) => ok(await verify(t, (await add(t)).id, CODE));
const list = (t: Tenant) => listAll<any>(t.write, BASE);

test.describe("bank accounts (REST)", () => {
  test("add → 201 pending_verification with only the last 4 digits; listed newest first; the number never comes back", async () => {
    const t = await tenantWithClients();
    const number = "0123456789";
    const a = await add(t, number);
    expect(Object.keys(a).sort()).toEqual(FIELDS);
    expect(a).toMatchObject({
      bankName: "Access Bank",
      accountName: "Ada Stores Ltd",
      accountNumberLast4: "6789",
      status: "pending_verification",
      isDefault: false,
      verifiedAt: null,
    });
    expect(a.createdAt).toMatch(ISO);
    const b = await add(t);
    const page = await ok(await t.read.get(`${BASE}?limit=1`));
    expect(page.data.map((x: any) => x.id)).toEqual([b.id]);
    const rest = await ok(await t.read.get(`${BASE}?limit=1&cursor=${page.nextCursor}`));
    expect(rest).toEqual({ data: [a], nextCursor: null });
    const verified = await ok(await verify(t, a.id, CODE));
    const texts = [JSON.stringify(a), JSON.stringify(verified), await (await t.read.get(BASE)).text()];
    for (const text of texts) expect(text).not.toContain(number);
  });

  test("add refuses a non-NUBAN number (422 on accountNumber) and the same number twice (409 conflict)", async () => {
    const t = await tenantWithClients();
    for (const accountNumber of ["123456789", "12345678901", "12345abcde", 1234567890]) {
      const p = await problem(await t.write.post(BASE, { data: { ...body(), accountNumber } }), 422, "validation_failed");
      expect(errorPaths(p)).toEqual(["accountNumber"]);
    }
    const p = await problem(await t.write.post(BASE, { data: { accountNumber: "0123456789" } }), 422, "validation_failed");
    expect(errorPaths(p).sort()).toEqual(["accountName", "bankName"]);
    const number = newNumber();
    await add(t, number);
    const dup = await problem(await t.write.post(BASE, { data: body(number) }), 409, "conflict");
    expect(errorPaths(dup)).toEqual(["accountNumber"]);
    expect(await list(t)).toHaveLength(1);
  });

  test("verify: the right code → verified and default; wrong codes → 422 with top-level attemptsRemaining 2, 1, 0, then 409", async () => {
    const t = await tenantWithClients();
    const first = await addVerified(t);
    expect(first).toMatchObject({ status: "verified", isDefault: true });
    expect(first.verifiedAt).toMatch(ISO);
    const second = await addVerified(t);
    expect(second).toMatchObject({ status: "verified", isDefault: false });

    const a = await add(t);
    for (const remaining of [2, 1, 0]) {
      const p: any = await problem(await verify(t, a.id, "WRONG1"), 422, "validation_failed");
      expect(p.attemptsRemaining).toBe(remaining);
      expect(p.errors).toEqual([{ path: "verificationCode", message: expect.stringMatching(/^is not the code/) }]);
      expect(Object.keys(p).sort()).toEqual(["attemptsRemaining", "code", "detail", "errors", "requestId", "status", "title", "type"]);
    }
    expect((await list(t)).find((x) => x.id === a.id)).toMatchObject({ status: "verification_failed", isDefault: false });
    await problem(await verify(t, a.id, CODE), 409, "invalid_state");
    await problem(await verify(t, first.id, CODE), 409, "invalid_state");
    // A body that is not a code: 422 without attemptsRemaining, and no attempt used.
    const b = await add(t);
    const bad: any = await problem(await t.write.post(`${BASE}/${b.id}/verify`, { data: {} }), 422, "validation_failed");
    expect(bad.attemptsRemaining).toBeUndefined();
    expect((await ok(await verify(t, b.id, CODE))).status).toBe("verified");
  });

  test("default: only a verified account (409 bank_account_not_verified); one default at a time", async () => {
    const t = await tenantWithClients();
    const pending = await add(t);
    await problem(await t.write.patch(`${BASE}/${pending.id}/default`), 409, "bank_account_not_verified");
    const first = await addVerified(t);
    const second = await addVerified(t);
    const made = await ok(await t.write.patch(`${BASE}/${second.id}/default`));
    expect(made).toMatchObject({ id: second.id, isDefault: true });
    expect(Object.keys(made).sort()).toEqual(FIELDS);
    const defaults = (await list(t)).filter((x) => x.isDefault).map((x) => x.id);
    expect(defaults).toEqual([second.id]);
    expect((await list(t)).find((x) => x.id === first.id).isDefault).toBe(false);
  });

  test("remove: 204, not listed any more, 404 after; removing the default promotes the newest other verified", async () => {
    const t = await tenantWithClients();
    const number = newNumber();
    const older = await ok(await verify(t, (await add(t, number)).id, CODE));
    const newer = await addVerified(t);
    const res = await t.write.delete(`${BASE}/${older.id}`);
    expect(res.status()).toBe(204);
    expect(await res.text()).toBe("");
    const left = await list(t);
    expect(left.map((x) => x.id)).toEqual([newer.id]);
    expect(left[0].isDefault).toBe(true);
    await problem(await t.write.delete(`${BASE}/${older.id}`), 404, "not_found");
    await problem(await verify(t, older.id, CODE), 404, "not_found");
    // The number can be added again once removed.
    expect((await add(t, number)).status).toBe("pending_verification");
  });

  test("no key → 401; a read-only key may list but every write is 403 with nothing changed", async () => {
    const t = await tenantWithClients();
    const a = await add(t);
    const anonymous = await restClient();
    await problem(await anonymous.get(BASE), 401, "missing_api_key");
    await problem(await anonymous.post(BASE, { data: body() }), 401, "missing_api_key");
    await problem(await anonymous.post(`${BASE}/${a.id}/verify`, { data: { verificationCode: CODE } }), 401, "missing_api_key");
    await problem(await anonymous.patch(`${BASE}/${a.id}/default`), 401, "missing_api_key");
    await problem(await anonymous.delete(`${BASE}/${a.id}`), 401, "missing_api_key");
    const before = await list(t);
    expect((await ok(await t.read.get(BASE))).data).toEqual(before);
    await problem(await t.read.post(BASE, { data: body() }), 403, "insufficient_permissions");
    await problem(await t.read.post(`${BASE}/${a.id}/verify`, { data: { verificationCode: CODE } }), 403, "insufficient_permissions");
    await problem(await t.read.patch(`${BASE}/${a.id}/default`), 403, "insufficient_permissions");
    await problem(await t.read.delete(`${BASE}/${a.id}`), 403, "insufficient_permissions");
    expect(await list(t)).toEqual(before);
  });

  test("another organization's account → 404 for verify, default and remove, and it is unchanged", async () => {
    const [a, b] = [await tenantWithClients(), await tenantWithClients()];
    const pending = await add(b);
    const verified = await addVerified(b);
    const before = await list(b);
    await problem(await verify(a, pending.id, CODE), 404, "not_found");
    await problem(await verify(a, pending.id, "WRONG1"), 404, "not_found");
    await problem(await a.write.patch(`${BASE}/${verified.id}/default`), 404, "not_found");
    await problem(await a.write.delete(`${BASE}/${verified.id}`), 404, "not_found");
    await problem(await a.write.delete(`${BASE}/${pending.id}`), 404, "not_found");
    expect(await list(b)).toEqual(before);
    expect(await list(a)).toEqual([]);
    // B's pending account still has all three attempts.
    const p: any = await problem(await verify(b, pending.id, "WRONG1"), 422, "validation_failed");
    expect(p.attemptsRemaining).toBe(2);
  });

  test("dashboard (tRPC): a wrong code carries data.attemptsRemaining; a MEMBER cannot add; the sandbox hint", async () => {
    const t = await tenantWithClients();
    const a = await add(t);
    const wrong = await t.account.session.post("/api/trpc/bankAccounts.verify", {
      data: { json: { id: a.id, verificationCode: "WRONG1" } },
    });
    expect(wrong.status()).toBe(422);
    const data = (await wrong.json()).error.json.data;
    expect(data).toMatchObject({ code: "validation_failed", attemptsRemaining: 2 });
    expect(await trpc(t.account, "bankAccounts.sandboxHint", undefined, "query")).toEqual({ code: CODE });
    const verified = await trpc<any>(t.account, "bankAccounts.verify", { id: a.id, verificationCode: CODE });
    expect(verified).toMatchObject({ status: "verified", isDefault: true });

    const { account: member } = await joinTeam(t, "MEMBER");
    const refused = await trpcError(member, "bankAccounts.add", body());
    expect(refused).toMatchObject({ status: 403, code: "forbidden" });
    expect(await trpcError(member, "bankAccounts.remove", { id: a.id })).toMatchObject({ status: 403, code: "forbidden" });
    expect((await list(t)).map((x) => x.id)).toEqual([a.id]);
  });
});
