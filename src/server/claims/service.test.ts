// Claims: submit (linked to the customer's coverage when the email matches),
// the review state machine, history, events, permissions and tenancy.
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { payWithCard, SANDBOX_CARDS } from "@/server/payments/checkout";
import { CheckoutInput, InitializePaymentInput } from "@/lib/schemas/payments";
import { initializePayment } from "@/server/payments/service";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { addMember, codeOf, ownerWithOrganization } from "@/test/fixtures";
import {
  CLAIM_STATUSES,
  CreateClaimInput,
  SearchClaimsQuery,
  UpdateClaimStatusInput,
  type ClaimStatus,
} from "@/lib/schemas/claims";
import {
  getClaim,
  getClaimDetail,
  getClaimWithHistory,
  listClaims,
  searchClaims,
  submitClaim,
  updateClaimStatus,
} from "./service";

const claimInput = (policyId: string, overrides: Record<string, unknown> = {}) =>
  CreateClaimInput.parse({ policyId, type: "theft", description: "Phone stolen at the market", amount: 450.5, ...overrides });

// Marking a claim paid by hand says it was paid outside Coverdesk, and how (claim payouts: claim-payouts/).
const move = (actor: Actor, id: string, status: string, note?: string) =>
  updateClaimStatus(
    actor,
    id,
    UpdateClaimStatusInput.parse({
      status,
      ...(status === "paid" ? { settledOutside: true, note: note || "Paid by cheque" } : note === undefined ? {} : { note }),
    }),
  );

/** An owner, their organization and a policy on sale. */
async function insurer(price = "200.00") {
  const owner = await ownerWithOrganization();
  const policy = await createPolicy(
    owner.actor,
    CreatePolicyInput.parse({ name: "Gadget cover", type: "property", duration: "yearly", price }),
  );
  return { ...owner, policy };
}

/** A customer's paid purchase of the policy (sandbox checkout): their coverage. */
async function buy(actor: Actor, policy: { id: string; price: string }, email: string) {
  const p = await initializePayment(
    actor,
    InitializePaymentInput.parse({ amount: Number(policy.price), policyId: policy.id, email }),
  );
  await payWithCard(
    p.reference,
    CheckoutInput.parse({
      cardNumber: SANDBOX_CARDS.success,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: "123",
    }),
  );
  return db.coverage.findUniqueOrThrow({ where: { policyId_customerEmail: { policyId: policy.id, customerEmail: email } } });
}

/** The path from `submitted` to each status. */
const PATH_TO: Record<ClaimStatus, ClaimStatus[]> = {
  submitted: [],
  under_review: ["under_review"],
  approved: ["under_review", "approved"],
  rejected: ["under_review", "rejected"],
  paid: ["under_review", "approved", "paid"],
};
const HISTORY = { history: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] } };
const ALLOWED = new Set(["submitted>under_review", "under_review>approved", "under_review>rejected", "approved>paid"]);

async function claimIn(actor: Actor, policyId: string, status: ClaimStatus) {
  const claim = await submitClaim(actor, claimInput(policyId));
  for (const s of PATH_TO[status]) await move(actor, claim.id, s);
  return db.claim.findUniqueOrThrow({ where: { id: claim.id }, include: HISTORY });
}

describe("submitClaim", () => {
  it("files a claim: the answer, its first history step and its claim.submitted event", async () => {
    const { actor, org, policy } = await insurer();
    const claim = await submitClaim(actor, claimInput(policy.id, { description: "  Phone stolen at the market  " }));
    expect(claim).toEqual({
      id: expect.any(String),
      policyId: policy.id,
      coverageId: null,
      type: "theft",
      description: "Phone stolen at the market",
      amount: "450.50",
      approvedAmount: null,
      currency: "NGN",
      status: "submitted",
      payoutAccount: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await getClaim(actor, claim.id)).toEqual(claim);

    const row = await db.claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.amountMinor).toBe(45050n);
    expect(row.organizationId).toBe(org.id);

    const detail = await getClaimWithHistory(actor, claim.id);
    expect(detail.history).toEqual([
      {
        id: expect.any(String),
        fromStatus: null,
        toStatus: "submitted",
        note: null,
        by: "Test User",
        createdAt: expect.any(String),
      },
    ]);

    const events = await db.event.findMany({ where: { organizationId: org.id } });
    expect(events.map((e) => e.type)).toEqual(["claim.submitted"]);
    // The Claim and the evidence filed with it (none here).
    expect(events[0]!.data).toEqual({ ...claim, attachments: [] });
    expect(events[0]!.id).toMatch(/^evt_/);
  });

  it("links the claim to the customer's coverage of that policy (email case-insensitive), else leaves it unlinked", async () => {
    const { actor, policy } = await insurer();
    const other = await createPolicy(
      actor,
      CreatePolicyInput.parse({ name: "Travel lite", type: "travel", duration: "monthly", price: "30" }),
    );
    const coverage = await buy(actor, policy, "ada@example.test");
    const otherCoverage = await buy(actor, other, "bola@example.test");

    const cases: [string, Record<string, unknown>, string | null][] = [
      ["the customer's email", { email: "ada@example.test" }, coverage.id],
      ["the customer's email in capitals", { email: "ADA@Example.TEST" }, coverage.id],
      ["no email", {}, null],
      ["an email without a coverage", { email: "nobody@example.test" }, null],
      ["a customer of another policy", { email: "bola@example.test" }, null],
    ];
    for (const [label, extra, expected] of cases) {
      const claim = await submitClaim(actor, claimInput(policy.id, extra));
      expect(claim.coverageId, label).toBe(expected);
      // The coverage is found inside the one statement that writes the claim: the stored row, the event's
      // data and the audit entry say the same as the answer.
      const stored = await db.claim.findUniqueOrThrow({ where: { id: claim.id } });
      expect(stored.coverageId, label).toBe(expected);
      expect({ ...claim, createdAt: stored.createdAt.toISOString(), updatedAt: stored.updatedAt.toISOString() }).toEqual(claim);
      const event = await db.event.findFirstOrThrow({ where: { subject: claim.id, type: "claim.submitted" } });
      expect(event.data, label).toEqual({ ...claim, attachments: [] });
      const entry = await db.auditLog.findFirstOrThrow({ where: { resourceId: claim.id, action: "claim.created" } });
      expect((entry.details as { coverageId: string | null }).coverageId, label).toBe(expected);
    }
    expect((await submitClaim(actor, claimInput(other.id, { email: "bola@example.test" }))).coverageId).toBe(otherCoverage.id);
  });

  it("does not link to another organization's coverage of the same customer", async () => {
    const mine = await insurer();
    const theirs = await insurer();
    await buy(theirs.actor, theirs.policy, "ada@example.test");
    const claim = await submitClaim(mine.actor, claimInput(mine.policy.id, { email: "ada@example.test" }));
    expect(claim.coverageId).toBeNull();
  });

  it("another organization's policy, or an unknown one, is not found: nothing filed, no event", async () => {
    const mine = await insurer();
    const theirs = await insurer();
    expect(await codeOf(submitClaim(mine.actor, claimInput(theirs.policy.id)))).toBe("not_found");
    expect(await codeOf(submitClaim(mine.actor, claimInput("does-not-exist")))).toBe("not_found");
    for (const org of [mine.org.id, theirs.org.id]) {
      expect(await db.claim.count({ where: { organizationId: org } })).toBe(0);
      expect(await db.event.count({ where: { organizationId: org } })).toBe(0);
    }
  });

  it("a read-only key may not file a claim; a write key and a MEMBER may", async () => {
    const { actor, org, policy } = await insurer();
    const readKey: Actor = { ...actor, apiKey: { id: "key_read", permissions: ["read"] } };
    const writeKey: Actor = { ...actor, apiKey: { id: "key_write", permissions: ["read", "write"] } };
    expect(await codeOf(submitClaim(readKey, claimInput(policy.id)))).toBe("insufficient_permissions");
    expect(await db.claim.count({ where: { organizationId: org.id } })).toBe(0);

    const byKey = await submitClaim(writeKey, claimInput(policy.id));
    const member = await addMember(org.id, "MEMBER");
    const byMember = await submitClaim(member.actor, claimInput(policy.id));
    expect((await getClaimWithHistory(actor, byKey.id)).history.map((h) => h.by)).toEqual(["API"]);
    expect((await getClaimWithHistory(actor, byMember.id)).history.map((h) => h.by)).toEqual([member.user.name]);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ["an unknown type", { type: "earthquake" }],
    ["an empty description", { description: "" }],
    ["a blank description", { description: "   " }],
    ["a 2001-character description", { description: "d".repeat(2001) }],
    ["amount 0", { amount: 0 }],
    ["a negative amount", { amount: -5 }],
    ["an amount with 5 decimals (more than any currency has)", { amount: 1.23456 }],
    ["an amount as a string", { amount: "450.50" }],
    ["a bad email", { email: "not-an-email" }],
    ["an unknown field", { status: "approved" }],
  ];
  for (const [label, overrides] of invalid) {
    it(`rejects ${label}`, () => {
      const parsed = CreateClaimInput.safeParse({ policyId: "p", type: "fire", description: "x", amount: 10, ...overrides });
      expect(parsed.success).toBe(false);
    });
  }

  it("accepts every type, a 2000-character description and 0.01", async () => {
    const { actor, policy } = await insurer();
    for (const type of ["accident", "theft", "fire", "flood", "medical", "liability", "other"]) {
      expect((await submitClaim(actor, claimInput(policy.id, { type }))).type).toBe(type);
    }
    const long = await submitClaim(actor, claimInput(policy.id, { description: "d".repeat(2000), amount: 0.01 }));
    expect(long.description).toHaveLength(2000);
    expect(long.amount).toBe("0.01");
  });
});

describe("updateClaimStatus", () => {
  // Every (from, to) pair: the four review moves succeed, every other one is a 409 that changes nothing.
  for (const from of CLAIM_STATUSES) {
    for (const to of ["under_review", "approved", "rejected", "paid"] as const) {
      const allowed = ALLOWED.has(`${from}>${to}`);
      it(`${from} → ${to}: ${allowed ? "allowed" : "409 invalid_state, unchanged"}`, async () => {
        const { actor, policy } = await insurer();
        const before = await claimIn(actor, policy.id, from);
        expect(before.status).toBe(from);
        if (allowed) {
          const after = await move(actor, before.id, to, "checked");
          expect(after.status).toBe(to);
          expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(before.updatedAt.getTime());
          const history = (await getClaimWithHistory(actor, before.id)).history;
          expect(history.at(-1)).toMatchObject({ fromStatus: from, toStatus: to, note: "checked", by: "Test User" });
          expect(history).toHaveLength(before.history.length + 1);
        } else {
          expect(await codeOf(move(actor, before.id, to))).toBe("invalid_state");
          const after = await db.claim.findUniqueOrThrow({ where: { id: before.id }, include: HISTORY });
          expect(after).toEqual(before);
        }
      });
    }
  }

  it("the history lists every step in order, with notes and who made it (a member, or API for a key)", async () => {
    const { actor, org, policy, user } = await insurer();
    const member = await addMember(org.id, "MEMBER");
    const key: Actor = { ...actor, apiKey: { id: "key_w", permissions: ["read", "write"] } };
    const claim = await submitClaim(key, claimInput(policy.id));
    await move(member.actor, claim.id, "under_review", "  looking into it  ");
    await move(actor, claim.id, "rejected", "no police report");
    const detail = await getClaimWithHistory(actor, claim.id);
    expect(detail.status).toBe("rejected");
    expect(detail.history.map(({ fromStatus, toStatus, note, by }) => ({ fromStatus, toStatus, note, by }))).toEqual([
      { fromStatus: null, toStatus: "submitted", note: null, by: "API" },
      { fromStatus: "submitted", toStatus: "under_review", note: "looking into it", by: member.user.name },
      { fromStatus: "under_review", toStatus: "rejected", note: "no police report", by: user.name },
    ]);
    // An empty note is stored as none.
    const second = await submitClaim(actor, claimInput(policy.id));
    await move(actor, second.id, "under_review", "");
    expect((await getClaimWithHistory(actor, second.id)).history.at(-1)!.note).toBeNull();
  });

  it("every move is a claim.updated event with previousStatus, in its transaction; paid is also claim.paid", async () => {
    const { actor, org, policy } = await insurer();
    const claim = await claimIn(actor, policy.id, "paid");
    const events = await db.event.findMany({ where: { organizationId: org.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(events.map((e) => e.type).sort()).toEqual(
      ["claim.submitted", "claim.updated", "claim.updated", "claim.updated", "claim.paid"].sort(),
    );
    expect(events.every((e) => e.subject === claim.id)).toBe(true);
    const moves = events
      .filter((e) => e.type === "claim.updated")
      .map((e) => e.data as { status: string; previousStatus: string });
    expect(moves.map((m) => `${m.previousStatus}>${m.status}`).sort()).toEqual(
      ["submitted>under_review", "under_review>approved", "approved>paid"].sort(),
    );
    expect(events.find((e) => e.type === "claim.paid")!.data).toMatchObject({ id: claim.id, status: "paid" });
    // A refused move writes no event.
    await move(actor, claim.id, "rejected").catch(() => null);
    expect(await db.event.count({ where: { organizationId: org.id } })).toBe(events.length);
  });

  it("two reviewers deciding at once: exactly one decision wins", async () => {
    const { actor, policy } = await insurer();
    const claim = await claimIn(actor, policy.id, "under_review");
    const results = await Promise.allSettled([move(actor, claim.id, "approved"), move(actor, claim.id, "rejected")]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as AppError).code).toBe("invalid_state");
    const final = await db.claim.findUniqueOrThrow({ where: { id: claim.id }, include: HISTORY });
    expect(final.status).toBe((won[0] as PromiseFulfilledResult<{ status: string }>).value.status);
    expect(final.history).toHaveLength(3);
  });

  it("a read-only key may not move a claim; a MEMBER may", async () => {
    const { actor, org, policy } = await insurer();
    const claim = await submitClaim(actor, claimInput(policy.id));
    const readKey: Actor = { ...actor, apiKey: { id: "key_r", permissions: ["read"] } };
    expect(await codeOf(move(readKey, claim.id, "under_review"))).toBe("insufficient_permissions");
    expect((await getClaim(actor, claim.id)).status).toBe("submitted");
    expect(await getClaim(readKey, claim.id)).toEqual(await getClaim(actor, claim.id));
    const member = await addMember(org.id, "MEMBER");
    expect((await move(member.actor, claim.id, "under_review")).status).toBe("under_review");
  });

  it("rejects an unknown status and a 2001-character note", () => {
    for (const body of [{ status: "submitted" }, { status: "closed" }, { status: "approved", note: "n".repeat(2001) }, {}]) {
      expect(UpdateClaimStatusInput.safeParse(body).success, JSON.stringify(body).slice(0, 40)).toBe(false);
    }
  });
});

describe("tenancy and lists", () => {
  it("another organization's claim is not found for get, history and moves, and stays unchanged", async () => {
    const mine = await insurer();
    const theirs = await insurer();
    const claim = await claimIn(theirs.actor, theirs.policy.id, "submitted");
    expect(await codeOf(getClaim(mine.actor, claim.id))).toBe("not_found");
    expect(await codeOf(getClaimWithHistory(mine.actor, claim.id))).toBe("not_found");
    expect(await codeOf(move(mine.actor, claim.id, "under_review"))).toBe("not_found");
    expect(await codeOf(getClaim(mine.actor, "does-not-exist"))).toBe("not_found");
    expect(await db.claim.findUniqueOrThrow({ where: { id: claim.id }, include: HISTORY })).toEqual(claim);
    expect((await listClaims(mine.actor, { limit: 20 })).data).toEqual([]);
  });

  it("lists newest first, filtered by status and policy, and pages", async () => {
    const { actor, policy } = await insurer();
    const other = await createPolicy(
      actor,
      CreatePolicyInput.parse({ name: "Home", type: "home", duration: "monthly", price: "75.25" }),
    );
    const a = await claimIn(actor, policy.id, "submitted");
    const b = await claimIn(actor, other.id, "approved");
    const c = await claimIn(actor, policy.id, "approved");
    const d = await claimIn(actor, other.id, "rejected");
    const ids = async (q: Record<string, unknown>) => (await listClaims(actor, { limit: 20, ...q })).data.map((x) => x.id);
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, [d.id, c.id, b.id, a.id]],
      [{ status: "approved" }, [c.id, b.id]],
      [{ status: "submitted" }, [a.id]],
      [{ status: "paid" }, []],
      [{ policyId: policy.id }, [c.id, a.id]],
      [{ policyId: other.id, status: "rejected" }, [d.id]],
      [{ policyId: "unknown" }, []],
    ];
    for (const [q, expected] of cases) expect(await ids(q), JSON.stringify(q)).toEqual(expected);

    const first = await listClaims(actor, { limit: 3 });
    expect(first.data.map((x) => x.id)).toEqual([d.id, c.id, b.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listClaims(actor, { limit: 3, cursor: first.nextCursor! });
    expect(second.data.map((x) => x.id)).toEqual([a.id]);
    expect(second.nextCursor).toBeNull();
  });
});

describe("approved amount", () => {
  const approve = (actor: Actor, id: string, approvedAmount?: number) =>
    updateClaimStatus(
      actor,
      id,
      UpdateClaimStatusInput.parse({ status: "approved", ...(approvedAmount === undefined ? {} : { approvedAmount }) }),
    );

  it("is the amount claimed unless the business approves less; never more; only on approval", async () => {
    const { actor, policy } = await insurer();
    const full = await claimIn(actor, policy.id, "under_review");
    expect((await approve(actor, full.id)).approvedAmount).toBe("450.50");

    const part = await claimIn(actor, policy.id, "under_review");
    const refused = await approve(actor, part.id, 450.51).then(
      () => null,
      (e: AppError) => e,
    );
    expect(refused?.code).toBe("validation_failed");
    expect(refused?.extra.errors).toEqual([{ path: "approvedAmount", message: "Approve at most the amount claimed, 450.50" }]);
    // Refused: nothing moved.
    const unchanged = await db.claim.findUniqueOrThrow({ where: { id: part.id } });
    expect([unchanged.status, unchanged.approvedAmountMinor]).toEqual(["under_review", null]);

    const approved = await approve(actor, part.id, 300);
    expect(approved).toMatchObject({ status: "approved", amount: "450.50", approvedAmount: "300.00" });
    // Paying keeps what was approved.
    expect((await move(actor, part.id, "paid")).approvedAmount).toBe("300.00");

    // An approved amount with any other move, or with more than any currency's decimals, is refused by the schema (a currency's own: src/server/money.test.ts).
    expect(UpdateClaimStatusInput.safeParse({ status: "rejected", approvedAmount: 10 }).error?.issues[0]).toMatchObject({
      path: ["approvedAmount"],
      message: "Give an approved amount only when approving",
    });
    expect(UpdateClaimStatusInput.safeParse({ status: "approved", approvedAmount: 1.23456 }).success).toBe(false);
  });

  it("is checked against the claim before its state: too much on a submitted claim is 422, not 409", async () => {
    const { actor, policy } = await insurer();
    const claim = await claimIn(actor, policy.id, "submitted");
    expect(await codeOf(approve(actor, claim.id, 10_000))).toBe("validation_failed");
    expect(await codeOf(approve(actor, claim.id, 10))).toBe("invalid_state");
  });
});

describe("the dashboard's claims", () => {
  it("keep the customer's email, list with policy names and filter by status, type, policy and search", async () => {
    const { actor, policy } = await insurer("200.00");
    const other = await createPolicy(
      actor,
      CreatePolicyInput.parse({ name: "Home cover", type: "home", duration: "yearly", price: "90.00" }),
    );
    await buy(actor, policy, "ada@example.test");
    const linked = await submitClaim(actor, claimInput(policy.id, { email: "ADA@example.test", type: "theft" }));
    const unlinked = await submitClaim(
      actor,
      claimInput(other.id, { email: "ben@example.test", type: "fire", description: "Kitchen 100%_fire" }),
    );
    expect(linked.coverageId).not.toBeNull();
    expect(unlinked.coverageId).toBeNull();

    const ids = async (query: Record<string, unknown>) =>
      (await searchClaims(actor, SearchClaimsQuery.parse({ limit: 20, ...query }))).data.map((c) => c.id);
    const all = await searchClaims(actor, SearchClaimsQuery.parse({ limit: 20 }));
    expect(all.data.map((c) => [c.id, c.policyName, c.customerEmail])).toEqual([
      [unlinked.id, "Home cover", "ben@example.test"],
      [linked.id, "Gadget cover", "ada@example.test"],
    ]);
    expect(await ids({ type: "fire" })).toEqual([unlinked.id]);
    expect(await ids({ policyId: policy.id })).toEqual([linked.id]);
    expect(await ids({ status: "approved" })).toEqual([]);
    expect(await ids({ q: "ADA@" })).toEqual([linked.id]);
    // The search is literal: % and _ are not wildcards.
    expect(await ids({ q: "100%_f" })).toEqual([unlinked.id]);
    expect(await ids({ q: "0%" })).toEqual([unlinked.id]);
    expect(await ids({ q: "%" })).toEqual([unlinked.id]);
    expect(await ids({ q: "_" })).toEqual([unlinked.id]);

    // The claim's page: its policy, customer (a customer since they paid) and coverage.
    const detail = await getClaimDetail(actor, linked.id);
    expect(detail.policyName).toBe("Gadget cover");
    expect(detail.customer).toMatchObject({ id: expect.any(String), email: "ada@example.test" });
    expect(detail.coverage?.status).toBe("active");
    const loose = await getClaimDetail(actor, unlinked.id);
    expect(loose.customer).toEqual({ id: null, email: "ben@example.test", name: null });
    expect(loose.coverage).toBeNull();

    // Another organization sees none of it.
    const stranger = await ownerWithOrganization();
    expect((await searchClaims(stranger.actor, SearchClaimsQuery.parse({ limit: 20 }))).data).toEqual([]);
    expect(await codeOf(getClaimDetail(stranger.actor, linked.id))).toBe("not_found");
  });
});
