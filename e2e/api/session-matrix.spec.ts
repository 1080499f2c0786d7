// The session matrix: the security matrix's checks for the surfaces a cookie
// opens — the dashboard's tRPC procedures and the policyholder portal — with
// no list kept by hand. The procedures come from the server's own declaration
// (scripts/operations-manifest.ts walks the app router: path, query or
// mutation, the input's JSON Schema, who may call it); the portal's routes
// from its route files. For every procedure:
//   no session → 401 `unauthenticated`;
//   a platform-admin procedure → 404 `not_found` to anyone else;
//   a member of organization B naming A's real record → 404 `not_found`, the
//   record unchanged; and the same from A's own member in the dashboard's test
//   view naming a live record;
//   a MEMBER where an ADMIN may → 403 `forbidden`, the record unchanged (which
//   operations are an admin's is read from the answers, not listed; within
//   one router a MEMBER is refused every change or none); what an ADMIN is
//   refused, the OWNER is not (an owner's own decision).
// For every portal route: no session → 401; another policyholder of the same
// business → 404 for the first one's coverage, claim and files, nothing
// changed; a session of another business → 401.
// Every call carries an input the server accepts (sampled from the schema,
// optional fields dropped on a 422 naming them), so a missing check would act.
import { expect, request, test, type APIRequestContext } from "@playwright/test";
import { BASE_URL, signInPlatformAdmin, signUp, trpc, unique } from "../support/api";
import { samplePdfPart } from "../support/files";
import { fillPath, pool } from "../support/openapi";
import {
  EXTRA_KINDS,
  callValid,
  describeTrpc,
  isMemberOperation,
  isPublic,
  isSignedInOperation,
  loadManifest,
  portalRoutes,
  recordFields,
  sampleBody,
  sharedByModes,
  unknownRecordIds,
  type DashboardOperation,
  type PortalRoute,
  type TrpcAnswer,
} from "../support/session-matrix";
import { buyPolicy, createPolicyFor, joinTeam, ok, startReceiver, tenantWithClients, type Receiver } from "./_helpers";
import { waitForMailbox } from "./_mail";
import { recordsOf, type Made, type Tenant } from "./_records";

/** Requests in flight at once: enough to keep the run short, few enough for a 2-core machine. */
const CONCURRENCY = 8;
const unknownId = () => `zz${unique()}${unique()}`;

function report(what: string, operations: number, cases: number) {
  console.log(`session matrix: ${operations} operations, ${cases} cases (${what})`);
}

function expectNoFailures(failures: string[], checked: number) {
  expect(checked, "cases checked").toBeGreaterThan(0);
  expect(failures, `\n${failures.join("\n")}\n`).toEqual([]);
}

/** Records of one tenant, made on demand once per kind: the REST factories, and the kinds only the dashboard names. */
function recordsFor(t: Tenant, receiver: Receiver) {
  const make = recordsOf(t, receiver);
  const extra = new Map<string, Promise<Made>>();
  return (kind: string): Promise<Made> => {
    if (kind !== EXTRA_KINDS.customer) return make(kind);
    if (!extra.has(kind)) extra.set(kind, customerOf(t, make));
    return extra.get(kind)!;
  };
}

/** A customer (made by a purchase), read through the owner's dashboard. */
async function customerOf(t: Tenant, make: (kind: string) => Promise<Made>): Promise<Made> {
  const policy = await ok(await t.write.get(`business/policies/${(await make("/business/policies/{id}")).id}`));
  const email = `customer-${unique()}@example.test`;
  await buyPolicy(t.write, policy, email);
  const list = await trpc<{ data: { id: string; email: string }[] }>(
    t.account,
    "customers.list",
    { q: email, limit: 10 },
    "query",
  );
  const customer = list.data.find((c) => c.email === email);
  if (!customer) throw new Error(`customer ${email} not listed`);
  return { id: customer.id, read: () => trpc(t.account, "customers.get", { id: customer.id }, "query") };
}

/** What the records read now; one that cannot be read any more (removed) reads as such, for the comparison to show. */
const snapshot = (records: Made[]) =>
  Promise.all(records.map((r) => r.read().catch((err: Error) => ({ unreadable: err.message.split("\n")[0] }))));

/** Reads `records` until two reads a second apart agree (webhook deliveries of records just made settle in the worker). */
async function settled(records: Made[]) {
  let last = JSON.stringify(await Promise.all(records.map((r) => r.read())));
  for (let i = 0; i < 15; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = JSON.stringify(await Promise.all(records.map((r) => r.read())));
    if (next === last) return;
    last = next;
  }
  throw new Error("the records kept changing for 15 s");
}

/**
 * Runs `task` for every operation, those naming the same kinds of record one
 * after the other (a change and a removal of one record are not raced: that
 * is another matrix), the rest at once.
 */
async function byRecord(ops: DashboardOperation[], task: (op: DashboardOperation) => Promise<void>) {
  // Operations sharing a kind of record, through any chain of them, make one group.
  let groups: { kinds: Set<string>; ops: DashboardOperation[] }[] = [];
  for (const op of ops) {
    const kinds = new Set(recordFields(op).map((f) => f.kind));
    const joined = groups.filter((g) => [...kinds].some((k) => g.kinds.has(k)));
    groups = groups.filter((g) => !joined.includes(g));
    groups.push({
      kinds: new Set([...kinds, ...joined.flatMap((g) => [...g.kinds])]),
      ops: [...joined.flatMap((g) => g.ops), op],
    });
  }
  await pool(groups, CONCURRENCY, async (group) => {
    for (const op of group.ops) await task(op);
  });
}

/** The signed-in user's operations naming records, with their record fields. */
function recordCases(procedures: DashboardOperation[], keep: (kind: string) => boolean = () => true) {
  return procedures
    .filter(isSignedInOperation)
    .map((op) => ({ op, fields: recordFields(op).filter((f) => keep(f.kind)) }))
    .filter((c) => c.fields.length > 0);
}

const sameAnswer = (a: TrpcAnswer, b: TrpcAnswer) =>
  a.status === b.status && a.code === b.code && JSON.stringify(a.data) === JSON.stringify(b.data);

interface Caller {
  /** Who calls, in the failure messages. */
  who: string;
  session: APIRequestContext;
  cases: ReturnType<typeof recordCases>;
}

/**
 * Each caller names the owner's real records in every record field of each of
 * its operations: 404 `not_found`, and each record reads the same before and
 * after. An answer that is not 404 passes only when it is exactly the answer
 * to an id that does not exist and changes nothing (a filter on a list, a
 * refusal made before any record is looked up): the real id tells the caller
 * nothing. The callers run at once, on one set of the owner's records.
 */
async function foreignRecordCases(callers: Caller[], make: (kind: string) => Promise<Made>) {
  const all = callers.flatMap(({ who, session, cases }) => cases.map((c) => ({ who, session, ...c })));
  const kinds = [...new Set(all.flatMap((c) => c.fields.map((f) => f.kind)))];
  await settled(await Promise.all(kinds.map((k) => make(k))));
  const failures: string[] = [];
  const blind: string[] = [];
  await pool(all, CONCURRENCY, async ({ who, session, op, fields }) => {
    const used = await Promise.all(fields.map((f) => make(f.kind)));
    const hints = Object.fromEntries(fields.map((f, i) => [f.field, used[i]!.id]));
    const label = `${op.type} ${op.path} by ${who} with ${fields.map((f) => `${f.field} = ${f.kind}`).join(", ")}`;
    // A change is watched: the records are read before and after it (a query changes nothing it names).
    const watched = op.type === "mutation" ? used : [];
    const before = await snapshot(watched);
    const res = await callValid(session, op, hints);
    if (res.status !== 404 || res.code !== "not_found") {
      const unknown = await callValid(session, op, Object.fromEntries(fields.map((f) => [f.field, unknownId()])));
      // Never an input the server refused: then the record was not reached, and nothing is proven.
      const harmless =
        sameAnswer(res, unknown) &&
        res.status < 500 &&
        res.code !== "validation_failed" &&
        (op.type === "query" || res.status >= 400);
      if (harmless) blind.push(`${op.path} by ${who}: ${res.status} ${res.code ?? ""}`);
      else failures.push(`${label}: expected 404 not_found, got ${describeTrpc(res)} (an unknown id: ${describeTrpc(unknown)})`);
    }
    const after = await snapshot(watched);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      failures.push(
        `${label}: the record changed\n  before ${JSON.stringify(before).slice(0, 600)}\n  after  ${JSON.stringify(after).slice(0, 600)}`,
      );
    }
  });
  return { failures, blind: blind.sort(), checked: all.length };
}

test.describe("session matrix: the dashboard (every tRPC procedure the app router declares)", () => {
  test.describe.configure({ timeout: 180_000 });

  test("another organization's member, or a member in the test view, naming a live record → 404 not_found, the record unchanged", async () => {
    const receiver = await startReceiver();
    const a = await tenantWithClients();
    // B: the owner of another organization. And an ADMIN of A's own (no role check answers before the
    // record is looked up) with the dashboard's test view on: A's live records are not there.
    const [b, { account: viewer }] = await Promise.all([signUp(), joinTeam(a, "ADMIN")]);
    await trpc(viewer, "organizations.setMode", { livemode: false });
    const me = await trpc<{ livemode: boolean; role: string }>(viewer, "organizations.me", undefined, "query");
    expect(me, "the member's dashboard shows the test data").toMatchObject({ livemode: false, role: "ADMIN" });
    const { procedures } = loadManifest();
    const cases = recordCases(procedures);
    // The team, the organization and API keys are shared by both modes (README, Test mode).
    const testView = recordCases(procedures, (kind) => !sharedByModes(kind));
    const { failures, blind, checked } = await foreignRecordCases(
      [
        { who: "B's owner", session: b.session, cases },
        { who: "A's ADMIN in the test view", session: viewer.session, cases: testView },
      ],
      recordsFor(a, receiver),
    );
    await receiver.close();
    if (blind.length)
      console.log(`answered as for an unknown id (a filter, or refused before the lookup):\n  ${blind.join("\n  ")}`);
    report("another organization's records, live records in the test view", cases.length, checked);
    expectNoFailures(failures, checked);
  });

  test("a MEMBER where only an ADMIN may → 403 forbidden, the records unchanged (the admin's operations read from the answers)", async () => {
    const receiver = await startReceiver();
    const a = await tenantWithClients();
    const [member, admin] = await Promise.all([joinTeam(a, "MEMBER"), joinTeam(a, "ADMIN")]);
    const ops = loadManifest().procedures.filter(isMemberOperation);
    // Records of their own organization. The ADMIN comes second, on the same records: what a MEMBER was allowed
    // may have changed or removed one, and then the ADMIN's answer is a 404 or a conflict — never a 403.
    const records = recordsFor(a, receiver);
    const kinds = [...new Set(ops.flatMap((op) => recordFields(op).map((f) => f.kind)))];
    await settled(await Promise.all(kinds.map((k) => records(k))));
    const failures: string[] = [];
    const refused = new Map<string, TrpcAnswer>();
    // The MEMBER first, every record read before and after…
    await byRecord(ops, async (op) => {
      const fields = recordFields(op);
      const used = await Promise.all(fields.map((f) => records(f.kind)));
      const before = await snapshot(op.type === "mutation" ? used : []);
      const res = await callValid(member.account.session, op, Object.fromEntries(fields.map((f, i) => [f.field, used[i]!.id])));
      if (res.status >= 500) failures.push(`${op.type} ${op.path} as a MEMBER: ${describeTrpc(res)}`);
      if (res.status === 403) {
        refused.set(op.path, res);
        if (res.code !== "forbidden")
          failures.push(`${op.type} ${op.path} as a MEMBER: expected 403 forbidden, got ${describeTrpc(res)}`);
        const after = await snapshot(op.type === "mutation" ? used : []);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          failures.push(
            `${op.type} ${op.path} as a MEMBER (refused): the record changed\n  before ${JSON.stringify(before).slice(0, 600)}\n  after  ${JSON.stringify(after).slice(0, 600)}`,
          );
        }
      }
    });
    // …then an ADMIN: what a MEMBER is refused, an ADMIN is not (it succeeds, or fails on its input or the record's state).
    const ownerOnly: string[] = [];
    await byRecord(ops, async (op) => {
      const fields = recordFields(op);
      const used = await Promise.all(fields.map((f) => records(f.kind)));
      const res = await callValid(admin.account.session, op, Object.fromEntries(fields.map((f, i) => [f.field, used[i]!.id])));
      if (res.status >= 500) failures.push(`${op.type} ${op.path} as an ADMIN: ${describeTrpc(res)}`);
      // The sample must reach the service: an input refused even to an ADMIN proves nothing about the MEMBER.
      if (res.code === "validation_failed")
        failures.push(`${op.type} ${op.path}: no valid input could be sampled: ${describeTrpc(res)}`);
      if (res.status === 403) {
        // An owner's own decision (the two-factor requirement): the OWNER is not refused.
        const asOwner = await callValid(a.account.session, op, Object.fromEntries(fields.map((f, i) => [f.field, used[i]!.id])));
        if (asOwner.status === 403 || asOwner.status >= 500) {
          failures.push(
            `${op.type} ${op.path} as an ADMIN: refused (${describeTrpc(res)}), and as the OWNER: ${describeTrpc(asOwner)} — a session's refusal is by role`,
          );
        } else ownerOnly.push(op.path);
      }
    });
    if (ownerOnly.length) console.log(`owner-only operations (an ADMIN answered 403, the OWNER did not):\n  ${ownerOnly.join("\n  ")}`);
    await receiver.close();
    const adminOnly = [...refused.keys()].sort();
    console.log(`admin-only operations (a MEMBER answered 403):\n  ${adminOnly.join("\n  ")}`);
    // One resource, one rule: a MEMBER refused one change of a router's resource and allowed another is a door
    // that forgot its check (or a rule to say here).
    const mutations = ops.filter((op) => op.type === "mutation");
    for (const routerName of new Set(mutations.map((op) => op.path.split(".").slice(0, -1).join(".")))) {
      const of = mutations.filter((op) => op.path.startsWith(`${routerName}.`));
      const [no, yes] = [of.filter((op) => refused.has(op.path)), of.filter((op) => !refused.has(op.path))];
      if (no.length && yes.length) {
        failures.push(
          `${routerName}: a MEMBER is refused ${no.map((op) => op.path).join(", ")} but allowed ${yes.map((op) => op.path).join(", ")}`,
        );
      }
    }
    // Every organization has a part only admins change (team, keys, settings): an empty set means the inference failed.
    expect(
      adminOnly.filter((p) => ops.find((op) => op.path === p)?.type === "mutation").length,
      "admin-only mutations",
    ).toBeGreaterThan(0);
    report("MEMBER and ADMIN roles", ops.length, ops.length * 2);
    expectNoFailures(failures, ops.length);
  });

  test("no session (or a forged one) → 401 unauthenticated on every procedure that is not public", async () => {
    const { procedures } = loadManifest();
    const ops = procedures.filter((op) => !isPublic(op));
    const forged = await request.newContext({
      baseURL: BASE_URL,
      extraHTTPHeaders: { Origin: BASE_URL, Cookie: `better-auth.session_token=${unique()}.${unique()}` },
    });
    const failures: string[] = [];
    let checked = 0;
    await pool(ops, CONCURRENCY, async (op) => {
      const hints = unknownRecordIds(op, unknownId);
      for (const [who, session] of [
        ["no session", null],
        ["a forged session cookie", forged],
      ] as const) {
        const res = await callValid(session, op, hints);
        if (res.status !== 401 || res.code !== "unauthenticated") {
          failures.push(`${op.type} ${op.path} with ${who}: expected 401 unauthenticated, got ${describeTrpc(res)}`);
        }
        checked++;
      }
    });
    await forged.dispose();
    report("no session", ops.length, checked);
    expectNoFailures(failures, checked);
  });

  test("a platform-admin procedure → 404 not_found to an organization's owner (and answers the platform admin)", async () => {
    const { procedures } = loadManifest();
    const ops = procedures.filter((op) => op.platformAdmin);
    const owner = await signUp();
    const admin = await signInPlatformAdmin();
    const failures: string[] = [];
    let checked = 0;
    await pool(ops, CONCURRENCY, async (op) => {
      const hints = unknownRecordIds(op, unknownId);
      const res = await callValid(owner.session, op, hints);
      if (res.status !== 404 || res.code !== "not_found") {
        failures.push(`${op.type} ${op.path} as an owner: expected 404 not_found, got ${describeTrpc(res)}`);
      }
      checked++;
      // The control: the surface exists for the platform admin (a query naming no record answers).
      if (op.type === "query" && Object.keys(hints).length === 0) {
        const own = await callValid(admin.session, op, hints);
        if (own.status !== 200)
          failures.push(`${op.type} ${op.path} as the platform admin: expected 200, got ${describeTrpc(own)}`);
        checked++;
      }
    });
    report("platform admin", ops.length, checked);
    expectNoFailures(failures, checked);
  });

  test("every record an input names has a kind the matrix can make", async () => {
    const { procedures } = loadManifest();
    expect(procedures.length, "procedures in the manifest").toBeGreaterThan(0);
    const missing: string[] = [];
    for (const op of procedures.filter(isSignedInOperation)) {
      try {
        recordFields(op);
      } catch (err) {
        missing.push((err as Error).message);
      }
    }
    expect(missing, missing.join("\n")).toEqual([]);
    // No subscription is served over plain HTTP: the matrix would not reach one.
    expect(procedures.filter((op) => op.type === "subscription").map((op) => op.path)).toEqual([]);
  });
});

// ---------- the policyholder portal ----------

/** A portal session: asks for a code, reads it from the outbox, signs in; answers the Cookie header. */
async function portalSignIn(organizationId: string, email: string): Promise<string> {
  const headers = { Origin: BASE_URL, "content-type": "application/json" };
  const asked = await fetch(`${BASE_URL}/api/portal/${organizationId}/code`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email }),
  });
  expect(asked.status, await asked.text()).toBe(202);
  const mails = await waitForMailbox(email, (m) => m.some((x) => /sign-in code/i.test(x.subject)), "a sign-in code");
  const code = /(\d{6}) is your/.exec(mails.filter((x) => /sign-in code/i.test(x.subject)).at(-1)!.subject)![1]!;
  const signed = await fetch(`${BASE_URL}/api/portal/${organizationId}/session`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, code }),
  });
  expect(signed.status, await signed.text()).toBe(200);
  const token = /cd_portal=([^;]+)/.exec(signed.headers.get("set-cookie") ?? "")?.[1];
  if (!token) throw new Error("no cd_portal cookie after sign-in");
  return `cd_portal=${token}`;
}

interface PortalAnswer {
  status: number;
  type: string;
  text: string;
}

/**
 * One portal request: GET, or a multipart form (the portal's claim form)
 * carrying `coverageId` for a change — with no body where no session is
 * expected to pass: the session is checked first, and a server refusing before
 * it reads closes the connection under a client still writing (EPIPE).
 */
async function portalSend(
  method: string,
  path: string,
  cookie: string | null,
  coverageId: string | null,
  route?: PortalRoute,
): Promise<PortalAnswer> {
  const headers: Record<string, string> = { Origin: BASE_URL, ...(cookie ? { Cookie: cookie } : {}) };
  let body: FormData | string | undefined;
  if (route?.body?.type === "json" && coverageId !== null) {
    // A JSON route: a body its schema accepts.
    body = JSON.stringify(sampleBody(route.body.schema));
    headers["content-type"] = "application/json";
  } else if (method !== "GET" && method !== "DELETE" && coverageId !== null) {
    body = new FormData();
    body.append("coverageId", coverageId);
    body.append("type", "theft");
    body.append("description", "Session matrix");
    body.append("amount", "10");
    const pdf = samplePdfPart("evidence.pdf");
    body.append("file1", new Blob([new Uint8Array(pdf.buffer)], { type: pdf.mimeType }), pdf.name);
  }
  // A connection the server closed under this client (a keep-alive race, or an early refusal while the
  // body was still going out) is no answer: ask again on a new one, at most twice.
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${BASE_URL}${path}`, { method, headers, body, redirect: "manual" });
      return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
    } catch (err) {
      if (!(err instanceof TypeError) || attempt === 3) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const describePortal = (a: PortalAnswer) => `${a.status} ${a.type} ${a.text.slice(0, 200)}`.replace(/\s+/g, " ");

test.describe("session matrix: the policyholder portal (every route under src/app/api/portal)", () => {
  test.describe.configure({ timeout: 180_000 });

  test("no session → 401; another policyholder → 404 for the first one's records, nothing changed; another business's session → 401", async () => {
    const routes = portalRoutes(loadManifest());
    expect(routes.length, "portal routes").toBeGreaterThan(0);
    // Business A: Alice (a coverage and a claim with evidence) and Bob (a coverage of his own); business X: Carol.
    const [a, x] = [await tenantWithClients(), await tenantWithClients()];
    const [alice, bob, carol] = ["alice", "bob", "carol"].map((n) => `${n}-${unique()}@example.test`) as [string, string, string];
    const policy = await createPolicyFor(a.write);
    // With automatic renewal: her card is saved, so switching it and removing the card are hers to do.
    const alicePaid = await buyPolicy(a.write, policy, alice, { autoRenew: true });
    const aliceCover = alicePaid.coverage as { id: string };
    await buyPolicy(a.write, policy, bob);
    await buyPolicy(x.write, await createPolicyFor(x.write), carol);
    const claim = await ok(
      await a.write.post("claims", {
        data: { policyId: policy.id, type: "theft", description: "Alice's laptop", amount: 100, email: alice },
      }),
      201,
    );
    await ok(await a.write.post(`claims/${claim.id}/attachments`, { multipart: { file: samplePdfPart("evidence.pdf") } }), 201);
    // Approved, so that Alice herself may say where to be paid (the control below).
    for (const status of ["under_review", "approved"])
      await ok(await a.write.patch(`claims/${claim.id}/status`, { data: { status } }));
    const attachment = (await ok<{ data: { id: string }[] }>(await a.write.get(`claims/${claim.id}/attachments`))).data[0]!;
    const [aliceCookie, bobCookie, carolCookie] = await Promise.all([
      portalSignIn(a.organizationId, alice),
      portalSignIn(a.organizationId, bob),
      portalSignIn(x.organizationId, carol),
    ]);
    // Alice's records by the name of the parameter that names them.
    const aliceRecords: Record<string, string> = {
      coverageId: aliceCover.id,
      claimId: claim.id,
      attachmentId: attachment.id,
      reference: alicePaid.reference as string,
    };
    // What Alice's business holds: her coverage, every claim and payment (a renewal or a claim getting through would show).
    const state = async () => ({
      coverages: await trpc(a.account, "coverages.list", { limit: 100 }, "query"),
      claims: await trpc(a.account, "claims.list", { limit: 100 }, "query"),
      payments: await trpc(a.account, "payments.list", { limit: 100 }, "query"),
    });
    const before = JSON.stringify(await state());

    const failures: string[] = [];
    const signedOut: string[] = [];
    let checked = 0;
    const pathOf = (r: (typeof routes)[number], organizationId: string) => {
      const missing = r.params.filter((p) => !(p in aliceRecords));
      if (missing.length)
        throw new Error(`${r.method} ${r.path}: no record for {${missing.join("}, {")}} — add one to the portal case`);
      return fillPath(r.path, { organizationId, ...aliceRecords });
    };
    const sessionRoutes: typeof routes = [];
    for (const r of routes) {
      const path = pathOf(r, a.organizationId);
      const none = await portalSend(r.method, path, null, null);
      checked++;
      if (none.status === 401) {
        sessionRoutes.push(r);
        continue;
      }
      // Where the operation table declares the route, a signed-in policyholder's route says so.
      if (r.auth?.includes("portal")) {
        failures.push(
          `${r.method} ${r.path} (declared for a signed-in policyholder) without a session: expected 401, got ${describePortal(none)}`,
        );
        continue;
      }
      // Only a route naming no record may answer without a session (signing in, signing out, the public logo),
      // and it hands out nothing it makes: no 200/201 to a change.
      if (r.params.length > 0 || none.status >= 500 || (r.method !== "GET" && (none.status === 200 || none.status === 201))) {
        failures.push(`${r.method} ${r.path} without a session: expected 401, got ${describePortal(none)}`);
      } else signedOut.push(`${r.method} ${r.path} → ${none.status}`);
    }
    // Routes naming a record all take a session, or the matrix above failed; every session route is checked below.
    await pool(sessionRoutes, CONCURRENCY, async (r) => {
      const path = pathOf(r, a.organizationId);
      // A route naming no record is the policyholder's own (their contact preferences): each session is
      // answered about itself, so another policyholder is not refused; another business's session is.
      const own = r.params.length === 0;
      const other = await portalSend(r.method, path, bobCookie, aliceCover.id, r);
      if (own && (other.status === 401 || other.status >= 500)) {
        failures.push(`${r.method} ${r.path} with another policyholder's session: expected their own answer, got ${describePortal(other)}`);
      } else if (!own && (other.status !== 404 || !other.type.startsWith("application/problem+json"))) {
        failures.push(`${r.method} ${r.path} with another policyholder's session: expected 404, got ${describePortal(other)}`);
      }
      const elsewhere = await portalSend(r.method, path, carolCookie, null);
      if (elsewhere.status !== 401) {
        failures.push(`${r.method} ${r.path} with a session of another business: expected 401, got ${describePortal(elsewhere)}`);
      }
      // Carol on her own business's path naming Alice's records: not hers, not there.
      const crossed = await portalSend(r.method, pathOf(r, x.organizationId), carolCookie, aliceCover.id, r);
      if (!own && crossed.status !== 404) {
        failures.push(
          `${r.method} ${r.path} at Carol's business naming Alice's records: expected 404, got ${describePortal(crossed)}`,
        );
      }
      checked += 3;
    });
    const after = JSON.stringify(await state());
    if (after !== before)
      failures.push(`Alice's business changed:\n  before ${before.slice(0, 800)}\n  after  ${after.slice(0, 800)}`);
    // The control: Alice herself is answered on every session route — cancelling her cover last, as it ends it
    // (the quote and renewal of a cancelled cover are refused, by design).
    // Removing her saved card comes after switching automatic renewal (which needs the card).
    const endsTheCover = (r: PortalRoute) => (/\/cancel$/.test(r.path) ? 2 : /\/card$/.test(r.path) ? 1 : 0);
    for (const r of [...sessionRoutes].sort((x, y) => endsTheCover(x) - endsTheCover(y))) {
      const own = await portalSend(r.method, pathOf(r, a.organizationId), aliceCookie, aliceCover.id, r);
      if (own.status >= 300)
        failures.push(`${r.method} ${r.path} with Alice's own session: expected a success, got ${describePortal(own)}`);
      checked++;
    }
    console.log(`portal routes answered without a session: ${signedOut.join(", ")}`);
    report("portal", routes.length, checked);
    expect(sessionRoutes.length, "portal routes taking a session").toBeGreaterThan(0);
    expectNoFailures(failures, checked);
  });
});
