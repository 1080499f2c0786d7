// Hostile input is ordinary input. A fuzz suite generated from the app's own
// /api/v1/openapi.json — every method on every path, wrong types, missing and
// extra fields, NUL and lone surrogates, huge strings and numbers, bad JSON,
// nesting bombs, wrong content types, bad percent-encodings, unknown methods,
// and for every upload (multipart/form-data) hostile forms (./_fuzz-forms.ts) —
// at least 5 000 requests with a write key on a fresh tenant. Never a 5xx;
// every 4xx is problem+json with `code`, `status` and `requestId`; the app is
// healthy afterwards. Deterministic: FUZZ_SEED reproduces a run (FUZZ_CASES,
// FUZZ_CONCURRENCY tune it); failures print a curl line each.
import { expect, test } from "@playwright/test";
import { BASE_URL, trpc, unique } from "../support/api";
import {
  API_ROOT,
  apiRequest,
  fillPath,
  loadApi,
  parameterKinds,
  pool,
  problemCode,
  problemDefect,
  rawRequest,
  sample,
  type Answer,
  type Operation,
  type Schema,
} from "../support/openapi";
import { formCases } from "./_fuzz-forms";
import { ok, otherSide, startReceiver, tenantWithClients } from "./_helpers";
import { recordsOf } from "./_records";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const MIN_CASES = Number(process.env.FUZZ_CASES ?? 5000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 12);
/** CI budget in seconds, setup included: no request starts later (the test fails if any was left). */
const BUDGET_S = Number(process.env.FUZZ_BUDGET_S ?? 240);
/** Run only every n-th case: for a quick look on a slow machine (CI runs them all). */
const EVERY = Number(process.env.FUZZ_EVERY ?? 1);

/** mulberry32: a tiny seeded PRNG, so a run is reproducible from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

interface Case {
  kind: string;
  method: string;
  /** Under /api/v1, already percent-encoded (sent as is). */
  path: string;
  headers: Record<string, string>;
  /** JSON text, or the bytes of a hand-written multipart form. */
  body?: string | Uint8Array<ArrayBuffer>;
  /** Written on a socket byte for byte (methods and paths fetch would normalise or refuse). */
  raw?: boolean;
  /** What the contract fixes beyond "no 5xx, problem+json". */
  expect?: { status: number; code?: string };
  /** Could lower the tenant's rate limit: run these last, one at a time. */
  last?: boolean;
}

// ---------- hostile values ----------

/** Tokens JSON.stringify cannot produce, spliced into the JSON text. */
const RAW_TOKENS = ["1e400", "-1e400", "123456789012345678901234567890", "-0", "0.0000000000000000000001", "1E+2"];
const rawToken = (i: number) => `\u0001raw${i}\u0001`;

const NUL_OR_SURROGATE = ["a\u0000b", "\u0000", "\ud800", "x\udfffy", "\udc00\ud800"];
const WEIRD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.001,
  1e308,
  -1e308,
  2 ** 53 + 1,
  1e-300,
  "",
  " ",
  "x",
  "A".repeat(100_000),
  "9".repeat(400),
  "1e309",
  "NaN",
  "-1",
  "150.001",
  "0.00",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "../../etc/passwd",
  "😀".repeat(50),
  "\u202eevil",
  "${7*7}{{7*7}}",
  "%00",
  "\\\n\r\t\b\f",
  "2026-02-30T25:61:61Z",
  [],
  [null],
  ["x", "x", "x"],
  Array.from({ length: 2000 }, () => "x"),
  {},
  { a: 1 },
  { $gt: "" },
  ...NUL_OR_SURROGATE,
  ...RAW_TOKENS.map((_, i) => rawToken(i)),
];

/** Whole bodies: broken JSON, non-objects, bombs. */
const nest = (open: string, close: string, depth: number, inner = "1") => open.repeat(depth) + inner + close.repeat(depth);
const BAD_BODIES: [string, string][] = [
  ["truncated", '{"a":'],
  ["open brace", "{"],
  ["open bracket", "["],
  ["trailing comma", '{"a":1,}'],
  ["single quotes", "{'a':1}"],
  ["unquoted key", "{a:1}"],
  ["comment", '{"a":1 /* c */}'],
  ["NaN literal", '{"a":NaN}'],
  ["bare word", "nul"],
  ["BOM", '\ufeff{"a":1}'],
  ["two documents", "{}{}"],
  ["lone surrogate escape", '"\\ud800"'],
  ["bad escape", '{"a":"\\x41"}'],
  ["control char", '{"a":"\u0001"}'],
  ["null", "null"],
  ["number", "1"],
  ["string", '"s"'],
  ["array", "[]"],
  ["true", "true"],
  ["array bomb", nest("[", "]", 100_000, "")],
  ["object bomb", nest('{"a":', "}", 50_000)],
  ["unclosed bomb", "[".repeat(200_000)],
  ["duplicate keys", '{"name":"a","name":"b","name":{"x":1}}'],
  ["proto pollution", '{"__proto__":{"isAdmin":true,"permissions":["write"]},"constructor":{"prototype":{"x":1}}}'],
  ["many keys", JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i])))],
  ["long key", JSON.stringify({ ["k".repeat(100_000)]: 1 })],
  ["over the size limit", JSON.stringify({ name: "x".repeat(1_100_000) })],
];

const CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=utf-16",
  "application/jsonx",
  "*/*",
  "",
];

/** Query values, percent-encoded as sent. */
const b64 = (s: string) => Buffer.from(s).toString("base64url");
const QUERY_VALUES = [
  "",
  "-1",
  "0",
  "101",
  "1e309",
  "abc",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%FF",
  "%C0%AF",
  "x".repeat(5000),
  "%F0%9F%98%80",
  "true",
  "null",
  "%5B%5D",
  "1.5",
  "%20",
  "%27%20OR%201%3D1--",
  b64("2026-01-01T00:00:00.000Z|x"),
  b64("0001-01-01T00:00:00.000Z|a"),
  b64("+275760-09-13T00:00:00.000Z|a"),
  b64("2026-01-01T00:00:00.000Z|" + "a".repeat(100)),
  b64("garbage"),
  "%%",
];

/** Path parameter values, percent-encoded as sent. */
const PATH_VALUES = [
  "%00",
  "a%00b",
  "%2F",
  "%2E%2E",
  "x".repeat(101),
  "x".repeat(3000),
  "%C3%A9",
  "%F0%9F%98%80",
  "null",
  "0",
  "-1",
  "1e309",
  "%27%20OR%201%3D1--",
  "%25",
  "%5C",
  "%22%3E%3Cscript%3E",
  "%20",
  "cm0000000000000000000000",
];

/** Malformed percent-encodings: 400 invalid_path wherever they are in the path. */
const BAD_ENCODINGS = ["%", "%zz", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "%FF", "%f", "%%", "%u0041", "%2"];
// Methods Node's HTTP parser knows but the API does not. (A token outside the
// parser's table, e.g. FOO, is refused with a bare 400 before any app code runs.)
const UNKNOWN_METHODS = ["TRACE", "CONNECT", "PROPFIND", "MKCOL", "LINK", "M-SEARCH", "PURGE", "REPORT"];
const FETCH_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

// ---------- building cases ----------

/** Dotted paths of every field (and nested field, and first array item) of a sample value. */
function leafPaths(value: unknown, at = ""): string[] {
  if (Array.isArray(value)) return value.length > 0 ? [`${at}.0`.replace(/^\./, ""), ...leafPaths(value[0], `${at}.0`)] : [];
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => {
      const p = at ? `${at}.${k}` : k;
      return [p, ...leafPaths(v, p).filter((x) => x !== p)];
    });
  }
  return [];
}

function withValue(base: unknown, path: string, value: unknown, remove = false): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  const parts = path.split(".");
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  if (remove) delete node[parts.at(-1)!];
  else node[parts.at(-1)!] = value;
  return copy;
}

const toJson = (value: unknown) =>
  JSON.stringify(value).replace(/"\\u0001raw(\d+)\\u0001"/g, (_, i: string) => RAW_TOKENS[Number(i)]!);

const isNulOrSurrogate = (v: unknown) => typeof v === "string" && NUL_OR_SURROGATE.includes(v);

function generateCases(ops: Operation[], doc: Schema, ids: Record<string, string>, hints: Record<string, unknown>): Case[] {
  const rnd = prng(SEED);
  const cases: Case[] = [];
  const json = { "content-type": "application/json" };
  const realPath = (op: Operation, override: Record<string, string> = {}) =>
    fillPath(
      op.path,
      {
        ...Object.fromEntries(parameterKinds(op.path).map(({ name, kind }) => [name, encodeURIComponent(ids[kind]!)])),
        ...override,
      },
      false,
    );
  const baseOf = (op: Operation) => (op.body ? sample(doc, op.body, { rich: true, hints, tag: unique() }) : undefined);
  const isSettingsWrite = (op: Operation) => op.method !== "GET" && op.path === "/business/settings";
  const add = (op: Operation | undefined, c: Case) => cases.push(op && isSettingsWrite(op) ? { ...c, last: true } : c);

  for (const op of ops) {
    const path = realPath(op);
    const base = baseOf(op);
    // The well-formed request, then every field of its body made hostile, removed, or joined by an extra one.
    add(op, { kind: "valid", method: op.method, path, headers: json, body: base === undefined ? undefined : toJson(base) });
    if (op.body) {
      for (const field of leafPaths(base)) {
        for (const value of WEIRD_VALUES) {
          add(op, {
            kind: `body ${field}`,
            method: op.method,
            path,
            headers: json,
            body: toJson(withValue(base, field, value)),
            ...(isNulOrSurrogate(value) ? { expect: { status: 422, code: "validation_failed" } } : {}),
          });
        }
        add(op, {
          kind: `body without ${field}`,
          method: op.method,
          path,
          headers: json,
          body: toJson(withValue(base, field, 0, true)),
        });
      }
      for (const extra of [{ extra: 1 }, { id: "x", organizationId: "x" }, { ["\u0000"]: 1 }, { ["\ud800"]: 1 }]) {
        add(op, {
          kind: "body extra field",
          method: op.method,
          path,
          headers: json,
          body: toJson({ ...(base as object), ...extra }),
        });
      }
      for (const [label, body] of BAD_BODIES) add(op, { kind: `body ${label}`, method: op.method, path, headers: json, body });
      for (const type of CONTENT_TYPES) {
        add(op, {
          kind: `content-type ${type || "(none)"}`,
          method: op.method,
          path,
          headers: type ? { "content-type": type } : {},
          body: toJson(base),
        });
      }
      add(op, { kind: "empty body", method: op.method, path, headers: json, body: "" });
    }
    for (const q of op.queryParams) {
      for (const value of QUERY_VALUES)
        add(op, { kind: `query ${q.name}`, method: op.method, path: `${path}?${q.name}=${value}`, headers: {} });
      add(op, { kind: `query ${q.name} twice`, method: op.method, path: `${path}?${q.name}=1&${q.name}=2`, headers: {} });
    }
    if (op.method === "GET") {
      add(op, { kind: "query unknown", method: op.method, path: `${path}?nope=1&__proto__[x]=1`, headers: {} });
      add(op, { kind: "query garbage", method: op.method, path: `${path}?&&=&%00=%00&a[]=1`, headers: {} });
    }
    for (const { name } of op.pathParams) {
      for (const value of [...PATH_VALUES, ...Object.values(ids).map(encodeURIComponent)]) {
        add(op, {
          kind: `path ${name}`,
          method: op.method,
          path: realPath(op, { [name]: value }),
          headers: json,
          body: base === undefined ? undefined : toJson(base),
        });
      }
    }
    for (const c of formCases(op, path, doc, { rich: true, hints, tag: unique() })) add(op, c);
    if (op.method === "POST") {
      for (const idem of ["", "k".repeat(256), `k-${unique()}`]) {
        add(op, {
          kind: "idempotency-key",
          method: op.method,
          path,
          headers: { ...json, "idempotency-key": idem },
          body: base === undefined ? undefined : toJson(base),
        });
      }
    }
  }

  // Every method on every path (and a few unknown paths), with fetch and raw.
  const paths = [
    ...new Set(ops.map((op) => realPath(op))),
    "/",
    "/nope",
    "/business",
    "/business/policies/x/y/z",
    "/openapi.json",
  ];
  for (const path of paths) {
    for (const method of FETCH_METHODS) cases.push({ kind: `method ${method}`, method, path, headers: {} });
    for (const method of UNKNOWN_METHODS) {
      cases.push({
        kind: `method ${method}`,
        method,
        path,
        headers: {},
        raw: true,
        expect: { status: 405, code: "method_not_allowed" },
      });
    }
    for (const bad of BAD_ENCODINGS) {
      cases.push({
        kind: "bad percent-encoding",
        method: "GET",
        path: `${path.replace(/\/$/, "")}/${bad}`,
        headers: {},
        raw: true,
        expect: { status: 400, code: "invalid_path" },
      });
    }
  }
  for (const op of ops) {
    for (const bad of BAD_ENCODINGS) {
      const path = op.pathParams.length > 0 ? realPath(op, { [op.pathParams[0]!.name]: `a${bad}z` }) : `${op.path}${bad}`;
      cases.push({
        kind: "bad percent-encoding",
        method: op.method,
        path,
        headers: {},
        raw: true,
        expect: { status: 400, code: "invalid_path" },
      });
    }
  }
  // Authorization headers of every wrong shape.
  for (const auth of [
    "",
    "Bearer",
    "Bearer ",
    "Basic dXNlcjpwYXNz",
    "Bearer a b",
    `Bearer ${"x".repeat(10_000)}`,
    "bearer cd_live_",
    "Bearer cd_live_" + "0".repeat(32),
    "Bearer\tcd_test_x",
  ]) {
    for (const path of ["/business/policies", "/organizations"]) {
      cases.push({ kind: "authorization", method: "GET", path, headers: { authorization: auth }, expect: { status: 401 } });
    }
  }

  // Seeded random combinations until the run has enough cases.
  const withBody = ops.filter((op) => op.body);
  while (cases.length < MIN_CASES) {
    const op = rnd.pick(withBody);
    let body = baseOf(op);
    for (let i = 0, n = 1 + Math.floor(rnd.next() * 3); i < n; i++) {
      const fields = leafPaths(body);
      if (fields.length === 0) break;
      body = withValue(body, rnd.pick(fields), rnd.pick(WEIRD_VALUES));
    }
    const params = Object.fromEntries(
      op.pathParams.map((p) => [p.name, rnd.next() < 0.3 ? rnd.pick(PATH_VALUES) : undefined]).filter(([, v]) => v),
    ) as Record<string, string>;
    add(op, { kind: "random", method: op.method, path: realPath(op, params), headers: json, body: toJson(body) });
  }
  return cases;
}

// ---------- running ----------

function send(c: Case, key: string): Promise<Answer> {
  if (c.raw) {
    const headers = Object.entries({ authorization: `Bearer ${key}`, ...c.headers }).map(([k, v]) => `${k}: ${v}`);
    return rawRequest(
      [`${c.method} /api/v1${c.path} HTTP/1.1`, ...headers].join("\r\n"),
      typeof c.body === "string" ? c.body : undefined,
    );
  }
  return apiRequest(c.method, c.path, { key, body: c.body, headers: c.headers, timeoutMs: 60_000 });
}

function reproduce(c: Case): string {
  if (c.raw)
    return `printf '${c.method} /api/v1${c.path} HTTP/1.1\\r\\nHost: ${new URL(BASE_URL).host}\\r\\nAuthorization: Bearer $KEY\\r\\nConnection: close\\r\\n\\r\\n' | nc ${new URL(BASE_URL).hostname} ${new URL(BASE_URL).port}`;
  const headers = Object.entries(c.headers)
    .map(([k, v]) => ` -H '${k}: ${v}'`)
    .join("");
  const text = typeof c.body === "string" || c.body === undefined ? c.body : Buffer.from(c.body).toString("latin1");
  const body =
    text === undefined
      ? ""
      : text.length > 300
        ? ` --data-binary '<${text.length} chars: ${JSON.stringify(text.slice(0, 120))}…>'`
        : ` --data-binary ${JSON.stringify(text)}`;
  return `curl -X ${c.method} '${API_ROOT}${c.path}' -H 'Authorization: Bearer $KEY'${headers}${body}`;
}

function verdict(c: Case, a: Answer): string | null {
  if (a.status >= 500) return `answered ${a.status}: ${a.text.slice(0, 200)}`;
  const defect = problemDefect(a, c.method);
  if (defect) return `answered ${a.status}, ${defect}`;
  if (c.expect && (a.status !== c.expect.status || (c.expect.code && c.method !== "HEAD" && problemCode(a) !== c.expect.code))) {
    return `expected ${c.expect.status}${c.expect.code ? ` ${c.expect.code}` : ""}, got ${a.status} ${problemCode(a) ?? a.text.slice(0, 120)}`;
  }
  return null;
}

// Both key modes: a test key acts as the organization's test twin, a path with its own failure modes; each
// mode runs half of the generated cases.
for (const mode of ["live", "test"] as const)
  test(`fuzz (${mode} keys): ≥ 5 000 hostile requests from the OpenAPI document → never 5xx, every error problem+json`, async () => {
    const deadline = Date.now() + BUDGET_S * 1000;
    test.setTimeout((BUDGET_S + 60) * 1000);
    const t = await tenantWithClients(undefined, mode);
    // The limit is the account's, changed with a live key (a test key may not).
    const live = mode === "live" ? t : await otherSide(t, "live");
    await ok(await live.write.put("business/settings", { data: { api: { rateLimit: 100_000 } } }));
    const receiver = await startReceiver();
    const api = await loadApi();

    // A real record of every kind a path parameter names, in the fuzz tenant (never its own key).
    const make = recordsOf(t, receiver);
    const kinds = [...new Set(api.operations.flatMap((op) => parameterKinds(op.path).map((k) => k.kind)))];
    const ids = Object.fromEntries(await Promise.all(kinds.map(async (k) => [k, (await make(k)).id] as const)));
    const hints = { policyId: ids["/business/policies/{id}"], webhookId: ids["/business/webhooks/{id}"] };

    const generated = generateCases(api.operations, api.doc, ids, hints);
    // Each generated case runs once: the even ones with a live key, the odd ones with a test key (both halves
    // are over 5 000; the cases and the tenants of the two modes are alike, so running all of them twice
    // proved nothing more and cost the suite half a minute).
    const half = mode === "live" ? 0 : 1;
    const cases = generated.filter((_, i) => i % 2 === half).filter((_, i) => i % EVERY === 0);
    if (EVERY === 1) expect(cases.length, "cases of this mode").toBeGreaterThanOrEqual(5000);
    console.log(`fuzz seed=${SEED} (${mode} keys): ${generated.length} cases generated, running ${cases.length}`);
    const statuses = new Map<number, number>();
    const failures: { c: Case; why: string }[] = [];
    let skipped = 0;
    const run = async (c: Case) => {
      if (Date.now() > deadline) {
        skipped++;
        return;
      }
      let why: string | null;
      let status = 0;
      try {
        const a = await send(c, t.writeKey);
        status = a.status;
        why = verdict(c, a);
      } catch (e) {
        why = `no answer: ${(e as Error).message}`;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (why) {
        failures.push({ c, why });
        if (failures.length <= 25)
          console.log(`fuzz failure [${c.kind}] ${c.method} ${c.path.slice(0, 160)} → ${why}\n  ${reproduce(c)}`);
      }
      // A settings write that went through may have lowered the rate limit: raise it again (dashboard session).
      if (c.last && status < 300) await trpc(t.account, "settings.update", { api: { rateLimit: 100_000 } });
    };

    const started = Date.now();
    await pool(
      cases.filter((c) => !c.last),
      CONCURRENCY,
      run,
    );
    await pool(
      cases.filter((c) => c.last),
      1,
      run,
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    await receiver.close();

    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
    console.log(
      `fuzz seed=${SEED}: ${cases.length - skipped} requests in ${seconds} s (${skipped} left over the ${BUDGET_S} s budget), concurrency ${CONCURRENCY}; statuses ${summary}; ${failures.length} failing`,
    );
    const byKind = new Map<string, number>();
    for (const f of failures)
      byKind.set(`${f.c.kind}: ${f.why.slice(0, 60)}`, (byKind.get(`${f.c.kind}: ${f.why.slice(0, 60)}`) ?? 0) + 1);
    const report = [
      ...[...byKind.entries()].slice(0, 40).map(([k, n]) => `  ${n}× ${k}`),
      "first failing cases:",
      ...failures
        .slice(0, 25)
        .map(({ c, why }) => `  [${c.kind}] ${c.method} ${c.path.slice(0, 160)} → ${why}\n    ${reproduce(c)}`),
    ].join("\n");

    expect(generated.length).toBeGreaterThanOrEqual(MIN_CASES);
    // The app is healthy afterwards and still serves the tenant.
    const health = await fetch(`${BASE_URL}/api/health`);
    expect(health.status).toBe(200);
    await ok(await t.write.get("business/settings"));
    expect(failures.length, `fuzz seed=${SEED} failures by class:\n${report}`).toBe(0);
    expect(skipped, `requests left undone after the ${BUDGET_S} s budget`).toBe(0);
  });
