// The security matrix, generated from the app's own OpenAPI document: every
// REST operation, with no list kept by hand, is checked for
//   no key → 401, a revoked key → 401, a read-only key on a write → 403
//   with nothing written, another organization's real record → 404 with that
//   record unchanged, an unknown id → 404.
// Every write carries a body the server would accept (a real multipart form
// with a PDF for an upload), so a missing check would really write.
// Each path parameter stands for a record kind (its path template up to the
// parameter); a factory below creates a real one through the public API. An
// operation whose parameter no factory covers fails the matrix, so a new
// endpoint is covered the day it is added.
import { expect, test } from "@playwright/test";
import { unique } from "../support/api";
import {
  apiJson,
  apiSend,
  bodySchema,
  deletePath,
  fillPath,
  isRequired,
  loadApi,
  parameterKinds,
  problemCode,
  problemDefect,
  sampleBody,
  type Answer,
  type ApiDocument,
  type Operation,
} from "../support/openapi";
import { ok, otherSide, startReceiver, tenantWithClients } from "./_helpers";
import { factories, NAMES_NOT_RECORDS, recordsOf } from "./_records";

/** Operations with a path parameter that names one organization's record (not a name every organization has). */
const onRecords = (op: Operation) =>
  op.pathParams.length > 0 && !parameterKinds(op.path).every(({ kind }) => NAMES_NOT_RECORDS.has(kind));

const unknownId = () => `zz${unique()}${unique()}`;
/** Every generated check runs with live keys and again with test keys (the organization's test twin). */
const MODES = ["live", "test"] as const;
const describeAnswer = (a: Answer) => `${a.status} ${a.text.slice(0, 300)}`;

/**
 * A test key changing what live shares — the profile, team and invitations
 * under its own organization, the settings and logo — is refused before any
 * record is looked up: 403 `forbidden` (SPEC §2; the permission step comes
 * before the record's 404). Another organization's id is a 404 all the same.
 */
const refusedToTestKeys = (mode: (typeof MODES)[number], op: Operation, ownAccount: boolean) =>
  mode === "test" &&
  op.method !== "GET" &&
  ((op.path.startsWith("/organizations/{accountID}") && ownAccount) ||
    op.path.startsWith("/business/settings") ||
    op.path.startsWith("/business/notification-templates"));

/** The operation's body, if any (JSON, or a form with a real PDF in each file field): every field the schema declares. */
function bodyFor(api: ApiDocument, op: Operation) {
  return sampleBody(api.doc, op, { rich: true, tag: unique() });
}

/**
 * Sends `op` at `path` with a body the server accepts as input: a 422 naming
 * optional fields drops them and retries (input is checked before any record,
 * so a 422 touched nothing). A 422 on a required field stays the answer.
 */
async function sendValid(api: ApiDocument, op: Operation, path: string, key: string): Promise<Answer> {
  const body = bodyFor(api, op);
  const schema = bodySchema(op);
  for (let i = 0; ; i++) {
    const res = await apiSend(op, path, key, body);
    if (res.status !== 422 || !schema || i >= 5) return res;
    const paths = ((JSON.parse(res.text) as { errors?: { path: string }[] }).errors ?? []).map((e) => e.path);
    if (paths.length === 0 || paths.some((p) => isRequired(api.doc, schema, p) || !deletePath(body, p))) return res;
  }
}

/**
 * What moves with every request (the read-only key's refused writes and these
 * reads included) is not a write: a key's `lastUsedAt`, and the API-usage
 * metering — the overview's `apiRequests`, and the usage report as a whole.
 */
const withoutUseTimes = (text: string): unknown =>
  JSON.parse(text, (k, v: unknown) => (k === "lastUsedAt" || k === "apiRequests" ? undefined : v));
const METERED = new Set(["/business/analytics/api-usage"]);

/**
 * What the tenant can read: every GET operation's answer (first 100 of a
 * list), its own records in the path parameters. Generated like the rest: a
 * new resource is looked at the day it is added.
 */
async function everythingReadable(api: ApiDocument, make: (kind: string) => Promise<{ id: string }>, key: string) {
  const out: Record<string, unknown> = {};
  for (const op of api.operations.filter((o) => o.method === "GET")) {
    const own = await Promise.all(parameterKinds(op.path).map(async ({ name, kind }) => [name, (await make(kind)).id] as const));
    const query = op.queryParams.some((p) => p.name === "limit") ? "?limit=100" : "";
    const res = await apiJson("GET", `${fillPath(op.path, Object.fromEntries(own))}${query}`, key);
    out[`GET ${op.path}`] = {
      status: res.status,
      body:
        res.status >= 300
          ? problemCode(res)
          : METERED.has(op.path)
            ? "(metered)"
            : // A file made on demand (a certificate: issued now) is judged by what it is, not its bytes.
              !/json/.test(res.headers["content-type"] ?? "")
              ? { file: res.headers["content-type"], disposition: res.headers["content-disposition"] }
              : withoutUseTimes(res.text),
    };
  }
  return out;
}

/** `everythingReadable` once it stops moving (webhook deliveries of the records just made arrive from the worker). */
async function settledReads(api: ApiDocument, make: (kind: string) => Promise<{ id: string }>, key: string) {
  let last = await everythingReadable(api, make, key);
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await everythingReadable(api, make, key);
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  throw new Error("the tenant's reads kept changing for 10 s before the read-only writes");
}

function expectNoFailures(failures: string[], checked: number) {
  expect(checked, "operations checked").toBeGreaterThan(0);
  expect(failures, `\n${failures.join("\n")}\n`).toEqual([]);
}

/** Checks an answer's status and problem code; a message when wrong. */
function mismatch(a: Answer, status: number, code: string | undefined, method: string): string | null {
  const defect = problemDefect(a, method);
  if (a.status !== status || (code && problemCode(a) !== code) || defect) {
    return `expected ${status}${code ? ` ${code}` : ""}, got ${describeAnswer(a)}${defect ? ` (${defect})` : ""}`;
  }
  return null;
}

test.describe("security matrix (every operation of /api/v1/openapi.json)", () => {
  // A few hundred requests per test; the slowest (another organization's records) makes ~150.
  test.describe.configure({ timeout: 240_000 });

  test("every path parameter names a record kind a factory can create", async () => {
    const api = await loadApi();
    const missing = api.operations.flatMap((op) =>
      parameterKinds(op.path)
        .filter(({ kind }) => !factories[kind])
        .map(({ kind }) => `${op.method} ${op.path}: no factory for ${kind} — add one to security-matrix.spec.ts`),
    );
    expect(missing, missing.join("\n")).toEqual([]);
  });

  test("no key → 401 missing_api_key; a revoked key (live or test) → 401 revoked_api_key", async () => {
    const api = await loadApi();
    const a = await tenantWithClients();
    const revokedKeys: string[] = [];
    for (const mode of ["live", "test"]) {
      const revoked = await ok(
        await a.write.post("business/api-keys", { data: { name: "gone", permissions: ["read", "write"], mode } }),
        201,
      );
      await ok(await a.write.delete(`business/api-keys/${revoked.id}`));
      revokedKeys.push(revoked.key);
    }
    const failures: string[] = [];
    for (const op of api.operations) {
      const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p.name, unknownId()])));
      // No body: the key is checked first, and a server that refuses before reading a large upload
      // closes the connection under a client still writing it (EPIPE), which says nothing about the key.
      const body = undefined;
      const none = mismatch(await apiSend(op, path, undefined, body), 401, "missing_api_key", op.method);
      if (none) failures.push(`${op.method} ${op.path} without a key: ${none}`);
      for (const revoked of revokedKeys) {
        const gone = mismatch(await apiSend(op, path, revoked, body), 401, "revoked_api_key", op.method);
        if (gone) failures.push(`${op.method} ${op.path} with a revoked ${revoked.slice(3, 7)} key: ${gone}`);
      }
    }
    expectNoFailures(failures, api.operations.length);
  });

  for (const mode of MODES) {
    test(`a read-only ${mode} key on every write → 403 insufficient_permissions, nothing written`, async () => {
      const api = await loadApi();
      const a = await tenantWithClients(undefined, mode);
      const receiver = await startReceiver();
      const make = recordsOf(a, receiver);
      const writes = api.operations.filter((op) => op.permission === "write");
      // Every record the writes and reads name exists before the first look.
      const kinds = new Set(api.operations.flatMap((op) => parameterKinds(op.path).map((k) => k.kind)));
      for (const kind of kinds) await make(kind);
      const before = await settledReads(api, make, a.writeKey);
      const failures: string[] = [];
      for (const op of writes) {
        // The key's own real records and a valid body: without the check the write would happen.
        const own = await Promise.all(
          parameterKinds(op.path).map(async ({ name, kind }) => [name, (await make(kind)).id] as const),
        );
        const res = await apiSend(op, fillPath(op.path, Object.fromEntries(own)), a.readKey, bodyFor(api, op));
        const m = mismatch(res, 403, "insufficient_permissions", op.method);
        if (m) failures.push(`${op.method} ${op.path} with a read-only key: ${m}`);
      }
      const after = await everythingReadable(api, make, a.writeKey);
      for (const [read, answer] of Object.entries(after)) {
        if (JSON.stringify(answer) !== JSON.stringify(before[read])) {
          failures.push(
            `${read} changed after the read-only writes\n  before ${JSON.stringify(before[read]).slice(0, 600)}\n  after  ${JSON.stringify(answer).slice(0, 600)}`,
          );
        }
      }
      await receiver.close();
      expectNoFailures(failures, writes.length);
    });

    test(`another organization's real record (${mode} keys) → 404, and the record is unchanged`, async () => {
      const api = await loadApi();
      const receiver = await startReceiver();
      const [a, b] = [await tenantWithClients(undefined, mode), await tenantWithClients(undefined, mode)];
      const [ofA, ofB] = [recordsOf(a, receiver), recordsOf(b, receiver)];
      const failures: string[] = [];
      let checked = 0;
      for (const op of api.operations.filter(onRecords)) {
        const kinds = parameterKinds(op.path);
        // B's records in every parameter; with several, also one of B's among the key's own ones.
        const variants = [kinds.map(() => true), ...(kinds.length > 1 ? kinds.map((_, i) => kinds.map((__, j) => i === j)) : [])];
        for (const fromB of variants) {
          const used = await Promise.all(kinds.map(({ kind }, i) => (fromB[i] ? ofB(kind) : ofA(kind))));
          const foreign = used.filter((_, i) => fromB[i]);
          const before = await Promise.all(foreign.map((r) => r.read()));
          const path = fillPath(op.path, Object.fromEntries(kinds.map(({ name }, i) => [name, used[i]!.id])));
          const res = await sendValid(api, op, path, a.writeKey);
          const label = `${op.method} ${op.path} with ${kinds.map(({ name }, i) => `${name} of ${fromB[i] ? "B" : "A"}`).join(", ")}`;
          const refused = refusedToTestKeys(mode, op, kinds[0]?.name === "accountID" && !fromB[0]);
          const m = refused ? mismatch(res, 403, "forbidden", op.method) : mismatch(res, 404, "not_found", op.method);
          if (m) failures.push(`${label}: ${m}`);
          const after = await Promise.all(foreign.map((r) => r.read()));
          if (JSON.stringify(after) !== JSON.stringify(before)) {
            failures.push(`${label}: B's record changed\n  before ${JSON.stringify(before)}\n  after  ${JSON.stringify(after)}`);
          }
          checked++;
        }
      }
      await receiver.close();
      expectNoFailures(failures, checked);
    });

    test(`an unknown id in any path parameter (${mode} keys) → 404 not_found`, async () => {
      const api = await loadApi();
      const a = await tenantWithClients(undefined, mode);
      const make = recordsOf(a, await startReceiver());
      const failures: string[] = [];
      let checked = 0;
      for (const op of api.operations.filter((o) => o.pathParams.length > 0)) {
        const kinds = parameterKinds(op.path);
        // Each parameter unknown in turn, the others the key's own real records.
        for (let i = 0; i < kinds.length; i++) {
          const values = await Promise.all(kinds.map(async ({ kind }, j) => (i === j ? unknownId() : (await make(kind)).id)));
          const path = fillPath(op.path, Object.fromEntries(kinds.map(({ name }, j) => [name, values[j]!])));
          const res = await sendValid(api, op, path, a.writeKey);
          const refused = refusedToTestKeys(mode, op, kinds[0]?.name === "accountID" && i !== 0);
          const m = refused ? mismatch(res, 403, "forbidden", op.method) : mismatch(res, 404, "not_found", op.method);
          if (m) failures.push(`${op.method} ${op.path} with an unknown ${kinds[i]!.name}: ${m}`);
          checked++;
        }
      }
      expectNoFailures(failures, checked);
    });
  }

  // Test mode keeps data apart inside one organization: a test key is refused every live record
  // of its own organization (404, unchanged), and a live key every test record. Shared by both
  // modes, and so left out: the organization's own endpoints (team, invitations — user-scoped
  // under /organizations) and, for a live key, test API keys (a live key manages keys of both modes).
  for (const [keyMode, recordMode] of [
    ["test", "live"],
    ["live", "test"],
  ] as const) {
    test(`a ${keyMode} key on every ${recordMode} record of its own organization → 404, the record unchanged`, async () => {
      const api = await loadApi();
      const receiver = await startReceiver();
      const live = await tenantWithClients(undefined, "live");
      const test = await otherSide(live, "test");
      const [caller, owner] = keyMode === "test" ? [test, live] : [live, test];
      const [ofCaller, ofOwner] = [recordsOf(caller, receiver), recordsOf(owner, receiver)];
      const shared = (path: string) =>
        path.startsWith("/organizations/") || (keyMode === "live" && path.startsWith("/business/api-keys/"));
      const failures: string[] = [];
      let checked = 0;
      for (const op of api.operations.filter((o) => onRecords(o) && !shared(o.path))) {
        const kinds = parameterKinds(op.path);
        // The other mode's records in every parameter; with several, one of them among the caller's own.
        const variants = [kinds.map(() => true), ...(kinds.length > 1 ? kinds.map((_, i) => kinds.map((__, j) => i === j)) : [])];
        for (const other of variants) {
          const used = await Promise.all(kinds.map(({ kind }, i) => (other[i] ? ofOwner(kind) : ofCaller(kind))));
          const foreign = used.filter((_, i) => other[i]);
          const before = await Promise.all(foreign.map((r) => r.read()));
          const path = fillPath(op.path, Object.fromEntries(kinds.map(({ name }, i) => [name, used[i]!.id])));
          const res = await sendValid(api, op, path, caller.writeKey);
          const label = `${op.method} ${op.path} with ${kinds.map(({ name }, i) => `${name} of ${other[i] ? recordMode : keyMode}`).join(", ")}`;
          const m = mismatch(res, 404, "not_found", op.method);
          if (m) failures.push(`${label}: ${m}`);
          const after = await Promise.all(foreign.map((r) => r.read()));
          if (JSON.stringify(after) !== JSON.stringify(before)) {
            failures.push(
              `${label}: the ${recordMode} record changed\n  before ${JSON.stringify(before)}\n  after  ${JSON.stringify(after)}`,
            );
          }
          checked++;
        }
      }
      await receiver.close();
      expectNoFailures(failures, checked);
    });
  }
});
