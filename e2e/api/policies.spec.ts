// REST: /business/policies — list, create, read, update, status, soft delete, analytics.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { problem, restClient } from "../support/api";
import { buyPolicy, errorPaths, ISO, listAll, ok, send, tenantWithClients, type HttpMethod } from "./_helpers";

/* eslint-disable @typescript-eslint/no-explicit-any */

const POLICY_FIELDS = [
  "id",
  "name",
  "type",
  "description",
  "duration",
  "price",
  "currency",
  "coverage",
  "benefits",
  "exclusions",
  "isActive",
  "createdAt",
  "updatedAt",
];
const TYPES = ["auto", "home", "health", "life", "travel", "property", "liability", "business", "other"];
const DURATIONS = ["monthly", "quarterly", "yearly"];

/** The four fields every create carries. */
const minimal = (overrides: Record<string, unknown> = {}) => ({
  name: "Motor Basic",
  type: "auto",
  duration: "yearly",
  price: "150",
  ...overrides,
});

const full = () => ({
  name: "Home Shield Plus",
  type: "home",
  duration: "monthly",
  price: "2500.75",
  description: "Cover for your home and what is in it.",
  coverage: "Fire, flood and theft up to 10,000,000.",
  benefits: ["24/7 helpline", "Temporary housing"],
  exclusions: ["Wear and tear"],
});

function expectPolicyShape(p: Record<string, any>) {
  expect(Object.keys(p).sort()).toEqual([...POLICY_FIELDS].sort());
  expect(typeof p.id).toBe("string");
  expect(p.id.length).toBeGreaterThan(0);
  expect(TYPES).toContain(p.type);
  expect(DURATIONS).toContain(p.duration);
  expect(p.price).toMatch(/^\d+\.\d{2}$/);
  expect(p.currency).toMatch(/^[A-Z]{3}$/);
  expect(typeof p.isActive).toBe("boolean");
  expect(Array.isArray(p.benefits)).toBe(true);
  expect(Array.isArray(p.exclusions)).toBe(true);
  expect(p.createdAt).toMatch(ISO);
  expect(p.updatedAt).toMatch(ISO);
}

async function createPolicy(client: APIRequestContext, body: Record<string, unknown> = minimal()) {
  return ok(await client.post("business/policies", { data: body }), 201);
}

/** Every policy of the tenant, as the API lists it: the "did anything change?" snapshot. */
const allPolicies = (client: APIRequestContext) => listAll(client, "business/policies");

const readPolicy = async (client: APIRequestContext, id: string) => ok(await client.get(`business/policies/${id}`));

/** Walks a list with the given page size and query, returning the ids in order and the page sizes. */
async function walk(client: APIRequestContext, limit: number, query = "") {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const qs: string = `limit=${limit}${query ? `&${query}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: { data: { id: string }[]; nextCursor: string | null } = await ok(await client.get(`business/policies?${qs}`));
    expect(Object.keys(page).sort()).toEqual(["data", "nextCursor"]);
    sizes.push(page.data.length);
    ids.push(...page.data.map((p) => p.id));
    cursor = page.nextCursor;
  } while (cursor && sizes.length < 200);
  expect(cursor).toBeNull();
  return { ids, sizes };
}

const pageSizes = (total: number, limit: number) => {
  const out = Array.from({ length: Math.floor(total / limit) }, () => limit);
  if (total % limit) out.push(total % limit);
  return out.length ? out : [0];
};

/** Newest first: createdAt descending, ties broken by id descending (the API's stable order). */
function expectNewestFirst(list: { id: string; createdAt: string }[]) {
  for (let i = 1; i < list.length; i++) {
    const [prev, cur] = [list[i - 1]!, list[i]!];
    const [a, b] = [Date.parse(prev.createdAt), Date.parse(cur.createdAt)];
    expect(a, `${prev.id} before ${cur.id}`).toBeGreaterThanOrEqual(b);
    if (a === b) expect(prev.id > cur.id, `tie at ${prev.createdAt}: ${prev.id} before ${cur.id}`).toBe(true);
  }
}

test.describe("GET /business/policies", () => {
  test("a new organization has none", async () => {
    const t = await tenantWithClients();
    expect(await ok(await t.write.get("business/policies"))).toEqual({ data: [], nextCursor: null });
  });

  test("lists the organization's policies newest first, exactly as created; a read-only key may list", async () => {
    const t = await tenantWithClients();
    const created = [];
    for (const name of ["First", "Second", "Third"]) created.push(await createPolicy(t.write, minimal({ name })));
    const page = await ok(await t.read.get("business/policies"));
    expect(page.nextCursor).toBeNull();
    expect(page.data).toEqual([...created].reverse());
    for (const p of page.data) expectPolicyShape(p);
  });

  test("does not show another organization's policies", async () => {
    const [a, b] = await Promise.all([tenantWithClients(), tenantWithClients()]);
    const mine = await createPolicy(a.write, minimal({ name: "Mine" }));
    const theirs = await createPolicy(b.write, minimal({ name: "Theirs" }));
    expect((await allPolicies(a.write)).map((p) => p.id)).toEqual([mine.id]);
    expect((await allPolicies(b.read)).map((p) => p.id)).toEqual([theirs.id]);
    expect((await ok(await a.write.get("business/policies?q=Theirs"))).data).toEqual([]);
  });

  test("filters by isActive, type and q (name contains, case-insensitive), alone and combined", async () => {
    const t = await tenantWithClients();
    const motor = await createPolicy(t.write, minimal({ name: "Motor Gold", type: "auto" }));
    const home = await createPolicy(t.write, minimal({ name: "Home Gold", type: "home" }));
    const travel = await createPolicy(t.write, minimal({ name: "Travel Lite", type: "travel" }));
    const oldMotor = await createPolicy(t.write, minimal({ name: "Motor Classic", type: "auto" }));
    await ok(await t.write.patch(`business/policies/${oldMotor.id}/status`, { data: { isActive: false } }));

    const ids = async (qs: string) => (await ok(await t.read.get(`business/policies?${qs}`))).data.map((p: any) => p.id);
    const cases: [string, string[]][] = [
      ["", [oldMotor.id, travel.id, home.id, motor.id]],
      ["isActive=true", [travel.id, home.id, motor.id]],
      ["isActive=false", [oldMotor.id]],
      ["type=auto", [oldMotor.id, motor.id]],
      ["type=home", [home.id]],
      ["type=life", []],
      ["q=gold", [home.id, motor.id]],
      ["q=GOLD", [home.id, motor.id]],
      ["q=otor", [oldMotor.id, motor.id]],
      ["q=platinum", []],
      ["type=auto&isActive=true", [motor.id]],
      ["type=auto&isActive=false", [oldMotor.id]],
      ["q=motor&isActive=false", [oldMotor.id]],
      ["q=gold&type=home&isActive=true", [home.id]],
      ["q=gold&type=travel", []],
    ];
    for (const [qs, expected] of cases) expect(await ids(qs), qs || "(no filter)").toEqual(expected);
  });

  // "name contains" matches the text literally: LIKE wildcards must not leak through.
  test("q matches literally: % and _ are not wildcards", async () => {
    const t = await tenantWithClients();
    const percent = await createPolicy(t.write, minimal({ name: "100% Cover" }));
    const underscore = await createPolicy(t.write, minimal({ name: "Fleet_Plan" }));
    await createPolicy(t.write, minimal({ name: "Fleet Plan" }));
    const ids = async (q: string) =>
      (await ok(await t.read.get(`business/policies?q=${encodeURIComponent(q)}`))).data.map((p: any) => p.id);
    expect(await ids("%")).toEqual([percent.id]);
    expect(await ids("0% c")).toEqual([percent.id]);
    expect(await ids("_")).toEqual([underscore.id]);
    expect(await ids("fleet_")).toEqual([underscore.id]);
  });

  const badQueries: [string, string][] = [
    ["isActive=yes", "isActive"],
    ["isActive=1", "isActive"],
    ["type=boat", "type"],
    ["type=AUTO", "type"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    [`q=${"x".repeat(101)}`, "q"],
    ["cursor=not-a-cursor!!", "cursor"],
  ];
  for (const [qs, path] of badQueries) {
    test(`${qs.length > 40 ? `${qs.slice(0, 12)}… (101 chars)` : qs} → 400 invalid_query naming ${path}`, async () => {
      const t = await tenantWithClients();
      const body = await problem(await t.read.get(`business/policies?${qs}`), 400, "invalid_query");
      expect(errorPaths(body)).toContain(path);
    });
  }
});

test.describe("GET /business/policies — pagination over more than 100 policies", () => {
  test("limit=100, limit=7 and the default 20 each return every policy exactly once, newest first; filters page too", async () => {
    test.setTimeout(240_000);
    const t = await tenantWithClients();
    const TOTAL = 105;
    // Policy i: type home when i % 3 === 0 (else auto); named "Special" when i % 10 === 0.
    const created: any[] = [];
    for (let start = 0; start < TOTAL; start += 10) {
      const batch = Array.from({ length: Math.min(10, TOTAL - start) }, (_, j) => start + j);
      created.push(
        ...(await Promise.all(
          batch.map((i) =>
            createPolicy(
              t.write,
              minimal({ name: `${i % 10 === 0 ? "Special" : "Bulk"} ${i}`, type: i % 3 === 0 ? "home" : "auto" }),
            ),
          ),
        )),
      );
    }
    const createdIds = created.map((p) => p.id);
    expect(new Set(createdIds).size).toBe(TOTAL);

    // limit=100: two pages, 100 + 5.
    const first = await ok(await t.write.get("business/policies?limit=100"));
    expect(first.data).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const byHundred = await walk(t.write, 100);
    expect(byHundred.sizes).toEqual([100, 5]);
    expect(new Set(byHundred.ids).size).toBe(TOTAL);
    expect([...byHundred.ids].sort()).toEqual([...createdIds].sort());

    const everything = await allPolicies(t.write);
    expect(everything.map((p) => p.id)).toEqual(byHundred.ids);
    expectNewestFirst(everything);
    // The last batch was created after the first batch finished.
    const position = (id: string) => byHundred.ids.indexOf(id);
    for (const late of createdIds.slice(100))
      for (const early of createdIds.slice(0, 10)) expect(position(late)).toBeLessThan(position(early));

    // limit=7: 15 pages of 7, the same sequence.
    const bySeven = await walk(t.write, 7);
    expect(bySeven.sizes).toEqual(pageSizes(TOTAL, 7));
    expect(bySeven.ids).toEqual(byHundred.ids);

    // Default page size 20.
    const byDefault = await ok(await t.read.get("business/policies"));
    expect(byDefault.data.map((p: any) => p.id)).toEqual(byHundred.ids.slice(0, 20));
    expect(byDefault.nextCursor).toEqual(expect.any(String));

    // Filters combine with pagination: deactivate every 8th policy, then page through filtered lists.
    const deactivated = created.filter((_, i) => i % 8 === 0).map((p) => p.id);
    for (const id of deactivated) {
      await ok(await t.write.patch(`business/policies/${id}/status`, { data: { isActive: false } }));
    }
    const expectedFor = (keep: (p: any, i: number) => boolean) =>
      byHundred.ids.filter((id) => {
        const i = createdIds.indexOf(id);
        return keep(created[i], i);
      });
    const isInactive = (_: any, i: number) => i % 8 === 0;
    const isHome = (_: any, i: number) => i % 3 === 0;
    const isSpecial = (_: any, i: number) => i % 10 === 0;
    const filtered: [string, number, string[]][] = [
      ["isActive=false", 3, expectedFor(isInactive)],
      ["isActive=true", 9, expectedFor((p, i) => !isInactive(p, i))],
      ["type=home", 7, expectedFor(isHome)],
      ["type=home&isActive=true", 5, expectedFor((p, i) => isHome(p, i) && !isInactive(p, i))],
      ["q=special", 4, expectedFor(isSpecial)],
      ["q=SPECIAL&type=home&isActive=true", 2, expectedFor((p, i) => isSpecial(p, i) && isHome(p, i) && !isInactive(p, i))],
    ];
    for (const [qs, limit, expected] of filtered) {
      expect(expected.length, qs).toBeGreaterThan(0);
      const result = await walk(t.read, limit, qs);
      expect(result.ids, qs).toEqual(expected);
      expect(result.sizes, qs).toEqual(pageSizes(expected.length, limit));
    }
  });
});

test.describe("POST /business/policies", () => {
  test("creates with the four required fields: 201, defaults filled in, readable and listed", async () => {
    const t = await tenantWithClients();
    const created = await createPolicy(t.write, minimal());
    expectPolicyShape(created);
    expect(created).toMatchObject({
      name: "Motor Basic",
      type: "auto",
      duration: "yearly",
      price: "150.00",
      currency: "NGN",
      description: null,
      coverage: null,
      benefits: [],
      exclusions: [],
      isActive: true,
    });
    expect(Math.abs(Date.parse(created.createdAt) - Date.now())).toBeLessThan(5 * 60_000);
    expect(await readPolicy(t.read, created.id)).toEqual(created);
    expect(await allPolicies(t.read)).toEqual([created]);
  });

  test("creates with every field; name and list items are trimmed", async () => {
    const t = await tenantWithClients();
    const body = { ...full(), name: "  Home Shield Plus  ", benefits: ["  24/7 helpline ", "Temporary housing"] };
    const created = await createPolicy(t.write, body);
    expectPolicyShape(created);
    expect(created).toMatchObject({ ...full(), price: "2500.75", currency: "NGN", isActive: true });
    expect(await readPolicy(t.write, created.id)).toEqual(created);
  });

  test("prices are answered with 2 decimals", async () => {
    const t = await tenantWithClients();
    const cases: [string, string][] = [
      ["150", "150.00"],
      ["150.5", "150.50"],
      ["150.50", "150.50"],
      ["0.01", "0.01"],
      ["1000000.99", "1000000.99"],
    ];
    for (const [given, answered] of cases) {
      const p = await createPolicy(t.write, minimal({ price: given }));
      expect(p.price, given).toBe(answered);
      expect((await readPolicy(t.read, p.id)).price, given).toBe(answered);
    }
  });

  test("a business in yen prices in whole yen and sells at ¥1,000 exactly; in dinar, to the fils", async () => {
    const t = await tenantWithClients();
    await ok(await t.write.put(`organizations/${t.organizationId}`, { data: { currency: "JPY" } }));
    const yen = await createPolicy(t.write, minimal({ price: "1000" }));
    expect(yen).toMatchObject({ price: "1000", currency: "JPY" });
    const fraction = await problem(await t.write.post("business/policies", { data: minimal({ price: "1000.5" }) }), 422, "validation_failed");
    expect(fraction.errors).toEqual([{ path: "price", message: "JPY amounts are whole numbers, like 1500" }]);
    expect((await listAll(t.read, "business/policies")).map((p) => p.id)).toEqual([yen.id]);
    // Charged 1000 (not 100 000) and credited in whole yen: 1.5% of ¥1,000 is ¥15.
    await buyPolicy(t.write, yen, "yen@example.test");
    const earnings = await ok(await t.read.get("business/earnings/overview"));
    expect(earnings).toMatchObject({ currency: "JPY", totalEarned: "1000", platformFees: "15", availableBalance: "985" });

    const kw = await tenantWithClients();
    await ok(await kw.write.put(`organizations/${kw.organizationId}`, { data: { currency: "KWD" } }));
    expect(await createPolicy(kw.write, minimal({ price: "12.345" }))).toMatchObject({ price: "12.345", currency: "KWD" });
    await problem(await kw.write.post("business/policies", { data: minimal({ price: "12.3456" }) }), 422, "validation_failed");
  });

  test("accepts every type and every duration", async () => {
    const t = await tenantWithClients();
    for (const type of TYPES) expect((await createPolicy(t.write, minimal({ type }))).type).toBe(type);
    for (const duration of DURATIONS) expect((await createPolicy(t.write, minimal({ duration }))).duration).toBe(duration);
  });

  test("accepts the limits: 120-character name, 5000-character texts, 50 items of 500 characters", async () => {
    const t = await tenantWithClients();
    const items = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, "0")}${"b".repeat(498)}`);
    const body = minimal({
      name: "n".repeat(120),
      description: "d".repeat(5000),
      coverage: "c".repeat(5000),
      benefits: items,
      exclusions: items,
    });
    const created = await createPolicy(t.write, body);
    expect(created).toMatchObject({ ...body, price: "150.00" });
    expect(await readPolicy(t.write, created.id)).toEqual(created);
  });

  test("uses the organization's currency", async () => {
    const t = await tenantWithClients();
    const org = await ok(await t.write.get(`organizations/${t.organizationId}`));
    const created = await createPolicy(t.write);
    expect(created.currency).toBe(org.currency);
  });

  const tooMany = Array.from({ length: 51 }, (_, i) => `item ${i}`);
  const invalid: [string, Record<string, unknown>, string][] = [
    ["name missing", { type: "auto", duration: "yearly", price: "150" }, "name"],
    ["name empty", minimal({ name: "" }), "name"],
    ["name only spaces", minimal({ name: "   " }), "name"],
    ["name of 121 characters", minimal({ name: "n".repeat(121) }), "name"],
    ["name not a string", minimal({ name: 42 }), "name"],
    ["type missing", { name: "x", duration: "yearly", price: "150" }, "type"],
    ["type unknown", minimal({ type: "boat" }), "type"],
    ["type in capitals", minimal({ type: "Auto" }), "type"],
    ["duration missing", { name: "x", type: "auto", price: "150" }, "duration"],
    ["duration unknown", minimal({ duration: "weekly" }), "duration"],
    ["price missing", { name: "x", type: "auto", duration: "yearly" }, "price"],
    ["price with 3 decimals", minimal({ price: "1.234" }), "price"],
    ["price zero", minimal({ price: "0" }), "price"],
    ["price 0.00", minimal({ price: "0.00" }), "price"],
    ["price negative", minimal({ price: "-1" }), "price"],
    ["price a JSON number", minimal({ price: 150 }), "price"],
    ["price not a number", minimal({ price: "abc" }), "price"],
    ["price empty", minimal({ price: "" }), "price"],
    ["price in exponent form", minimal({ price: "1e3" }), "price"],
    ["price with a thousands separator", minimal({ price: "1,000" }), "price"],
    ["description of 5001 characters", minimal({ description: "d".repeat(5001) }), "description"],
    ["description not a string", minimal({ description: 5 }), "description"],
    ["coverage of 5001 characters", minimal({ coverage: "c".repeat(5001) }), "coverage"],
    ["benefits not an array", minimal({ benefits: "all of them" }), "benefits"],
    ["benefits with an empty item", minimal({ benefits: ["ok", ""] }), "benefits.1"],
    ["benefits with a blank item", minimal({ benefits: ["   "] }), "benefits.0"],
    ["benefits with a non-string item", minimal({ benefits: [1] }), "benefits.0"],
    ["benefits with a 501-character item", minimal({ benefits: ["b".repeat(501)] }), "benefits.0"],
    ["benefits with 51 items", minimal({ benefits: tooMany }), "benefits"],
    ["exclusions not an array", minimal({ exclusions: { a: 1 } }), "exclusions"],
    ["exclusions with an empty item", minimal({ exclusions: [""] }), "exclusions.0"],
    ["exclusions with a 501-character item", minimal({ exclusions: ["e".repeat(501)] }), "exclusions.0"],
    ["exclusions with 51 items", minimal({ exclusions: tooMany }), "exclusions"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422 naming ${path}, nothing created`, async () => {
      const t = await tenantWithClients();
      const existing = await createPolicy(t.write, minimal({ name: "Existing" }));
      const err = await problem(await t.write.post("business/policies", { data: body }), 422, "validation_failed");
      expect(errorPaths(err)).toContain(path);
      expect(err.detail).toContain(path);
      expect(await allPolicies(t.write)).toEqual([existing]);
    });
  }

  for (const field of ["isActive", "currency", "id", "color"]) {
    test(`unknown field ${field} → 422, nothing created`, async () => {
      const t = await tenantWithClients();
      const err = await problem(
        await t.write.post("business/policies", { data: { ...minimal(), [field]: field === "isActive" ? false : "x" } }),
        422,
        "validation_failed",
      );
      expect(JSON.stringify(err.errors)).toContain(field);
      expect(await allPolicies(t.write)).toEqual([]);
    });
  }

  test("no body → 422; malformed JSON → 400; not JSON → 415; nothing created", async () => {
    const t = await tenantWithClients();
    await problem(await t.write.post("business/policies"), 422, "validation_failed");
    await problem(
      await t.write.post("business/policies", {
        data: Buffer.from('{"name": "x",'),
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "malformed_json",
    );
    await problem(
      await t.write.post("business/policies", {
        data: Buffer.from(JSON.stringify(minimal())),
        headers: { "Content-Type": "text/plain" },
      }),
      415,
      "unsupported_media_type",
    );
    expect(await allPolicies(t.write)).toEqual([]);
  });

  test("Idempotency-Key: the same request twice creates one policy and replays the answer", async () => {
    const t = await tenantWithClients();
    const headers = { "Idempotency-Key": `pol-${Date.now()}` };
    const first = await t.write.post("business/policies", { data: minimal(), headers });
    const created = await ok(first, 201);
    const again = await t.write.post("business/policies", { data: minimal(), headers });
    expect(await ok(again, 201)).toEqual(created);
    expect(again.headers()["idempotent-replayed"]).toBe("true");
    expect(await allPolicies(t.write)).toEqual([created]);
  });
});

test.describe("GET /business/policies/{id}", () => {
  test("answers the policy, with a write or a read-only key", async () => {
    const t = await tenantWithClients();
    const created = await createPolicy(t.write, full());
    expect(await readPolicy(t.write, created.id)).toEqual(created);
    expect(await readPolicy(t.read, created.id)).toEqual(created);
  });

  test("an unknown id → 404 not_found", async () => {
    const t = await tenantWithClients();
    await problem(await t.read.get("business/policies/does-not-exist"), 404, "not_found");
  });
});

test.describe("PUT /business/policies/{id}", () => {
  const changes: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["name", { name: "  Renamed  " }, { name: "Renamed" }],
    ["price", { price: "99.9" }, { price: "99.90" }],
    ["type", { type: "travel" }, { type: "travel" }],
    ["duration", { duration: "quarterly" }, { duration: "quarterly" }],
    ["description", { description: "New words" }, { description: "New words" }],
    ["description cleared with null", { description: null }, { description: null }],
    ["coverage cleared with an empty string", { coverage: "" }, { coverage: null }],
    ["benefits replaced", { benefits: ["Only this"] }, { benefits: ["Only this"] }],
    ["exclusions emptied", { exclusions: [] }, { exclusions: [] }],
    ["name and price together", { name: "Both", price: "10" }, { name: "Both", price: "10.00" }],
  ];
  for (const [label, body, expected] of changes) {
    test(`changes ${label} and nothing else`, async () => {
      const t = await tenantWithClients();
      const created = await createPolicy(t.write, full());
      const updated = await ok(await t.write.put(`business/policies/${created.id}`, { data: body }));
      expectPolicyShape(updated);
      const { updatedAt: _before, ...unchanged } = created;
      expect(updated).toEqual({ ...unchanged, ...expected, updatedAt: updated.updatedAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      expect(await readPolicy(t.read, created.id)).toEqual(updated);
    });
  }

  test("an inactive policy can be edited and stays inactive", async () => {
    const t = await tenantWithClients();
    const created = await createPolicy(t.write);
    await ok(await t.write.delete(`business/policies/${created.id}`));
    const updated = await ok(await t.write.put(`business/policies/${created.id}`, { data: { price: "200" } }));
    expect(updated).toMatchObject({ price: "200.00", isActive: false });
  });

  const invalid: [string, unknown, string | null][] = [
    ["an empty object", {}, null],
    ["isActive", { isActive: false }, null],
    ["isActive with a valid field", { name: "Sneaky", isActive: false }, null],
    ["an unknown field", { colour: "blue" }, null],
    ["an empty name", { name: "" }, "name"],
    ["a 121-character name", { name: "n".repeat(121) }, "name"],
    ["an unknown type", { type: "boat" }, "type"],
    ["an unknown duration", { duration: "daily" }, "duration"],
    ["a price of 0", { price: "0" }, "price"],
    ["a price with 3 decimals", { price: "1.234" }, "price"],
    ["a negative price", { price: "-5" }, "price"],
    ["a price as a number", { price: 150 }, "price"],
    ["a 5001-character coverage", { coverage: "c".repeat(5001) }, "coverage"],
    ["a blank benefit", { benefits: [" "] }, "benefits.0"],
    ["51 exclusions", { exclusions: Array.from({ length: 51 }, (_, i) => `e${i}`) }, "exclusions"],
    ["a valid name with an invalid price", { name: "Fine", price: "abc" }, "price"],
  ];
  for (const [label, body, path] of invalid) {
    test(`${label} → 422${path ? ` naming ${path}` : ""}, the policy unchanged`, async () => {
      const t = await tenantWithClients();
      const created = await createPolicy(t.write, full());
      const err = await problem(await t.write.put(`business/policies/${created.id}`, { data: body }), 422, "validation_failed");
      if (path) expect(errorPaths(err)).toContain(path);
      else expect(err.errors?.length).toBeGreaterThan(0);
      expect(await readPolicy(t.write, created.id)).toEqual(created);
    });
  }

  test("an unknown id → 404 not_found", async () => {
    const t = await tenantWithClients();
    await problem(await t.write.put("business/policies/does-not-exist", { data: { name: "x" } }), 404, "not_found");
  });

  test("invalid input is reported before an unknown id (422 before 404)", async () => {
    const t = await tenantWithClients();
    await problem(await t.write.put("business/policies/does-not-exist", { data: { price: "0" } }), 422, "validation_failed");
  });
});

test.describe("PATCH /business/policies/{id}/status", () => {
  test("deactivates and reactivates; only isActive changes; the list filters follow", async () => {
    const t = await tenantWithClients();
    const created = await createPolicy(t.write, full());
    const ids = async (qs: string) => (await ok(await t.read.get(`business/policies?${qs}`))).data.map((p: any) => p.id);

    const off = await ok(await t.write.patch(`business/policies/${created.id}/status`, { data: { isActive: false } }));
    expectPolicyShape(off);
    expect(off).toEqual({ ...created, isActive: false, updatedAt: off.updatedAt });
    expect(await readPolicy(t.read, created.id)).toEqual(off);
    expect(await ids("isActive=false")).toEqual([created.id]);
    expect(await ids("isActive=true")).toEqual([]);

    // Setting the same state again is harmless.
    expect(
      (await ok(await t.write.patch(`business/policies/${created.id}/status`, { data: { isActive: false } }))).isActive,
    ).toBe(false);

    const on = await ok(await t.write.patch(`business/policies/${created.id}/status`, { data: { isActive: true } }));
    expect(on).toEqual({ ...created, isActive: true, updatedAt: on.updatedAt });
    expect(await ids("isActive=true")).toEqual([created.id]);
    expect(await ids("isActive=false")).toEqual([]);
  });

  const invalid: [string, unknown][] = [
    ["an empty object", {}],
    ["isActive as a string", { isActive: "false" }],
    ["isActive null", { isActive: null }],
    ["isActive as 0", { isActive: 0 }],
    ["an extra field", { isActive: false, name: "x" }],
  ];
  for (const [label, body] of invalid) {
    test(`${label} → 422 naming the field, the policy unchanged`, async () => {
      const t = await tenantWithClients();
      const created = await createPolicy(t.write);
      const err = await problem(
        await t.write.patch(`business/policies/${created.id}/status`, { data: body }),
        422,
        "validation_failed",
      );
      expect(JSON.stringify(err.errors)).toMatch(/isActive|name/);
      expect(await readPolicy(t.write, created.id)).toEqual(created);
    });
  }

  test("an unknown id → 404 not_found", async () => {
    const t = await tenantWithClients();
    await problem(
      await t.write.patch("business/policies/does-not-exist/status", { data: { isActive: false } }),
      404,
      "not_found",
    );
  });
});

test.describe("DELETE /business/policies/{id}", () => {
  test("soft delete: 200 with the policy inactive; still readable, listed, and can be reactivated", async () => {
    const t = await tenantWithClients();
    const other = await createPolicy(t.write, minimal({ name: "Other" }));
    const created = await createPolicy(t.write, full());
    const res = await t.write.delete(`business/policies/${created.id}`);
    const deleted = await ok(res, 200);
    expectPolicyShape(deleted);
    expect(deleted).toEqual({ ...created, isActive: false, updatedAt: deleted.updatedAt });

    expect(await readPolicy(t.read, created.id)).toEqual(deleted);
    expect(await allPolicies(t.read)).toEqual([deleted, other]);
    expect((await ok(await t.read.get("business/policies?isActive=false"))).data).toEqual([deleted]);
    expect((await ok(await t.read.get("business/policies?isActive=true"))).data).toEqual([other]);
    await ok(await t.read.get(`business/policies/${created.id}/analytics`));

    // Deleting again changes nothing.
    expect(await ok(await t.write.delete(`business/policies/${created.id}`))).toEqual(deleted);

    const back = await ok(await t.write.patch(`business/policies/${created.id}/status`, { data: { isActive: true } }));
    expect(back.isActive).toBe(true);
  });

  test("an unknown id → 404 not_found", async () => {
    const t = await tenantWithClients();
    await problem(await t.write.delete("business/policies/does-not-exist"), 404, "not_found");
  });
});

test.describe("GET /business/policies/{id}/analytics", () => {
  test("a new policy: zeros, nulls and 30 empty days ending today (UTC)", async () => {
    const t = await tenantWithClients();
    const created = await createPolicy(t.write, full());
    const a = await ok(await t.read.get(`business/policies/${created.id}/analytics`));
    const { series, from, to, ...totals } = a;
    expect(to > from).toBe(true);
    expect(totals).toEqual({
      currency: "NGN",
      granularity: "day",
      purchases: 0,
      renewals: 0,
      activeCoverages: 0,
      revenue: { gross: "0.00", fees: "0.00", net: "0.00" },
      claims: { count: 0, amount: "0.00" },
      lossRatio: null,
      conversionRate: null,
    });
    expect(series).toHaveLength(30);
    const today = new Date();
    const expectedDates = Array.from({ length: 30 }, (_, i) =>
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - (29 - i) * 86_400_000)
        .toISOString()
        .slice(0, 10),
    );
    // Tolerate the run crossing midnight UTC.
    const dates = series.map((d: any) => d.date);
    if (dates[29] === expectedDates[29]) expect(dates).toEqual(expectedDates);
    else expect(Date.parse(dates[29]) - Date.parse(expectedDates[29]!)).toBe(86_400_000);
    for (const day of series) expect(day).toEqual({ date: day.date, purchases: 0, renewals: 0, gross: "0.00" });
  });

  test("an unknown id → 404 not_found", async () => {
    const t = await tenantWithClients();
    await problem(await t.read.get("business/policies/does-not-exist/analytics"), 404, "not_found");
  });
});

// ---- Authentication, permissions, tenancy ---------------------------------------------------

type T = Awaited<ReturnType<typeof tenantWithClients>>;
interface Operation {
  method: HttpMethod;
  path: (id: string) => string;
  body?: unknown;
}
const OPERATIONS: Operation[] = [
  { method: "GET", path: () => "business/policies" },
  { method: "POST", path: () => "business/policies", body: minimal({ name: "New one" }) },
  { method: "GET", path: (id) => `business/policies/${id}` },
  { method: "PUT", path: (id) => `business/policies/${id}`, body: { name: "Hijacked", price: "1" } },
  { method: "DELETE", path: (id) => `business/policies/${id}` },
  { method: "PATCH", path: (id) => `business/policies/${id}/status`, body: { isActive: false } },
  { method: "GET", path: (id) => `business/policies/${id}/analytics` },
];
const label = (op: Operation) => `${op.method} ${op.path("{id}")}`;

async function tenantWithPolicy(): Promise<T & { policy: any }> {
  const t = await tenantWithClients();
  return { ...t, policy: await createPolicy(t.write, full()) };
}

test.describe("401 without a valid key, on every endpoint; nothing changes", () => {
  for (const op of OPERATIONS) {
    test(label(op), async () => {
      const t = await tenantWithPolicy();
      const cases: [Record<string, string>, string][] = [
        [{}, "missing_api_key"],
        [{ Authorization: `Bearer cd_live_${"A".repeat(32)}` }, "invalid_api_key"],
        [{ Authorization: "Bearer nope" }, "invalid_api_key"],
      ];
      for (const [headers, code] of cases) {
        const client = await restClient(undefined, headers);
        await problem(await send(client, op.method, op.path(t.policy.id), op.body), 401, code);
        await client.dispose();
      }
      expect(await allPolicies(t.write)).toEqual([t.policy]);
    });
  }
});

test.describe("a read-only key: 403 insufficient_permissions on every mutation, nothing changes", () => {
  for (const op of OPERATIONS.filter((o) => o.method !== "GET")) {
    test(label(op), async () => {
      const t = await tenantWithPolicy();
      await problem(await send(t.read, op.method, op.path(t.policy.id), op.body), 403, "insufficient_permissions");
      // Permission is checked before the body and before the record.
      await problem(await send(t.read, op.method, op.path(t.policy.id), { bogus: true }), 403, "insufficient_permissions");
      await problem(await send(t.read, op.method, op.path("does-not-exist"), op.body), 403, "insufficient_permissions");
      expect(await allPolicies(t.write)).toEqual([t.policy]);
    });
  }
});

test.describe("another organization's policy → 404 not_found, the row unchanged", () => {
  for (const op of OPERATIONS.filter((o) => o.path("x") !== o.path("y"))) {
    test(label(op), async () => {
      const [a, b] = await Promise.all([tenantWithPolicy(), tenantWithPolicy()]);
      await problem(await send(a.write, op.method, op.path(b.policy.id), op.body), 404, "not_found");
      // Neither organization changed.
      expect(await readPolicy(b.write, b.policy.id)).toEqual(b.policy);
      expect(await allPolicies(b.write)).toEqual([b.policy]);
      expect(await allPolicies(a.write)).toEqual([a.policy]);
    });
  }
});

test.describe("routing", () => {
  test("a known path with another method → 405 with Allow", async () => {
    const t = await tenantWithPolicy();
    const res = await t.write.patch("business/policies", { data: {} });
    await problem(res, 405, "method_not_allowed");
    expect(res.headers()["allow"]).toMatch(/GET/);
    expect(res.headers()["allow"]).toMatch(/POST/);
    const onStatus = await t.write.get(`business/policies/${t.policy.id}/status`);
    await problem(onStatus, 405, "method_not_allowed");
    expect(onStatus.headers()["allow"]).toMatch(/PATCH/);
  });
});
