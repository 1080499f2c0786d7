// GET /business/analytics/export over REST, black-box, and the dashboard's
// session route GET /api/export: every type in both formats with its headers,
// the file's content (CSV through a real RFC 4180 parser, xlsx through
// exceljs), the 422s of a bad type or format, 401s, and another
// organization's records never in the file.
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { expect, test, type APIResponse } from "@playwright/test";
import { BASE_URL, problem, restClient, unique } from "../support/api";
import { buyPolicy, createPolicyFor, errorPaths, joinTeam, ok, tenantWithClients } from "./_helpers";

const EXPORT = "business/analytics/export";
const TYPES = ["revenue", "transactions", "payments", "claims", "api-usage"] as const;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const HEADERS: Record<(typeof TYPES)[number], string[]> = {
  revenue: ["date", "gross", "fees", "net", "currency"],
  transactions: ["id", "createdAt", "type", "amount", "currency", "reference", "description"],
  payments: ["reference", "createdAt", "status", "amount", "currency", "policyId", "email", "paidAt"],
  claims: ["id", "createdAt", "status", "type", "amount", "currency", "policyId", "description"],
  "api-usage": ["bucket", "method", "route", "requests", "errors", "p50Ms", "p95Ms"],
};
const MONEY_COLUMNS = new Set(["gross", "fees", "net", "amount"]);
const today = () => new Date().toISOString().slice(0, 10);

type Tenant = Awaited<ReturnType<typeof tenantWithClients>>;

/** A tenant with a sale (payment, ledger entries, revenue), a claim whose description is hostile, and API usage. */
async function tenantWithRecords(marker: string) {
  const t = await tenantWithClients(`Org ${marker}`);
  const policy = await createPolicyFor(t.write, { price: "120.00", name: `Cover ${marker}` });
  const email = `buyer-${marker}@example.test`;
  const paid = await buyPolicy(t.write, policy, email);
  const claim = await ok(
    await t.write.post("claims", {
      data: { policyId: policy.id, type: "theft", description: `=HYPERLINK("http://x"), "${marker}"\nstolen`, amount: 75.5 },
    }),
    201,
  );
  return { ...t, marker, policy, email, reference: paid.reference as string, claim };
}

const csvOf = (body: Buffer) => parse(body.toString("utf8"), { record_delimiter: "\r\n", relax_quotes: false }) as string[][];

async function sheetOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  return workbook.worksheets[0]!;
}

/** The export's body after checking the answer's headers. */
async function file(res: APIResponse, type: string, format: "csv" | "xlsx") {
  const body = await res.body();
  expect(res.status(), body.toString("utf8").slice(0, 300)).toBe(200);
  const h = res.headers();
  expect(h["content-type"]).toBe(format === "csv" ? "text/csv; charset=utf-8" : XLSX);
  expect(h["content-disposition"]).toBe(`attachment; filename="coverdesk-${type}-${ago(29)}-to-${today()}.${format}"`);
  expect(h["cache-control"]).toBe("no-store");
  expect(h["x-request-id"]).toMatch(/^\S+$/);
  return body;
}
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Every export of the tenant (default range), CSV records and xlsx sheet, by type. */
async function everything(get: (qs: string) => Promise<APIResponse>) {
  const out: Record<string, { csv: string[][]; raw: string; sheet: ExcelJS.Worksheet; xlsxText: string }> = {};
  for (const type of TYPES) {
    const csvBody = await file(await get(`type=${type}&format=csv`), type, "csv");
    const xlsxBody = await file(await get(`type=${type}&format=xlsx`), type, "xlsx");
    const sheet = await sheetOf(xlsxBody);
    const xlsxText: string[] = [];
    sheet.eachRow((row) => row.eachCell((c) => void xlsxText.push(String(c.value))));
    out[type] = { csv: csvOf(csvBody), raw: csvBody.toString("utf8"), sheet, xlsxText: xlsxText.join("\n") };
  }
  return out;
}

/** The api-usage export once the metered requests have been written (every METERING_FLUSH_MS). */
async function usageRoutes(t: Tenant) {
  for (let i = 0; i < 50; i++) {
    const records = csvOf(await (await t.read.get(`${EXPORT}?type=api-usage&format=csv&granularity=hour`)).body());
    const routes = new Set(records.slice(1).map((r) => `${r[1]} ${r[2]}`));
    if (routes.has("POST /claims")) return { records, routes };
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("the API usage was not written within 15 s");
}

test.describe("analytics export (REST)", () => {
  test.describe.configure({ timeout: 120_000 });

  test("every type × format: 200, the attachment's headers, the contract's columns, this organization's records", async () => {
    const a = await tenantWithRecords(`a${unique()}`);
    const b = await tenantWithRecords(`b${unique()}`);
    await usageRoutes(a);
    const files = await everything((qs) => a.read.get(`${EXPORT}?${qs}`));

    for (const type of TYPES) {
      const { csv, sheet } = files[type]!;
      expect(csv[0], type).toEqual(HEADERS[type]);
      expect(sheet.name).toBe(type);
      const header: string[] = [];
      sheet.getRow(1).eachCell((c) => void header.push(String(c.value)));
      expect(header, type).toEqual(HEADERS[type].map((c) => (MONEY_COLUMNS.has(c) ? `${c} (NGN)` : c)));
      expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
      expect(sheet.rowCount, type).toBe(csv.length);
    }

    // payments: the sale, paid; in xlsx the amount a number, the instants dates.
    const payment = files.payments!.csv.find((r) => r[0] === a.reference)!;
    expect(payment).toEqual([
      a.reference,
      expect.stringMatching(/Z$/),
      "success",
      "120.00",
      "NGN",
      a.policy.id,
      a.email,
      expect.stringMatching(/Z$/),
    ]);
    const paymentRow = files.payments!.sheet.getRow(files.payments!.csv.indexOf(payment) + 1);
    expect(paymentRow.getCell(2).type).toBe(ExcelJS.ValueType.Date);
    expect(paymentRow.getCell(4).type).toBe(ExcelJS.ValueType.Number);
    expect(paymentRow.getCell(4).value).toBe(120);
    expect(paymentRow.getCell(4).numFmt).toBe("#,##0.00");

    // transactions: the credit and the platform fee, signed, plain numbers in CSV.
    const tx = files.transactions!.csv.filter((r) => r[5] === a.reference);
    expect(tx.map((r) => [r[2], r[3]]).sort()).toEqual([
      ["fee", "-1.80"],
      ["payment", "120.00"],
    ]);

    // claims: the formula neutralized in CSV, the text kept as text in xlsx.
    const claim = files.claims!.csv.find((r) => r[0] === a.claim.id)!;
    expect(claim.slice(2, 7)).toEqual(["submitted", "theft", "75.50", "NGN", a.policy.id]);
    expect(claim[7]).toBe(`'${a.claim.description}`);
    const claimCell = files.claims!.sheet.getRow(files.claims!.csv.indexOf(claim) + 1).getCell(8);
    expect(claimCell.type).toBe(ExcelJS.ValueType.String);
    expect(claimCell.value).toBe(a.claim.description);

    // revenue: today's row holds the sale.
    expect(files.revenue!.csv.at(-1)).toEqual([today(), "120.00", "1.80", "118.20", "NGN"]);
    expect(files.revenue!.csv).toHaveLength(31);

    // api-usage: the requests this tenant made, per method and route template.
    const { routes } = await usageRoutes(a);
    expect(routes).toContain("POST /claims");
    expect(routes).toContain("POST /business/policies");

    // Another organization's records never appear, in any file.
    for (const type of TYPES) {
      const { raw, xlsxText } = files[type]!;
      for (const text of [raw, xlsxText]) {
        for (const foreign of [b.reference, b.email, b.claim.id, b.policy.id, b.organizationId, b.marker]) {
          expect(text, `${type} holds ${foreign}`).not.toContain(foreign);
        }
      }
    }
  });

  test("missing or unknown type or format → 422 validation_failed naming the field", async () => {
    const t = await tenantWithClients();
    for (const [qs, field] of [
      ["format=csv", "type"],
      ["type=policies&format=csv", "type"],
      ["type=payments", "format"],
      ["type=payments&format=pdf", "format"],
      ["", "type"],
    ] as const) {
      const body = await problem(await t.read.get(`${EXPORT}?${qs}`), 422, "validation_failed");
      expect(Array.isArray(body.errors), qs).toBe(true);
      expect(errorPaths(body), qs).toContain(field);
    }
    const reversed = await problem(
      await t.read.get(`${EXPORT}?type=payments&format=csv&from=2026-03-02&to=2026-03-01`),
      422,
      "validation_failed",
    );
    expect(errorPaths(reversed)).toEqual(["from"]);
  });

  test("payments and claims take the Payments and Claims pages' filters: status, policyId, q; others refuse them", async () => {
    const t = await tenantWithClients();
    const [phone, home] = [await createPolicyFor(t.write, { price: "10.00" }), await createPolicyFor(t.write, { price: "20.00" })];
    await buyPolicy(t.write, phone, "ada@example.test");
    await buyPolicy(t.write, home, "ben@example.test");
    await ok(await t.write.post("payments/initialize", { data: { amount: 10, policyId: phone.id, email: "cy@example.test" } }), 201);
    const emails = async (qs: string) =>
      parse(await (await t.read.get(`${EXPORT}?type=payments&format=csv&${qs}`)).text(), { from_line: 2 }).map(
        (r: string[]) => r[6],
      );
    expect((await emails("")).sort()).toEqual(["ada@example.test", "ben@example.test", "cy@example.test"]);
    expect((await emails("status=success")).sort()).toEqual(["ada@example.test", "ben@example.test"]);
    expect(await emails(`policyId=${phone.id}&status=pending`)).toEqual(["cy@example.test"]);
    expect(await emails("q=BEN")).toEqual(["ben@example.test"]);
    expect(await emails("q=%25")).toEqual([]);

    await ok(await t.write.post("claims", { data: { policyId: home.id, type: "fire", description: "Kitchen fire", amount: 5 } }), 201);
    const claims = parse(await (await t.read.get(`${EXPORT}?type=claims&format=csv&q=kitchen&status=submitted`)).text(), {
      from_line: 2,
    });
    expect(claims.map((r: string[]) => r[7])).toEqual(["Kitchen fire"]);

    for (const [qs, path] of [
      ["type=revenue&format=csv&status=success", "type"],
      ["type=payments&format=csv&status=approved", "status"],
      ["type=claims&format=csv&status=success", "status"],
    ] as const) {
      const body = await problem(await t.read.get(`${EXPORT}?${qs}`), 422, "validation_failed");
      expect(errorPaths(body), qs).toEqual([path]);
    }
  });

  test("no key → 401 missing_api_key; a read-only key may export", async () => {
    const anonymous = await restClient();
    await problem(await anonymous.get(`${EXPORT}?type=payments&format=csv`), 401, "missing_api_key");
    const t = await tenantWithClients();
    expect((await t.read.get(`${EXPORT}?type=claims&format=xlsx`)).status()).toBe(200);
  });
});

test.describe("analytics export (dashboard session, GET /api/export)", () => {
  test.describe.configure({ timeout: 120_000 });

  test("any member of the active organization gets the same file; no session → 401; the same 422s", async () => {
    const a = await tenantWithRecords(`s${unique()}`);
    const viaKey = csvOf(await (await a.read.get(`${EXPORT}?type=payments&format=csv`)).body());
    const owner = await file(await a.account.session.get(`/api/export?type=payments&format=csv`), "payments", "csv");
    expect(csvOf(owner)).toEqual(viaKey);
    expect(csvOf(owner).some((r) => r[0] === a.reference)).toBe(true);

    const { account: member } = await joinTeam(a, "MEMBER");
    const sheet = await sheetOf(await file(await member.session.get(`/api/export?type=claims&format=xlsx`), "claims", "xlsx"));
    const ids: string[] = [];
    sheet.eachRow((row, n) => void (n > 1 && ids.push(String(row.getCell(1).value))));
    expect(ids).toEqual([a.claim.id]);

    const body = await problem(await member.session.get(`/api/export?type=everything&format=csv`), 422, "validation_failed");
    expect(errorPaths(body)).toEqual(["type"]);

    const anonymous = await fetch(`${BASE_URL}/api/export?type=payments&format=csv`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await anonymous.json()).code).toBe("unauthenticated");
  });
});
