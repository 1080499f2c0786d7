// The export against a real database: known records of every type exported
// in both formats and read back — the CSV through a real RFC 4180 parser
// (csv-parse), the xlsx through exceljs, cell by cell with its type — and a
// large export consumed while the heap is watched.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import type { Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { CreatePolicyInput } from "@/lib/schemas/policies";
import { createPolicy } from "@/server/policies/service";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { LATENCY_BUCKETS, Meter } from "./metering";
import { EXPORT_BATCH, exportAnalytics } from "./export";
import { ExportQuery } from "@/lib/schemas/analytics";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const T = ExcelJS.ValueType;
/** The range every known record sits in: Sunday 1 to Saturday 7 March 2026. */
const RANGE = { from: "2026-03-01", to: "2026-03-07" };
const NOW = new Date("2026-03-20T12:00:00Z");
const at = (iso: string) => new Date(iso);

type Query = { type: ExportQuery["type"]; format: ExportQuery["format"] } & Partial<ExportQuery>;

async function exported(actor: Actor, query: Query, now = NOW) {
  const res = await exportAnalytics(actor, ExportQuery.parse(query), now);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The CSV's records through csv-parse, strict RFC 4180 (CRLF records, quotes doubled). */
function csvRecords(bytes: Buffer): string[][] {
  const text = bytes.toString("utf8");
  expect(text.endsWith("\r\n")).toBe(true);
  return parse(text, { record_delimiter: "\r\n", relax_quotes: false, relax_column_count: false }) as string[][];
}

async function worksheet(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  return workbook.worksheets[0]!;
}

/** A cell as its type and value (and number format for numbers and dates): what a spreadsheet sees. */
function cellOf(c: ExcelJS.Cell): unknown {
  switch (c.type) {
    case T.Null:
      return null;
    case T.String:
      return { s: c.value };
    case T.Number:
      return { n: c.value, fmt: c.numFmt };
    case T.Date:
      return { d: (c.value as Date).toISOString(), fmt: c.numFmt };
    default:
      return { other: c.type, value: c.value };
  }
}

/** Every row of the sheet, cell by cell (typed), header included. */
function table(ws: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push(Array.from({ length: ws.columnCount }, (_, i) => cellOf(row.getCell(i + 1)))));
  return rows;
}

const s = (value: string) => ({ s: value });
const money = (n: number) => ({ n, fmt: "#,##0.00" });
const count = (n: number) => ({ n, fmt: "0" });
const ms = (n: number) => ({ n, fmt: "0.0" });
const instant = (iso: string) => ({ d: new Date(iso).toISOString(), fmt: "yyyy-mm-dd hh:mm:ss" });
const day = (iso: string) => ({ d: `${iso}T00:00:00.000Z`, fmt: "yyyy-mm-dd" });

async function policyOf(actor: Actor) {
  return createPolicy(
    actor,
    CreatePolicyInput.parse({ name: `Cover ${unique()}`, type: "property", duration: "yearly", price: "100.00" }),
  );
}

/**
 * One organization's known records in RANGE (and a few just outside it), and
 * another organization's in the same days, marked OTHER-ORG, that must never
 * show up.
 */
async function seed() {
  const { actor } = await ownerWithOrganization();
  const policy = await policyOf(actor);
  const tag = unique();
  const ledger = async (
    organizationId: string,
    createdAt: string,
    type: "payment" | "fee" | "withdrawal",
    amountMinor: bigint,
    description: string,
    reference = `ref_${tag}`,
  ) =>
    db.ledgerTransaction.create({
      data: { organizationId, createdAt: at(createdAt), type, amountMinor, currency: "NGN", reference, description },
    });
  const tx = [
    await ledger(actor.organizationId, "2026-03-02T09:00:00Z", "payment", 15_000n, 'Premium, "Home"\r\nsecond line'),
    await ledger(actor.organizationId, "2026-03-02T09:00:01Z", "fee", -225n, "=1+2"),
    await ledger(actor.organizationId, "2026-03-05T10:30:00Z", "withdrawal", -10_000n, "@SUM(A1)", `-wd_${tag}`),
  ];
  // Outside the range: before `from`, and on the day after `to`.
  await ledger(actor.organizationId, "2026-02-28T23:59:59Z", "payment", 70_000n, "before the range");
  await ledger(actor.organizationId, "2026-03-08T00:00:00Z", "payment", 80_000n, "after the range");

  const payment = (organizationId: string, policyId: string, n: number, over: Record<string, unknown>) =>
    db.payment.create({
      data: {
        organizationId,
        policyId,
        reference: `pay_${tag}_${n}`,
        email: `c${n}@example.test`,
        amountMinor: 10_000n,
        currency: "NGN",
        status: "pending",
        ...over,
      },
    });
  const payments = [
    await payment(actor.organizationId, policy.id, 1, {
      createdAt: at("2026-03-03T08:00:00Z"),
      status: "success",
      amountMinor: 25_000n,
      email: "+2348012345678@example.test",
      paidAt: at("2026-03-03T08:01:30Z"),
    }),
    await payment(actor.organizationId, policy.id, 2, {
      createdAt: at("2026-03-04T12:00:00Z"),
      amountMinor: 9_999n,
      email: "ada@example.test",
    }),
  ];
  await payment(actor.organizationId, policy.id, 3, { createdAt: at("2026-03-08T00:00:00Z") });

  const claim = (organizationId: string, policyId: string, over: Record<string, unknown>) =>
    db.claim.create({
      data: { organizationId, policyId, type: "theft", description: "x", amountMinor: 1n, currency: "NGN", ...over },
    });
  const claims = [
    await claim(actor.organizationId, policy.id, {
      createdAt: at("2026-03-04T09:00:00Z"),
      amountMinor: 50_000n,
      description: 'Stolen laptop, "MacBook"\nreported',
    }),
    await claim(actor.organizationId, policy.id, {
      createdAt: at("2026-03-06T09:00:00Z"),
      status: "approved",
      type: "fire",
      amountMinor: 120_050n,
      description: "-kitchen fire",
    }),
  ];

  // API usage through the real meter (one flush writes the minutes and their hours).
  const meter = new Meter();
  const requests = (
    organizationId: string,
    at: string,
    apiKeyId: string,
    method: string,
    route: string,
    calls: [number, number][],
  ) => {
    for (const [durationMs, status] of calls)
      meter.record({ organizationId, apiKeyId, method, route, status, durationMs, at: new Date(at) });
  };
  const o = actor.organizationId;
  requests(o, "2026-03-02T10:05:00Z", "k1", "GET", "/business/policies", [
    [4, 200],
    [4, 200],
    [400, 404],
  ]);
  requests(o, "2026-03-02T10:40:00Z", "k2", "GET", "/business/policies", [[12, 200]]);
  requests(o, "2026-03-02T10:40:00Z", "k1", "POST", "/payments/initialize", [
    [40, 422],
    [40, 422],
  ]);
  requests(o, "2026-03-02T11:00:00Z", "k1", "GET", "/business/policies", [[4, 200]]);
  requests(
    o,
    "2026-03-03T00:00:00Z",
    "k1",
    "GET",
    "/business/policies/{id}",
    Array.from({ length: 5 }, () => [7, 200]),
  );
  requests(o, "2026-02-28T23:59:00Z", "k1", "GET", "/before", [[4, 200]]);
  requests(o, "2026-03-08T00:00:00Z", "k1", "GET", "/after", [[4, 200]]);

  // Another organization, same days: never in this one's files.
  const other = await ownerWithOrganization();
  const otherPolicy = await policyOf(other.actor);
  await ledger(other.actor.organizationId, "2026-03-02T09:30:00Z", "payment", 99_900n, "OTHER-ORG premium", "OTHER-ORG");
  await payment(other.actor.organizationId, otherPolicy.id, 9, {
    createdAt: at("2026-03-03T09:00:00Z"),
    email: "other-org@example.test",
  });
  await claim(other.actor.organizationId, otherPolicy.id, {
    createdAt: at("2026-03-04T10:00:00Z"),
    description: "OTHER-ORG claim",
  });
  requests(other.actor.organizationId, "2026-03-02T10:05:00Z", "k9", "GET", "/OTHER-ORG", [[4, 200]]);
  await meter.flush();

  return { actor, policy, tx, payments, claims, other };
}

type Seeded = Awaited<ReturnType<typeof seed>>;
const seeded: { current?: Promise<Seeded> } = {};
/** The known records, made once for the file (each test only reads them). */
const known = () => (seeded.current ??= seed());

function expectNoOtherOrganization(bytes: Buffer, data: Seeded) {
  const text = bytes.toString("latin1");
  expect(text).not.toContain("OTHER-ORG");
  expect(text).not.toContain("other-org@");
  expect(text).not.toContain(data.other.actor.organizationId);
}

describe("export: the file", () => {
  it("answers CSV and xlsx attachments named after the type and the resolved range, never cached", async () => {
    const { actor } = await known();
    for (const [format, type] of [
      ["csv", "text/csv; charset=utf-8"],
      ["xlsx", XLSX],
    ] as const) {
      const { res } = await exported(actor, { type: "payments", format, ...RANGE });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="coverdesk-payments-2026-03-01-to-2026-03-07.${format}"`,
      );
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    // Default range: the last 30 days, today (UTC) included.
    const { res } = await exported(actor, { type: "claims", format: "csv" }, new Date("2026-03-20T23:59:00Z"));
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="coverdesk-claims-2026-02-19-to-2026-03-20.csv"');
  });

  it("refuses a resolved range that is reversed, or over 366 days for a series, with 422", async () => {
    const { actor } = await known();
    await expect(
      exportAnalytics(actor, ExportQuery.parse({ type: "payments", format: "csv", from: "2026-04-01" }), NOW),
    ).rejects.toMatchObject({
      code: "validation_failed",
      extra: { errors: [{ path: "from", message: "Choose a start date on or before the end date" }] },
    });
    await expect(
      exportAnalytics(actor, ExportQuery.parse({ type: "revenue", format: "csv", from: "2024-01-01" }), NOW),
    ).rejects.toMatchObject({ code: "validation_failed", extra: { errors: [{ path: "to" }] } });
    // A record list streams any range.
    const { res } = await exported(actor, { type: "payments", format: "csv", from: "2020-01-01" });
    expect(res.status).toBe(200);
  });
});

describe("export: transactions", () => {
  it("CSV: the contract's columns, oldest first, amounts as signed numbers, hostile text round-trips with formulas neutralized", async () => {
    const data = await known();
    const { bytes } = await exported(data.actor, { type: "transactions", format: "csv", ...RANGE });
    expect(bytes.toString("utf8").startsWith("id,createdAt,type,amount,currency,reference,description\r\n")).toBe(true);
    expect(csvRecords(bytes)).toEqual([
      ["id", "createdAt", "type", "amount", "currency", "reference", "description"],
      [
        data.tx[0]!.id,
        "2026-03-02T09:00:00.000Z",
        "payment",
        "150.00",
        "NGN",
        data.tx[0]!.reference,
        'Premium, "Home"\r\nsecond line',
      ],
      [data.tx[1]!.id, "2026-03-02T09:00:01.000Z", "fee", "-2.25", "NGN", data.tx[1]!.reference, "'=1+2"],
      [data.tx[2]!.id, "2026-03-05T10:30:00.000Z", "withdrawal", "-100.00", "NGN", `'${data.tx[2]!.reference}`, "'@SUM(A1)"],
    ]);
    expectNoOtherOrganization(bytes, data);
  });

  it("xlsx: typed cells — instants as dates, money as 2-decimal numbers with the currency in the header, text as strings", async () => {
    const data = await known();
    const { bytes } = await exported(data.actor, { type: "transactions", format: "xlsx", ...RANGE });
    const ws = await worksheet(bytes);
    expect(ws.name).toBe("transactions");
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(table(ws)).toEqual([
      ["id", "createdAt", "type", "amount (NGN)", "currency", "reference", "description"].map(s),
      [
        s(data.tx[0]!.id),
        instant("2026-03-02T09:00:00Z"),
        s("payment"),
        money(150),
        s("NGN"),
        s(data.tx[0]!.reference),
        // CRLF inside a cell is LF in xlsx (XML keeps no CR).
        s('Premium, "Home"\nsecond line'),
      ],
      [s(data.tx[1]!.id), instant("2026-03-02T09:00:01Z"), s("fee"), money(-2.25), s("NGN"), s(data.tx[1]!.reference), s("=1+2")],
      [
        s(data.tx[2]!.id),
        instant("2026-03-05T10:30:00Z"),
        s("withdrawal"),
        money(-100),
        s("NGN"),
        s(data.tx[2]!.reference),
        s("@SUM(A1)"),
      ],
    ]);
    // A string that looks like a formula is stored as text: no cell holds a formula.
    ws.eachRow((row) => row.eachCell((c) => expect(c.formula).toBeFalsy()));
    expectNoOtherOrganization(bytes, data);
  });
});

describe("export: payments", () => {
  it("CSV and xlsx: every status, paidAt empty when unpaid, the email neutralized in CSV only", async () => {
    const data = await known();
    const [p1, p2] = data.payments as [(typeof data.payments)[0], (typeof data.payments)[0]];
    const csv = await exported(data.actor, { type: "payments", format: "csv", ...RANGE });
    expect(csvRecords(csv.bytes)).toEqual([
      ["reference", "createdAt", "status", "amount", "currency", "policyId", "email", "paidAt"],
      [
        p1.reference,
        "2026-03-03T08:00:00.000Z",
        "success",
        "250.00",
        "NGN",
        data.policy.id,
        "'+2348012345678@example.test",
        "2026-03-03T08:01:30.000Z",
      ],
      [p2.reference, "2026-03-04T12:00:00.000Z", "pending", "99.99", "NGN", data.policy.id, "ada@example.test", ""],
    ]);
    expectNoOtherOrganization(csv.bytes, data);

    const xlsx = await exported(data.actor, { type: "payments", format: "xlsx", ...RANGE });
    const ws = await worksheet(xlsx.bytes);
    expect(ws.name).toBe("payments");
    expect(table(ws)).toEqual([
      ["reference", "createdAt", "status", "amount (NGN)", "currency", "policyId", "email", "paidAt"].map(s),
      [
        s(p1.reference),
        instant("2026-03-03T08:00:00Z"),
        s("success"),
        money(250),
        s("NGN"),
        s(data.policy.id),
        s("+2348012345678@example.test"),
        instant("2026-03-03T08:01:30Z"),
      ],
      [
        s(p2.reference),
        instant("2026-03-04T12:00:00Z"),
        s("pending"),
        money(99.99),
        s("NGN"),
        s(data.policy.id),
        s("ada@example.test"),
        null,
      ],
    ]);
    expectNoOtherOrganization(xlsx.bytes, data);
  });

  it("reads in keyset batches: records sharing one instant across batch boundaries come exactly once each", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await policyOf(actor);
    const n = EXPORT_BATCH * 2 + 345;
    await db.$executeRaw`
      INSERT INTO payment (id, "organizationId", "policyId", reference, email, "amountMinor", currency, status, "createdAt", "updatedAt")
      SELECT 'tie_' || ${actor.organizationId} || '_' || g, ${actor.organizationId}, ${policy.id}, 'tie_' || ${actor.organizationId} || '_' || g,
        'c' || g || '@example.test', g, 'NGN', 'pending', '2026-03-03T08:00:00'::timestamp(3), now()
      FROM generate_series(1, ${n}::int) AS g`;
    const { bytes } = await exported(actor, { type: "payments", format: "csv", ...RANGE });
    const refs = csvRecords(bytes)
      .slice(1)
      .map((r) => r[0]!);
    expect(refs).toHaveLength(n);
    expect(new Set(refs).size).toBe(n);
  });

  it("reads the first batch before answering and the others while the body is read", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await policyOf(actor);
    await db.$executeRaw`
      INSERT INTO payment (id, "organizationId", "policyId", reference, email, "amountMinor", currency, status, "createdAt", "updatedAt")
      SELECT 'lazy_' || ${actor.organizationId} || '_' || g, ${actor.organizationId}, ${policy.id}, 'lazy_' || ${actor.organizationId} || '_' || g,
        'c' || g || '@example.test', g, 'NGN', 'pending', '2026-03-03T08:00:00'::timestamp(3) + g * interval '1 second', now()
      FROM generate_series(1, ${EXPORT_BATCH + 500}::int) AS g`;
    const res = await exportAnalytics(actor, ExportQuery.parse({ type: "payments", format: "csv", ...RANGE }), NOW);
    // Gone once the answer has started: the first batch was already read, the rest is read as the client reads.
    await db.payment.deleteMany({ where: { organizationId: actor.organizationId } });
    const records = csvRecords(Buffer.from(await res.arrayBuffer()));
    expect(records).toHaveLength(1 + EXPORT_BATCH);
    expect(records.at(-1)![0]).toBe(`lazy_${actor.organizationId}_${EXPORT_BATCH}`);
  });
});

describe("export: claims", () => {
  it("CSV and xlsx: status, type, amount, policy and description, the leading - neutralized in CSV", async () => {
    const data = await known();
    const [c1, c2] = data.claims as [(typeof data.claims)[0], (typeof data.claims)[0]];
    const csv = await exported(data.actor, { type: "claims", format: "csv", ...RANGE });
    expect(csvRecords(csv.bytes)).toEqual([
      ["id", "createdAt", "status", "type", "amount", "currency", "policyId", "description"],
      [
        c1.id,
        "2026-03-04T09:00:00.000Z",
        "submitted",
        "theft",
        "500.00",
        "NGN",
        data.policy.id,
        'Stolen laptop, "MacBook"\nreported',
      ],
      [c2.id, "2026-03-06T09:00:00.000Z", "approved", "fire", "1200.50", "NGN", data.policy.id, "'-kitchen fire"],
    ]);
    expectNoOtherOrganization(csv.bytes, data);

    const xlsx = await exported(data.actor, { type: "claims", format: "xlsx", ...RANGE });
    const ws = await worksheet(xlsx.bytes);
    expect(ws.name).toBe("claims");
    expect(table(ws)).toEqual([
      ["id", "createdAt", "status", "type", "amount (NGN)", "currency", "policyId", "description"].map(s),
      [
        s(c1.id),
        instant("2026-03-04T09:00:00Z"),
        s("submitted"),
        s("theft"),
        money(500),
        s("NGN"),
        s(data.policy.id),
        s('Stolen laptop, "MacBook"\nreported'),
      ],
      [
        s(c2.id),
        instant("2026-03-06T09:00:00Z"),
        s("approved"),
        s("fire"),
        money(1200.5),
        s("NGN"),
        s(data.policy.id),
        s("-kitchen fire"),
      ],
    ]);
    expectNoOtherOrganization(xlsx.bytes, data);
  });
});

describe("export: revenue", () => {
  it("CSV: one zero-filled row per day of the range from the daily rollups, net = gross − fees", async () => {
    const data = await known();
    const { bytes } = await exported(data.actor, { type: "revenue", format: "csv", ...RANGE });
    const zero = (d: string) => [d, "0.00", "0.00", "0.00", "NGN"];
    expect(csvRecords(bytes)).toEqual([
      ["date", "gross", "fees", "net", "currency"],
      zero("2026-03-01"),
      ["2026-03-02", "150.00", "2.25", "147.75", "NGN"],
      zero("2026-03-03"),
      zero("2026-03-04"),
      zero("2026-03-05"),
      zero("2026-03-06"),
      zero("2026-03-07"),
    ]);
  });

  it("xlsx: ISO weeks dated by their Monday and months by their 1st, only the range's days counted", async () => {
    const data = await known();
    const weeks = await worksheet(
      (await exported(data.actor, { type: "revenue", format: "xlsx", granularity: "week", ...RANGE })).bytes,
    );
    expect(weeks.name).toBe("revenue");
    expect(table(weeks)).toEqual([
      ["date", "gross (NGN)", "fees (NGN)", "net (NGN)", "currency"].map(s),
      // Sunday 1 March belongs to the week of Monday 23 February; 28 February (before `from`) is not counted.
      [day("2026-02-23"), money(0), money(0), money(0), s("NGN")],
      [day("2026-03-02"), money(150), money(2.25), money(147.75), s("NGN")],
    ]);
    const months = await worksheet(
      (
        await exported(data.actor, {
          type: "revenue",
          format: "xlsx",
          granularity: "month",
          from: "2026-02-28",
          to: "2026-03-31",
        })
      ).bytes,
    );
    expect(table(months)).toEqual([
      ["date", "gross (NGN)", "fees (NGN)", "net (NGN)", "currency"].map(s),
      [day("2026-02-01"), money(700), money(0), money(700), s("NGN")],
      [day("2026-03-01"), money(950), money(2.25), money(947.75), s("NGN")],
    ]);
  });
});

describe("export: api-usage", () => {
  it("CSV by hour: one row per hour × method × route, requests and errors summed, p50/p95 from the merged histograms", async () => {
    const data = await known();
    const { bytes } = await exported(data.actor, { type: "api-usage", format: "csv", granularity: "hour", ...RANGE });
    expect(csvRecords(bytes)).toEqual([
      ["bucket", "method", "route", "requests", "errors", "p50Ms", "p95Ms"],
      // (3,5] ×2, (10,15] ×1, (300,500] ×1: the median is at the top of (3,5], the 95th at 80 % of (300,500].
      ["2026-03-02T10:00:00.000Z", "GET", "/business/policies", "4", "1", "5", "460"],
      ["2026-03-02T10:00:00.000Z", "POST", "/payments/initialize", "2", "2", "40", "49"],
      ["2026-03-02T11:00:00.000Z", "GET", "/business/policies", "1", "0", "4", "4.9"],
      ["2026-03-03T00:00:00.000Z", "GET", "/business/policies/{id}", "5", "0", "6", "6.9"],
    ]);
    expectNoOtherOrganization(bytes, data);
  });

  it("xlsx by day: buckets as dates, counts as integers, latencies as numbers", async () => {
    const data = await known();
    const { bytes } = await exported(data.actor, { type: "api-usage", format: "xlsx", ...RANGE });
    const ws = await worksheet(bytes);
    expect(ws.name).toBe("api-usage");
    expect(table(ws)).toEqual([
      ["bucket", "method", "route", "requests", "errors", "p50Ms", "p95Ms"].map(s),
      [day("2026-03-02"), s("GET"), s("/business/policies"), count(5), count(1), ms(4.7), ms(450)],
      [day("2026-03-02"), s("POST"), s("/payments/initialize"), count(2), count(2), ms(40), ms(49)],
      [day("2026-03-03"), s("GET"), s("/business/policies/{id}"), count(5), count(0), ms(6), ms(6.9)],
    ]);
    for (const row of table(ws).slice(1))
      for (const c of (row as { n?: number }[]).slice(3, 5)) expect(Number.isInteger(c.n)).toBe(true);
    expectNoOtherOrganization(bytes, data);
  });
});

describe("export: api-usage over many hours", () => {
  it("reads the hourly rollup in keyset batches and sums each day per route exactly", async () => {
    const { actor } = await ownerWithOrganization();
    // 100 hours × 25 routes = 2 500 rollup rows, one request each (every fifth an error).
    await db.$executeRaw`
      INSERT INTO api_usage_hourly ("organizationId", "apiKeyId", hour, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
      SELECT ${actor.organizationId}, 'k1', '2026-03-02T00:00:00'::timestamp(3) + h * interval '1 hour', 'GET', '/r' || lpad(r::text, 2, '0'),
        1, CASE WHEN (h + r) % 5 = 0 THEN 1 ELSE 0 END, 0, 4, array_fill(0, ARRAY[${LATENCY_BUCKETS}::int])
      FROM generate_series(0, 99) AS h, generate_series(1, 25) AS r`;
    const records = csvRecords((await exported(actor, { type: "api-usage", format: "csv", ...RANGE })).bytes).slice(1);
    // Days 2, 3, 4 and 5 March whole, then 4 hours of the 6th.
    expect(records).toHaveLength(5 * 25);
    expect(records.map((r) => r[0]).filter((d, i, all) => all.indexOf(d) === i)).toEqual(
      ["02", "03", "04", "05", "06"].map((d) => `2026-03-${d}T00:00:00.000Z`),
    );
    expect(records.filter((r) => r[0] === "2026-03-02T00:00:00.000Z").map((r) => r[2])).toEqual(
      Array.from({ length: 25 }, (_, i) => `/r${String(i + 1).padStart(2, "0")}`),
    );
    expect(records.reduce((sum, r) => sum + Number(r[3]), 0)).toBe(2_500);
    expect(records.reduce((sum, r) => sum + Number(r[4]), 0)).toBe(500);
    expect(records.find((r) => r[0] === "2026-03-06T00:00:00.000Z")![3]).toBe("4");
  });
});

describe("export: an empty range", () => {
  it("is the header row alone, in both formats", async () => {
    const { actor } = await ownerWithOrganization();
    for (const type of ["transactions", "payments", "claims", "api-usage"] as const) {
      const csv = await exported(actor, { type, format: "csv", ...RANGE });
      expect(csvRecords(csv.bytes)).toHaveLength(1);
      const ws = await worksheet((await exported(actor, { type, format: "xlsx", ...RANGE })).bytes);
      expect(ws.rowCount).toBe(1);
    }
  });
});

describe("export: a client that leaves", () => {
  it("cancelling the body mid-download ends the export quietly, in both formats", async () => {
    const { actor } = await ownerWithOrganization();
    const policy = await policyOf(actor);
    await db.$executeRaw`
      INSERT INTO payment (id, "organizationId", "policyId", reference, email, "amountMinor", currency, status, "createdAt", "updatedAt")
      SELECT 'gone_' || ${actor.organizationId} || '_' || g, ${actor.organizationId}, ${policy.id}, 'gone_' || ${actor.organizationId} || '_' || g,
        'c' || g || '@example.test', g, 'NGN', 'pending', '2026-03-03T08:00:00'::timestamp(3) + g * interval '1 second', now()
      FROM generate_series(1, ${EXPORT_BATCH * 3}::int) AS g`;
    for (const format of ["csv", "xlsx"] as const) {
      const res = await exportAnalytics(actor, ExportQuery.parse({ type: "payments", format, ...RANGE }), NOW);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      await reader.cancel();
      // Anything thrown or rejected unhandled after this fails the run.
      await new Promise((r) => setTimeout(r, 300));
    }
    // The database still answers.
    expect(await db.payment.count({ where: { organizationId: actor.organizationId } })).toBe(EXPORT_BATCH * 3);
  });
});

// ---------- a large export in bounded memory ----------

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
/** Memory the process holds in JS objects and buffers, after full collections (the second frees what the first finalized). */
const retained = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * Reads the body to the end, handing each chunk to `onChunk`, and samples
 * the memory retained (over what was held before the export started) every
 * 512 KiB (each sample is two full collections of the worker's whole heap:
 * every 256 KiB, the test took 52 s of the suite's shared worker): its peak, and how much it still grew after the first quarter of
 * the body (a body held whole, or anything kept per row, grows all along).
 */
async function consume(start: () => Promise<Response>, onChunk: (chunk: Uint8Array) => void) {
  const base = retained();
  const res = await start();
  const reader = res.body!.getReader();
  const samples: { at: number; held: number }[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    onChunk(value);
    if (bytes >= (samples.at(-1)?.at ?? -Infinity) + 512 * 1024) samples.push({ at: bytes, held: retained() - base });
  }
  const max = (list: typeof samples) => Math.max(0, ...list.map((x) => x.held));
  const early = max(samples.filter((x) => x.at <= bytes / 4));
  return { bytes, peak: max(samples), lateGrowth: max(samples.filter((x) => x.at > bytes / 4)) - early };
}

// 30 000 rows (a CSV of ~6 MB), on either database: the embedded PGlite inserts
// ~2 000 rows a second (every row runs the daily-rollup triggers), and the
// bounds are relative to the file, so they mean the same at any size where
// the file, not the fixed cost of a batch, dominates. (100 000 on PostgreSQL
// took 43 s of the suite, most of it in the measuring collections.)
const BIG = 30_000;

describe(`export: ${BIG.toLocaleString("en")} payments`, () => {
  it(
    "streams CSV and xlsx in bounded memory — the held peak a fraction of the data and flat along the body — with the row count exact",
    { timeout: 180_000 },
    async () => {
      const { actor } = await ownerWithOrganization();
      const policy = await policyOf(actor);
      // One statement; the daily-rollup triggers fire for every row. One payment an hour, so a
      // day's rollup row is updated 24 times in the statement, not BIG times (each update leaves
      // a row version the same transaction walks past). Emails of 140 characters that do not
      // compress away: the file, not the fixed cost of a batch, dominates what a leak would hold.
      await db.$executeRaw`
        INSERT INTO payment (id, "organizationId", "policyId", reference, email, "amountMinor", currency, status, "paidAt", "createdAt", "updatedAt")
        SELECT 'big_' || ${actor.organizationId} || '_' || g, ${actor.organizationId}, ${policy.id}, 'big_' || ${actor.organizationId} || '_' || g,
          md5(g::text) || md5((g + 1)::text) || md5((g + 2)::text) || md5((g + 3)::text) || '@example.test',
          10000 + g, 'NGN', 'success', t.at, t.at, t.at
        FROM generate_series(1, ${BIG}::int) AS g,
          LATERAL (SELECT '2010-01-01T00:00:00'::timestamp(3) + g * interval '1 hour' AS at) AS t`;
      const query = (format: "csv" | "xlsx", to = "2025-12-31") =>
        ExportQuery.parse({ type: "payments", format, from: "2010-01-01", to });
      // Code compiled and caches filled on a first run are not the export's holding: warm up on a few rows.
      for (const format of ["csv", "xlsx"] as const) {
        await (await exportAnalytics(actor, query(format, "2010-01-31"), NOW)).arrayBuffer();
      }

      // The measure sees a body held whole: keeping every chunk holds (nearly) the file.
      const kept: Uint8Array[] = [];
      const control = await consume(
        () => exportAnalytics(actor, query("csv"), NOW),
        (chunk) => void kept.push(chunk),
      );
      expect(control.peak).toBeGreaterThan(control.bytes * 0.8);
      kept.length = 0;

      // CSV: the records counted on the fly (no field here holds a line break).
      let lineEnds = 0;
      const csv = await consume(
        () => exportAnalytics(actor, query("csv"), NOW),
        (chunk) => {
          for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) lineEnds++;
        },
      );
      expect(lineEnds).toBe(BIG + 1);
      expect(csv.bytes).toBe(control.bytes);
      expect(csv.peak, `${csv.peak} B held at most for a ${csv.bytes} B file`).toBeLessThan(csv.bytes / 2);
      expect(csv.lateGrowth).toBeLessThan(csv.bytes / 8);

      // xlsx: written to a temporary file as it comes, then read back with exceljs' streaming reader.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-export-"));
      try {
        const file = path.join(dir, "payments.xlsx");
        const fd = fs.openSync(file, "w");
        const xlsx = await consume(
          () => exportAnalytics(actor, query("xlsx"), NOW),
          (chunk) => void fs.writeSync(fd, chunk),
        );
        fs.closeSync(fd);
        // A sheet held as rows or as XML would hold more than the same rows as CSV text; a zip
        // held whole (smaller: compressed) would still grow by three quarters of the file.
        expect(xlsx.peak, `${xlsx.peak} B held at most for ${csv.bytes} B of rows`).toBeLessThan(csv.bytes / 2);
        expect(xlsx.lateGrowth, `${xlsx.lateGrowth} B more held late in a ${xlsx.bytes} B file`).toBeLessThan(xlsx.bytes / 2);
        let rows = 0;
        let last: ExcelJS.CellValue[] = [];
        for await (const ws of new ExcelJS.stream.xlsx.WorkbookReader(file, {})) {
          for await (const row of ws) {
            rows++;
            last = row.values as ExcelJS.CellValue[];
          }
        }
        expect(rows).toBe(BIG + 1);
        expect(last[1]).toBe(`big_${actor.organizationId}_${BIG}`);
        expect(last[4]).toBe((10_000 + BIG) / 100);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
