// Organizations against a real database: user-scoped reads, OWNER on create,
// role rules on update, switching and the dashboard's active organization.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError, type ErrorCode } from "@/server/errors";
import { addMember, createUser, ownerWithOrganization, unique } from "@/test/fixtures";
import { InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { ensureTestTwin } from "./twin";
import {
  actorForUser,
  createOrganization,
  currencyLock,
  getOrganization,
  listOrganizations,
  resolveActiveMembership,
  switchOrganization,
  updateOrganization,
} from "./service";

async function expectAppError(promise: Promise<unknown>, code: ErrorCode) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected AppError ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
}

// Rows ordered by createdAt (millisecond precision) need distinct timestamps.
const tick = () => new Promise((r) => setTimeout(r, 5));

const activeOrgOf = async (userId: string) => (await db.user.findUniqueOrThrow({ where: { id: userId } })).activeOrganizationId;

describe("createOrganization", () => {
  it("makes the user its OWNER and their active organization", async () => {
    const user = await createUser();
    const name = `Acme ${unique()}`;
    const org = await createOrganization(user.id, { name, email: "ops@acme.test", phone: "+2348012345678" });

    expect(org).toMatchObject({
      name,
      email: "ops@acme.test",
      phone: "+2348012345678",
      address: null,
      currency: "NGN",
      role: "OWNER",
    });
    expect(Date.parse(org.createdAt)).not.toBeNaN();
    const members = await db.member.findMany({ where: { organizationId: org.id } });
    expect(members.map((m) => [m.userId, m.role])).toEqual([[user.id, "OWNER"]]);
    expect(await activeOrgOf(user.id)).toBe(org.id);
  });

  it("keeps a given currency and moves the active organization to the newest", async () => {
    const { user, org: first } = await ownerWithOrganization();
    const second = await createOrganization(user.id, { name: "Second", email: user.email, currency: "USD" });
    expect(second.currency).toBe("USD");
    expect(second.id).not.toBe(first.id);
    expect(await activeOrgOf(user.id)).toBe(second.id);
  });
});

describe("getOrganization / actorForUser", () => {
  it("answers the organization with the caller's role there", async () => {
    const { org } = await ownerWithOrganization();
    const { user: admin } = await addMember(org.id, "ADMIN");
    await expect(getOrganization(admin.id, org.id)).resolves.toMatchObject({ id: org.id, name: org.name, role: "ADMIN" });
    const key = { id: "key_x", permissions: ["read" as const] };
    await expect(actorForUser(admin.id, org.id, key)).resolves.toEqual({
      organizationId: org.id,
      userId: admin.id,
      role: "ADMIN",
      apiKey: key,
    });
  });

  it("hides an organization the user does not belong to (not_found)", async () => {
    const { org } = await ownerWithOrganization();
    const outsider = await createUser();
    await expectAppError(getOrganization(outsider.id, org.id), "not_found");
    await expectAppError(actorForUser(outsider.id, org.id), "not_found");
    await expectAppError(getOrganization(outsider.id, "no-such-org"), "not_found");
  });
});

describe("listOrganizations", () => {
  it("lists only the user's organizations, newest membership first, in pages", async () => {
    const { user, org: own } = await ownerWithOrganization();
    const { org: other } = await ownerWithOrganization();
    const { org: unrelated } = await ownerWithOrganization();
    await tick();
    await db.member.create({ data: { organizationId: other.id, userId: user.id, role: "MEMBER" } });
    await tick();
    const third = await createOrganization(user.id, { name: "Third", email: user.email });

    const first = await listOrganizations(user.id, { limit: 2 });
    expect(first.data.map((o) => [o.id, o.role])).toEqual([
      [third.id, "OWNER"],
      [other.id, "MEMBER"],
    ]);
    expect(first.nextCursor).not.toBeNull();
    const second = await listOrganizations(user.id, { limit: 2, cursor: first.nextCursor! });
    expect(second.data.map((o) => [o.id, o.role])).toEqual([[own.id, "OWNER"]]);
    expect(second.nextCursor).toBeNull();
    expect([...first.data, ...second.data].map((o) => o.id)).not.toContain(unrelated.id);
  });
});

describe("updateOrganization", () => {
  it("changes the profile of the actor's organization only; null clears a field", async () => {
    const { actor, org } = await ownerWithOrganization();
    const { org: other } = await ownerWithOrganization();
    await updateOrganization(actor, { phone: "+2348000000001", address: "1 Marina, Lagos" });
    const updated = await updateOrganization(actor, { name: "Renamed Ltd", phone: null, currency: "GHS" });

    expect(updated).toMatchObject({
      id: org.id,
      name: "Renamed Ltd",
      phone: null,
      address: "1 Marina, Lagos",
      currency: "GHS",
      role: "OWNER",
    });
    expect(await db.organization.findUniqueOrThrow({ where: { id: org.id } })).toMatchObject({
      name: "Renamed Ltd",
      phone: null,
      address: "1 Marina, Lagos",
      email: org.email,
      currency: "GHS",
    });
    expect((await db.organization.findUniqueOrThrow({ where: { id: other.id } })).name).toBe(other.name);
  });

  it("the currency is locked by any payment of either mode, pending included; test policies follow a change", async () => {
    const { actor, org } = await ownerWithOrganization();
    const twin = await ensureTestTwin(org.id);
    const test: Actor = { ...actor, organizationId: twin, accountId: org.id, livemode: false };
    const testPolicy = await createPolicy(
      test,
      CreatePolicyInput.parse({ name: "Test cover", type: "property", duration: "yearly", price: "10.00" }),
    );
    // Before any payment: the change reaches the twin and its policies.
    await updateOrganization(actor, { currency: "USD" });
    expect((await db.organization.findUniqueOrThrow({ where: { id: twin } })).currency).toBe("USD");
    expect((await db.policy.findUniqueOrThrow({ where: { id: testPolicy.id } })).currency).toBe("USD");
    // One pending test payment, never paid, locks it from then on (live and test).
    const payment = await initializePayment(
      test,
      InitializePaymentInput.parse({ amount: 10, policyId: testPolicy.id, email: "t@example.test" }),
    );
    expect([payment.status, payment.currency]).toEqual(["pending", "USD"]);
    expect(await currencyLock(actor)).toBe("Payments have already been made in USD, so the currency can no longer change");
    expect(await currencyLock(test)).toBe("Payments have already been made in USD, so the currency can no longer change");
    await expectAppError(updateOrganization(actor, { currency: "NGN" }), "currency_locked");
    await expectAppError(updateOrganization(test, { currency: "NGN" }), "currency_locked");
    const [live, testRow] = await Promise.all([
      db.organization.findUniqueOrThrow({ where: { id: org.id } }),
      db.organization.findUniqueOrThrow({ where: { id: twin } }),
    ]);
    expect([live.currency, testRow.currency]).toEqual(["USD", "USD"]);
  });

  type Who = "OWNER" | "ADMIN" | "MEMBER" | "read key" | "ADMIN through a write key";
  const cases: [Who, ErrorCode | null][] = [
    ["OWNER", null],
    ["ADMIN", null],
    ["ADMIN through a write key", null],
    ["MEMBER", "forbidden"],
    ["read key", "insufficient_permissions"],
  ];
  async function actorAs(who: Who, orgId: string, owner: Actor): Promise<Actor> {
    switch (who) {
      case "OWNER":
        return owner;
      case "ADMIN":
      case "MEMBER":
        return (await addMember(orgId, who)).actor;
      case "read key":
        return { ...owner, apiKey: { id: "key_r", permissions: ["read"] } };
      case "ADMIN through a write key":
        return { ...(await addMember(orgId, "ADMIN")).actor, apiKey: { id: "key_w", permissions: ["read", "write"] } };
    }
  }

  for (const [who, code] of cases) {
    it(`${who} → ${code ?? "allowed"}`, async () => {
      const { org, actor: owner } = await ownerWithOrganization();
      const actor = await actorAs(who, org.id, owner);
      const before = await db.organization.findUniqueOrThrow({ where: { id: org.id } });
      const change = updateOrganization(actor, { name: `Changed by ${who}` });
      if (code === null) {
        await expect(change).resolves.toMatchObject({ name: `Changed by ${who}` });
      } else {
        await expectAppError(change, code);
        expect(await db.organization.findUniqueOrThrow({ where: { id: org.id } })).toEqual(before);
      }
    });
  }
});

describe("switchOrganization", () => {
  it("sets the user's active organization and answers it with their role", async () => {
    const { user, org: own } = await ownerWithOrganization();
    const { org: other } = await ownerWithOrganization();
    await db.member.create({ data: { organizationId: other.id, userId: user.id, role: "ADMIN" } });
    expect(await activeOrgOf(user.id)).toBe(own.id);

    await expect(switchOrganization(user.id, other.id)).resolves.toMatchObject({ id: other.id, role: "ADMIN" });
    expect(await activeOrgOf(user.id)).toBe(other.id);
  });

  it("refuses an organization the user is not in (not_found) and keeps the active one", async () => {
    const { user, org: own } = await ownerWithOrganization();
    const { org: foreign } = await ownerWithOrganization();
    await expectAppError(switchOrganization(user.id, foreign.id), "not_found");
    expect(await activeOrgOf(user.id)).toBe(own.id);
  });
});

describe("resolveActiveMembership", () => {
  it("answers the active organization while the user still belongs to it", async () => {
    const { user, org: first } = await ownerWithOrganization();
    const second = await createOrganization(user.id, { name: "Second", email: user.email });
    const member = await resolveActiveMembership(user.id, second.id);
    expect(member).toMatchObject({ organizationId: second.id, userId: user.id, role: "OWNER" });
    expect(member?.organizationId).not.toBe(first.id);
  });

  it("falls back to the oldest remaining membership when removed from the active one, and remembers it", async () => {
    const { org: a } = await ownerWithOrganization();
    const { org: b } = await ownerWithOrganization();
    const { org: c } = await ownerWithOrganization();
    const { user } = await addMember(a.id, "MEMBER");
    await tick();
    await db.member.create({ data: { organizationId: b.id, userId: user.id, role: "ADMIN" } });
    await tick();
    await db.member.create({ data: { organizationId: c.id, userId: user.id, role: "MEMBER" } });
    await switchOrganization(user.id, c.id);

    await db.member.delete({ where: { organizationId_userId: { organizationId: c.id, userId: user.id } } });
    const member = await resolveActiveMembership(user.id, c.id);
    expect(member).toMatchObject({ organizationId: a.id, role: "MEMBER" });
    expect(await activeOrgOf(user.id)).toBe(a.id);
  });

  it("uses the oldest membership when none is active, and null when the user has none", async () => {
    const { org } = await ownerWithOrganization();
    const { user } = await addMember(org.id, "ADMIN");
    expect(await activeOrgOf(user.id)).toBeNull();
    await expect(resolveActiveMembership(user.id, null)).resolves.toMatchObject({ organizationId: org.id, role: "ADMIN" });
    expect(await activeOrgOf(user.id)).toBe(org.id);

    const loner = await createUser();
    await expect(resolveActiveMembership(loner.id, null)).resolves.toBeNull();
  });
});
