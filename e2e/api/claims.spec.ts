// REST: /claims — submit, list, read, and the review moves (PATCH /claims/{id}/status),
// with the claim's effect on the policy's analytics.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { problem, restClient } from "../support/api";
import { buyPolicy, createPolicyFor, errorPaths, ISO, listAll, ok, send, tenantWithClients, type HttpMethod } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const CLAIM_FIELDS = [
  "id",
  "policyId",
  "coverageId",
  "type",
  "description",
  "amount",
  "approvedAmount",
  "currency",
  "status",
  "payoutAccount",
  "createdAt",
  "updatedAt",
];
const TYPES = ["accident", "theft", "fire", "flood", "medical", "liability", "other"];
const STATUSES = ["submitted", "under_review", "approved", "rejected", "paid"] as const;
type Status = (typeof STATUSES)[number];

function expectClaimShape(c: Record<string, any>) {
  expect(Object.keys(c).sort()).toEqual([...CLAIM_FIELDS].sort());
  expect(typeof c.id).toBe("string");
  expect(TYPES).toContain(c.type);
  expect(STATUSES).toContain(c.status);
  expect(c.amount).toMatch(/^\d+\.\d{2}$/);
  expect(c.currency).toMatch(/^[A-Z]{3}$/);
  expect(c.createdAt).toMatch(ISO);
  expect(c.updatedAt).toMatch(ISO);
}

const claimBody = (policyId: string, overrides: Record<string, unknown> = {}) => ({
  policyId,
  type: "accident",
  description: "Rear-ended at a junction; bumper and boot lid damaged.",
  amount: 1250.5,
  ...overrides,
});

async function submit(client: APIRequestContext, body: Record<string, unknown>) {
  return ok(await client.post("claims", { data: body }), 201);
}
const readClaim = async (client: APIRequestContext, id: string) => ok(await client.get(`claims/${id}`));
const allClaims = (client: APIRequestContext) => listAll(client, "claims");
const setStatus = (client: APIRequestContext, id: string, body: unknown) => client.patch(`claims/${id}/status`, { data: body });
/** Marking a claim paid by PATCH says it was paid outside Coverdesk, and how (payouts: money-back.spec.ts). */
const OUTSIDE = { settledOutside: true, note: "Paid by cheque 0042" };

/** The moves from `submitted` to each status. */
const PATH_TO: Record<Status, Status[]> = {
  submitted: [],
  under_review: ["under_review"],
  approved: ["under_review", "approved"],
  rejected: ["under_review", "rejected"],
  paid: ["under_review", "approved", "paid"],
};
const ALLOWED: Record<Status, Status[]> = {
  submitted: ["under_review"],
  under_review: ["approved", "rejected"],
  approved: ["paid"],
  rejected: [],
  paid: [],
};

async function claimIn(client: APIRequestContext, policyId: string, status: Status, overrides: Record<string, unknown> = {}) {
  let claim = await submit(client, claimBody(policyId, overrides));
  for (const s of PATH_TO[status])
    claim = await ok(await setStatus(client, claim.id, { status: s, ...(s === "paid" ? OUTSIDE : {}) }));
  expect(claim.status).toBe(status);
  return claim;
}

test.describe("POST /claims", () => {
  test("201: the claim, submitted, in the organization's currency; readable and listed", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const claim = await submit(t.write, claimBody(policy.id, { description: "  Windscreen cracked  " }));
    expectClaimShape(claim);
    expect(claim).toMatchObject({
      policyId: policy.id,
      coverageId: null,
      type: "accident",
      description: "Windscreen cracked",
      amount: "1250.50",
      currency: "NGN",
      status: "submitted",
    });
    expect(claim.updatedAt).toBe(claim.createdAt);
    expect(Math.abs(Date.parse(claim.createdAt) - Date.now())).toBeLessThan(5 * 60_000);
    expect(await readClaim(t.read, claim.id)).toEqual(claim);
    expect(await allClaims(t.read)).toEqual([claim]);
  });

  test("links the claim to the customer's coverage when the email matches one of that policy (case-insensitive)", async () => {
    const t = await tenantWithClients();
    const motor = await createPolicyFor(t.write, { name: "Motor" });
    const home = await createPolicyFor(t.write, { name: "Home" });
    const ada = await buyPolicy(t.write, motor, "ada@example.test");
    await buyPolicy(t.write, home, "bola@example.test");
    const cases: [string, Record<string, unknown>, string | null][] = [
      ["the customer's email", { email: "ada@example.test" }, ada.coverage.id],
      ["in capitals", { email: "ADA@EXAMPLE.TEST" }, ada.coverage.id],
      ["no email", {}, null],
      ["an email without a coverage", { email: "nobody@example.test" }, null],
      ["a customer of another policy only", { email: "bola@example.test" }, null],
    ];
    for (const [label, extra, coverageId] of cases) {
      const claim = await submit(t.write, claimBody(motor.id, extra));
      expect(claim.coverageId, label).toBe(coverageId);
      expect(Object.keys(claim), label).not.toContain("email");
    }
  });

  test("accepts every type, a 2000-character description and an amount of 0.01", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    for (const type of TYPES) expect((await submit(t.write, claimBody(policy.id, { type }))).type).toBe(type);
    const edge = await submit(t.write, claimBody(policy.id, { description: "d".repeat(2000), amount: 0.01 }));
    expect(edge).toMatchObject({ description: "d".repeat(2000), amount: "0.01" });
    const whole = await submit(t.write, claimBody(policy.id, { amount: 5000 }));
    expect(whole.amount).toBe("5000.00");
  });

  test("a claim may be filed on an inactive policy (its customers stay covered)", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    await ok(await t.write.delete(`business/policies/${policy.id}`));
    expect((await submit(t.write, claimBody(policy.id))).status).toBe("submitted");
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["policyId missing", { policyId: undefined }, "policyId"],
    ["type missing", { type: undefined }, "type"],
    ["type unknown", { type: "earthquake" }, "type"],
    ["type in capitals", { type: "Fire" }, "type"],
    ["description missing", { description: undefined }, "description"],
    ["description empty", { description: "" }, "description"],
    ["description blank", { description: "    " }, "description"],
    ["description of 2001 characters", { description: "d".repeat(2001) }, "description"],
    ["description not a string", { description: 42 }, "description"],
    ["amount missing", { amount: undefined }, "amount"],
    ["amount 0", { amount: 0 }, "amount"],
    ["amount negative", { amount: -10 }, "amount"],
    ["amount with 3 decimals", { amount: 10.123 }, "amount"],
    ["amount as a string", { amount: "1250.50" }, "amount"],
    ["email not an email", { email: "ada" }, "email"],
    ["an unknown field", { status: "approved" }, "status"],
  ];
  for (const [label, overrides, path] of invalid) {
    test(`${label} → 422 naming ${path}, nothing filed`, async () => {
      const t = await tenantWithClients();
      const policy = await createPolicyFor(t.write);
      const existing = await submit(t.write, claimBody(policy.id));
      const err = await problem(
        await t.write.post("claims", { data: claimBody(policy.id, overrides) }),
        422,
        "validation_failed",
      );
      if (path === "status") expect(JSON.stringify(err.errors)).toContain("status");
      else expect(errorPaths(err)).toContain(path);
      expect(await allClaims(t.write)).toEqual([existing]);
    });
  }

  test("malformed JSON → 400; no body → 422; nothing filed", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.post("claims", { data: Buffer.from('{"policyId":'), headers: { "Content-Type": "application/json" } }),
      400,
      "malformed_json",
    );
    await problem(await t.write.post("claims"), 422, "validation_failed");
    expect(await allClaims(t.write)).toEqual([]);
  });

  test("an unknown policy, or another organization's → 404; nothing filed anywhere", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const theirs = await createPolicyFor(b.write);
    for (const policyId of [theirs.id, "does-not-exist"]) {
      await problem(await a.write.post("claims", { data: claimBody(policyId) }), 404, "not_found");
    }
    expect(await allClaims(a.write)).toEqual([]);
    expect(await allClaims(b.write)).toEqual([]);
    // 422 before 404.
    await problem(await a.write.post("claims", { data: claimBody("does-not-exist", { amount: 0 }) }), 422, "validation_failed");
  });

  test("Idempotency-Key: the same claim sent twice is filed once", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const headers = { "Idempotency-Key": `claim-${Date.now()}` };
    const first = await ok(await t.write.post("claims", { data: claimBody(policy.id), headers }), 201);
    const again = await t.write.post("claims", { data: claimBody(policy.id), headers });
    expect(await ok(again, 201)).toEqual(first);
    expect(again.headers()["idempotent-replayed"]).toBe("true");
    expect(await allClaims(t.write)).toEqual([first]);
  });
});

test.describe("GET /claims and GET /claims/{id}", () => {
  test("lists newest first; filters by status and policy; pages", async () => {
    const t = await tenantWithClients();
    const motor = await createPolicyFor(t.write, { name: "Motor" });
    const home = await createPolicyFor(t.write, { name: "Home" });
    const a = await claimIn(t.write, motor.id, "submitted");
    const b = await claimIn(t.write, home.id, "under_review");
    const c = await claimIn(t.write, motor.id, "approved");
    const d = await claimIn(t.write, home.id, "paid");
    const e = await claimIn(t.write, motor.id, "rejected");

    const ids = async (qs: string) => (await ok(await t.read.get(`claims?${qs}`))).data.map((x: any) => x.id);
    const cases: [string, string[]][] = [
      ["", [e, d, c, b, a].map((x) => x.id)],
      ["status=submitted", [a.id]],
      ["status=under_review", [b.id]],
      ["status=approved", [c.id]],
      ["status=paid", [d.id]],
      ["status=rejected", [e.id]],
      [`policyId=${motor.id}`, [e.id, c.id, a.id]],
      [`policyId=${home.id}&status=paid`, [d.id]],
      [`policyId=${home.id}&status=rejected`, []],
      ["policyId=does-not-exist", []],
    ];
    for (const [qs, expected] of cases) expect(await ids(qs), qs || "(no filter)").toEqual(expected);

    // The list shows each claim as GET /claims/{id} does.
    const listed = (await ok(await t.read.get("claims"))).data;
    for (const claim of listed) {
      expectClaimShape(claim);
      expect(await readClaim(t.read, claim.id)).toEqual(claim);
    }
    const first = await ok(await t.read.get("claims?limit=2"));
    expect(first.data.map((x: any) => x.id)).toEqual([e.id, d.id]);
    const second = await ok(await t.read.get(`claims?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`));
    expect(second.data.map((x: any) => x.id)).toEqual([c.id, b.id]);
    const third = await ok(await t.read.get(`claims?limit=2&cursor=${encodeURIComponent(second.nextCursor)}`));
    expect(third).toEqual({ data: [a], nextCursor: null });
  });

  for (const qs of ["status=closed", "status=SUBMITTED", "limit=0", "limit=101", "cursor=nope!!"]) {
    test(`GET /claims?${qs} → 400 invalid_query`, async () => {
      const t = await tenantWithClients();
      await problem(await t.read.get(`claims?${qs}`), 400, "invalid_query");
    });
  }

  test("another organization's claims are not listed, and reading one → 404", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const theirs = await submit(b.write, claimBody((await createPolicyFor(b.write)).id));
    expect(await ok(await a.read.get("claims"))).toEqual({ data: [], nextCursor: null });
    expect(await ok(await a.read.get(`claims?policyId=${theirs.policyId}`))).toEqual({ data: [], nextCursor: null });
    await problem(await a.read.get(`claims/${theirs.id}`), 404, "not_found");
    await problem(await a.read.get("claims/does-not-exist"), 404, "not_found");
    expect(await readClaim(b.read, theirs.id)).toEqual(theirs);
  });
});

test.describe("PATCH /claims/{id}/status", () => {
  test("the whole review: submitted → under_review → approved → paid; each step answers the claim", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const claim = await submit(t.write, claimBody(policy.id));
    let previous = claim;
    for (const [status, note] of [
      ["under_review", "Assessor booked"],
      ["approved", undefined],
      ["paid", "Transferred to the customer"],
    ] as const) {
      const updated = await ok(
        await setStatus(t.write, claim.id, {
          status,
          ...(note ? { note } : {}),
          ...(status === "paid" ? { settledOutside: true } : {}),
        }),
      );
      expectClaimShape(updated);
      const { status: _s, updatedAt: _u, approvedAmount: _a, ...same } = previous;
      // Approving records the amount claimed as approved (none was given); paying keeps it.
      const approvedAmount = status === "under_review" ? null : "1250.50";
      expect(updated).toEqual({ ...same, status, approvedAmount, updatedAt: updated.updatedAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(previous.updatedAt));
      expect(await readClaim(t.read, claim.id)).toEqual(updated);
      previous = updated;
    }
  });

  test("paid by PATCH needs settledOutside: true and a note saying how (422 naming both), else nothing changes", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const claim = await claimIn(t.write, policy.id, "approved");
    const bare = await problem(await setStatus(t.write, claim.id, { status: "paid" }), 422, "validation_failed");
    expect(bare.errors!.map((e: { path: string }) => e.path).sort()).toEqual(["note", "settledOutside"]);
    await problem(await setStatus(t.write, claim.id, { status: "paid", settledOutside: true }), 422, "validation_failed");
    await problem(
      await setStatus(t.write, claim.id, { status: "paid", settledOutside: false, note: "cash" }),
      422,
      "validation_failed",
    );
    const early = await problem(
      await setStatus(t.write, claim.id, { status: "rejected", settledOutside: true, note: "x" }),
      422,
      "validation_failed",
    );
    expect(early.errors).toEqual([{ path: "settledOutside", message: "Give settledOutside only when marking the claim paid" }]);
    expect(await readClaim(t.read, claim.id)).toEqual(claim);
    expect((await ok(await setStatus(t.write, claim.id, { status: "paid", ...OUTSIDE }))).status).toBe("paid");
  });

  // Every (from, to) pair: the allowed moves succeed; every other answers 409 invalid_state and changes nothing.
  for (const from of STATUSES) {
    test(`from ${from}: ${ALLOWED[from].length ? `only ${ALLOWED[from].join(" or ")} allowed` : "no move allowed"}; others → 409, unchanged`, async () => {
      const t = await tenantWithClients();
      const policy = await createPolicyFor(t.write);
      for (const to of ["under_review", "approved", "rejected", "paid"] as const) {
        const claim = await claimIn(t.write, policy.id, from);
        const res = await setStatus(t.write, claim.id, {
          status: to,
          note: "n",
          ...(to === "paid" ? { settledOutside: true } : {}),
        });
        if (ALLOWED[from].includes(to)) {
          expect((await ok(res)).status, `${from} → ${to}`).toBe(to);
        } else {
          const err = await problem(res, 409, "invalid_state");
          expect(err.detail, `${from} → ${to}`).toMatch(/cannot become/);
          expect(await readClaim(t.read, claim.id), `${from} → ${to}`).toEqual(claim);
        }
      }
    });
  }

  const invalid: [string, unknown, string][] = [
    ["status missing", {}, "status"],
    ["status submitted", { status: "submitted" }, "status"],
    ["status unknown", { status: "closed" }, "status"],
    ["status in capitals", { status: "UNDER_REVIEW" }, "status"],
    ["a 2001-character note", { status: "under_review", note: "n".repeat(2001) }, "note"],
    ["a note not a string", { status: "under_review", note: 5 }, "note"],
    ["an unknown field", { status: "under_review", amount: 1 }, "amount"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, the claim unchanged`, async () => {
      const t = await tenantWithClients();
      const claim = await submit(t.write, claimBody((await createPolicyFor(t.write)).id));
      const err = await problem(await setStatus(t.write, claim.id, body), 422, "validation_failed");
      expect(JSON.stringify(err.errors)).toContain(path);
      expect(await readClaim(t.read, claim.id)).toEqual(claim);
    });
  }

  test("approvedAmount: at most the amount claimed, only with an approval, 2 decimals; the default is the amount claimed", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write);
    const claim = await claimIn(t.write, policy.id, "under_review");
    for (const [body, message] of [
      [{ status: "approved", approvedAmount: 1250.51 }, "Approve at most the amount claimed, 1250.50"],
      [{ status: "approved", approvedAmount: 0 }, "Enter an amount greater than 0"],
      [{ status: "approved", approvedAmount: 10.005 }, "NGN amounts have at most 2 decimals, like 150.50"],
      [{ status: "approved", approvedAmount: "100" }, "Enter a number"],
      [{ status: "rejected", approvedAmount: 100 }, "Give an approved amount only when approving"],
    ] as const) {
      const err = await problem(await setStatus(t.write, claim.id, body), 422, "validation_failed");
      expect(err.errors, JSON.stringify(body)).toEqual([{ path: "approvedAmount", message }]);
      expect(await readClaim(t.read, claim.id)).toEqual(claim);
    }
    const approved = await ok(await setStatus(t.write, claim.id, { status: "approved", approvedAmount: 1000.5, note: "Excess" }));
    expectClaimShape(approved);
    expect(approved).toMatchObject({ status: "approved", amount: "1250.50", approvedAmount: "1000.50" });
    expect((await ok(await setStatus(t.write, claim.id, { status: "paid", ...OUTSIDE }))).approvedAmount).toBe("1000.50");
    // Too much on a claim not yet under review: the input is judged (422) before the state (409).
    const fresh = await submit(t.write, claimBody(policy.id));
    await problem(await setStatus(t.write, fresh.id, { status: "approved", approvedAmount: 99999 }), 422, "validation_failed");
    await problem(await setStatus(t.write, fresh.id, { status: "approved", approvedAmount: 1 }), 409, "invalid_state");
  });

  test("another organization's claim, or an unknown one → 404; theirs unchanged; 422 comes before 404", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const theirs = await submit(b.write, claimBody((await createPolicyFor(b.write)).id));
    for (const id of [theirs.id, "does-not-exist"]) {
      await problem(await setStatus(a.write, id, { status: "under_review" }), 404, "not_found");
    }
    await problem(await setStatus(a.write, theirs.id, { status: "closed" }), 422, "validation_failed");
    expect(await readClaim(b.read, theirs.id)).toEqual(theirs);
  });

  test("two reviewers deciding at once: exactly one decision wins", async () => {
    const t = await tenantWithClients();
    const claim = await claimIn(t.write, (await createPolicyFor(t.write)).id, "under_review");
    const [x, y] = await Promise.all([
      setStatus(t.write, claim.id, { status: "approved" }),
      setStatus(t.write, claim.id, { status: "rejected" }),
    ]);
    expect([x.status(), y.status()].sort()).toEqual([200, 409]);
    const winner = x.status() === 200 ? "approved" : "rejected";
    expect((await readClaim(t.read, claim.id)).status).toBe(winner);
  });
});

test.describe("claims in the policy's analytics", () => {
  test("claims count and amount; loss ratio = approved and paid claims / gross revenue", async () => {
    const t = await tenantWithClients();
    const policy = await createPolicyFor(t.write, { price: "1000.00" });
    await buyPolicy(t.write, policy, "ada@example.test");
    await claimIn(t.write, policy.id, "approved", { amount: 150 });
    await claimIn(t.write, policy.id, "paid", { amount: 100 });
    await claimIn(t.write, policy.id, "rejected", { amount: 500 });
    await claimIn(t.write, policy.id, "submitted", { amount: 20.25 });
    const a = await ok(await t.read.get(`business/policies/${policy.id}/analytics`));
    expect(a).toMatchObject({ claims: { count: 4, amount: "770.25" }, lossRatio: 0.25 });
  });
});

// ---- Authentication, permissions, tenancy ---------------------------------------------------

interface Operation {
  method: HttpMethod;
  path: (claimId: string) => string;
  body?: (policyId: string) => unknown;
}
const OPERATIONS: Operation[] = [
  { method: "GET", path: () => "claims" },
  { method: "POST", path: () => "claims", body: (policyId) => claimBody(policyId) },
  { method: "GET", path: (id) => `claims/${id}` },
  { method: "PATCH", path: (id) => `claims/${id}/status`, body: () => ({ status: "under_review" }) },
];
const label = (op: Operation) => `${op.method} ${op.path("{id}")}`;

async function tenantWithClaim() {
  const t = await tenantWithClients();
  const policy = await createPolicyFor(t.write);
  const claim = await submit(t.write, claimBody(policy.id));
  const revoked = await ok(
    await t.write.post("business/api-keys", { data: { name: "old", permissions: ["read", "write"] } }),
    201,
  );
  await ok(await t.write.delete(`business/api-keys/${revoked.id}`));
  return { ...t, policy, claim, revokedKey: revoked.key as string };
}

test.describe("401 without a valid key, on every endpoint; nothing changes", () => {
  for (const op of OPERATIONS) {
    test(label(op), async () => {
      const t = await tenantWithClaim();
      const cases: [Record<string, string>, string][] = [
        [{}, "missing_api_key"],
        [{ Authorization: `Bearer cd_live_${"A".repeat(32)}` }, "invalid_api_key"],
        [{ Authorization: "Bearer nope" }, "invalid_api_key"],
        [{ Authorization: `Bearer ${t.revokedKey}` }, "revoked_api_key"],
      ];
      for (const [headers, code] of cases) {
        const client = await restClient(undefined, headers);
        await problem(await send(client, op.method, op.path(t.claim.id), op.body?.(t.policy.id)), 401, code);
        await client.dispose();
      }
      expect(await allClaims(t.write)).toEqual([t.claim]);
    });
  }
});

test.describe("a read-only key: 403 insufficient_permissions on every mutation, nothing changes", () => {
  for (const op of OPERATIONS.filter((o) => o.method !== "GET")) {
    test(label(op), async () => {
      const t = await tenantWithClaim();
      await problem(await send(t.read, op.method, op.path(t.claim.id), op.body?.(t.policy.id)), 403, "insufficient_permissions");
      // Permission is checked before the body and before the record.
      await problem(await send(t.read, op.method, op.path(t.claim.id), { bogus: true }), 403, "insufficient_permissions");
      await problem(
        await send(t.read, op.method, op.path("does-not-exist"), op.body?.(t.policy.id)),
        403,
        "insufficient_permissions",
      );
      expect(await allClaims(t.write)).toEqual([t.claim]);
    });
  }

  test("while it may read the list and each claim", async () => {
    const t = await tenantWithClaim();
    expect(await allClaims(t.read)).toEqual([t.claim]);
    expect(await readClaim(t.read, t.claim.id)).toEqual(t.claim);
  });
});

test.describe("another organization's records: 404 on every endpoint naming them, nothing changes", () => {
  test("its policy (POST /claims) and its claim (GET, PATCH)", async () => {
    const [a, b] = await Promise.all([tenantWithClaim(), tenantWithClaim()]);
    await problem(await a.write.post("claims", { data: claimBody(b.policy.id) }), 404, "not_found");
    await problem(await a.write.get(`claims/${b.claim.id}`), 404, "not_found");
    await problem(await a.write.patch(`claims/${b.claim.id}/status`, { data: { status: "under_review" } }), 404, "not_found");
    expect(await allClaims(a.write)).toEqual([a.claim]);
    expect(await allClaims(b.write)).toEqual([b.claim]);
  });
});
