// GET /business/analytics/export: one kind of record over a range of UTC
// days, as a CSV (RFC 4180) or xlsx file.
//
// Bounded memory whatever the row count: rows are read EXPORT_BATCH at a time
// (keyset pagination on an index, never OFFSET), written to the body as they
// come, and the next batch is read only once the client has taken the
// previous one (the body's backpressure). The first batch is read BEFORE the
// answer starts, so a failure there (the database down) is an ordinary problem
// answer; a failure after the first byte can only abort the download, and is
// logged.
//
// Records come oldest first, like a statement. CSV cells are neutralized
// against formulas (src/lib/csv.ts: text cells only; money and counts stay
// numbers). xlsx cells are typed: dates as dates, money as numbers with two
// decimals and the currency in the header, counts as integers, text as
// strings (exceljs writes a string as text, never as a formula; line breaks
// as LF, the only one XML keeps).
import { M } from "@/lib/messages";
import { claimWhere } from "@/server/claims/service";
import type { SearchClaimsQuery } from "@/lib/schemas/claims";
import { paymentWhere } from "@/server/payments/search";
import type { PaymentFilters } from "@/lib/schemas/payments";
import type { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { Prisma } from "@/generated/prisma/client";
import { csvLine, type CsvKind, type CsvValue } from "@/lib/csv";
import { formatMinor, minorDigits } from "@/lib/money";
import { assertCan, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { dayEnd, dayStart, MAX_SERIES_DAYS } from "@/lib/schemas/earnings";
import { validationError } from "@/server/errors";
import { logger } from "@/server/logger";
import { addHistograms, emptyHistogram, percentileMs } from "./metering";
import { DEFAULT_RANGE_DAYS, type ExportFormat, type ExportQuery, type ExportType } from "@/lib/schemas/analytics";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows per database read, and at most this many rows (plus one usage bucket) held at a time. */
export const EXPORT_BATCH = 1_000;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/**
 * How a column's cells are written. CSV: money as a decimal string
 * ("-1.50"), instants as ISO 8601 UTC, days as YYYY-MM-DD. xlsx: money as a
 * number formatted with two decimals, instants and days as dates.
 */
type Kind = "text" | "money" | "count" | "ms" | "timestamp" | "day";
interface Column {
  name: string;
  kind: Kind;
  /** Width in characters, for xlsx. */
  width: number;
  /** xlsx number format when not the kind's default. */
  numFmt?: string;
}
type Value = string | number | bigint | Date | null;
type Row = Value[];

/** A money column's number format: the currency's decimals ("#,##0.00" for NGN, "#,##0" for JPY). */
const moneyFormat = (currency: string) => {
  const digits = minorDigits(currency);
  return digits === 0 ? "#,##0" : `#,##0.${"0".repeat(digits)}`;
};

const NUM_FMT: Partial<Record<Kind, string>> = {
  count: "0",
  ms: "0.0",
  timestamp: "yyyy-mm-dd hh:mm:ss",
  day: "yyyy-mm-dd",
};

interface Range {
  from: string;
  to: string;
  /** First instant of `from`. */
  start: Date;
  /** First instant after `to` (exclusive). */
  end: Date;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** `from`/`to` with their defaults (the last 30 days, today included), checked again once resolved. */
function rangeOf(query: ExportQuery, now: Date): Range {
  const to = query.to ?? isoDay(now);
  const from = query.from ?? isoDay(new Date(dayStart(to).getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS));
  if (from > to) throw validationError([{ path: "from", message: M.dateOrder }]);
  const start = dayStart(from);
  const end = dayEnd(to);
  // Record lists stream any range; the series are zero-filled, so their length is capped like the JSON series.
  const series = query.type === "revenue" || query.type === "api-usage";
  if (series && (end.getTime() - start.getTime()) / DAY_MS > MAX_SERIES_DAYS) {
    throw validationError([{ path: "to", message: `the range is at most ${MAX_SERIES_DAYS} days` }]);
  }
  return { from, to, start, end };
}

// ---------- the records ----------

interface Position {
  createdAt: Date;
  id: string;
}

/** What `byCreatedAt` adds to a model's `where`: the range, and the keyset continuing after `after`. */
function rangeAfter(range: Range, after: Position | null) {
  return {
    // The bound on createdAt alone lets the index scan start at the keyset; the OR settles ties.
    createdAt: { gte: after && after.createdAt > range.start ? after.createdAt : range.start, lt: range.end },
    ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
  };
}

/** (createdAt asc, id desc): the (organizationId, createdAt desc, id) index read backwards. */
const OLDEST_FIRST = [{ createdAt: "asc" as const }, { id: "desc" as const }];

/** The records of a range, oldest first, EXPORT_BATCH per read. */
async function* byCreatedAt<T extends Position>(
  range: Range,
  read: (where: ReturnType<typeof rangeAfter>) => Promise<T[]>,
  toRow: (record: T) => Row,
): AsyncGenerator<Row[]> {
  let after: Position | null = null;
  for (;;) {
    const records = await read(rangeAfter(range, after));
    if (records.length > 0) yield records.map(toRow);
    if (records.length < EXPORT_BATCH) return;
    after = records[records.length - 1]!;
  }
}

/** Start (ms) of the revenue bucket holding the day starting at `t`: the day, its ISO week (Monday) or its month. */
function revenueBucket(t: number, granularity: "day" | "week" | "month"): number {
  const d = new Date(t);
  if (granularity === "week") return t - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  if (granularity === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return t;
}

/** One row per bucket touching the range (dated by the bucket's first day), zero-filled, from the daily rollups. */
async function* revenueRows(
  organizationId: string,
  range: Range,
  granularity: "day" | "week" | "month",
  currency: string,
): AsyncGenerator<Row[]> {
  // At most MAX_SERIES_DAYS rows: read at once.
  const days = await db.dailyStats.findMany({
    where: { organizationId, day: { gte: range.start, lt: range.end } },
    select: { day: true, grossMinor: true, feesMinor: true },
  });
  const byDay = new Map(days.map((d) => [d.day.getTime(), d]));
  // Days come in order, so buckets are created (and kept, Map order) in order.
  const buckets = new Map<number, { gross: bigint; fees: bigint }>();
  for (let t = range.start.getTime(); t < range.end.getTime(); t += DAY_MS) {
    const start = revenueBucket(t, granularity);
    let bucket = buckets.get(start);
    if (!bucket) {
      bucket = { gross: 0n, fees: 0n };
      buckets.set(start, bucket);
    }
    const day = byDay.get(t);
    if (day) {
      bucket.gross += day.grossMinor;
      bucket.fees += day.feesMinor;
    }
  }
  const rows: Row[] = [...buckets].map(([start, b]) => [new Date(start), b.gross, b.fees, b.gross - b.fees, currency]);
  for (let i = 0; i < rows.length; i += EXPORT_BATCH) yield rows.slice(i, i + EXPORT_BATCH);
}

interface UsageRecord {
  hour: Date;
  apiKeyId: string;
  method: string;
  route: string;
  requests: number;
  errors: number;
  latencyBuckets: number[];
}

/**
 * One row per bucket (hour or day) × method × route, buckets in order, from
 * the hourly rollup (written with the per-minute rows, in the same flush
 * transaction; both buckets are whole hours). Its rows are read in
 * primary-key order (hour first), so a bucket is complete, and written, as
 * soon as a later hour shows up: only one bucket's endpoints are held at a
 * time.
 */
async function* usageRows(organizationId: string, range: Range, granularity: "hour" | "day"): AsyncGenerator<Row[]> {
  const unit = granularity === "hour" ? HOUR_MS : DAY_MS;
  let bucket: number | null = null;
  let groups = new Map<string, { method: string; route: string; requests: number; errors: number; histogram: number[] }>();
  let rows: Row[] = [];
  const close = () => {
    if (bucket === null) return;
    const sorted = [...groups.values()].sort((a, b) =>
      a.method === b.method ? (a.route < b.route ? -1 : a.route > b.route ? 1 : 0) : a.method < b.method ? -1 : 1,
    );
    for (const g of sorted) {
      rows.push([
        new Date(bucket),
        g.method,
        g.route,
        g.requests,
        g.errors,
        percentileMs(g.histogram, 0.5),
        percentileMs(g.histogram, 0.95),
      ]);
    }
    groups = new Map();
  };
  let after: UsageRecord | null = null;
  for (;;) {
    const records: UsageRecord[] = await db.$queryRaw<UsageRecord[]>`
      SELECT hour, "apiKeyId", method, route, requests, errors, "latencyBuckets"
      FROM api_usage_hourly
      WHERE "organizationId" = ${organizationId}
        AND hour >= ${range.start}::timestamp(3) AND hour < ${range.end}::timestamp(3)
        ${
          after
            ? Prisma.sql`AND (hour, "apiKeyId", method, route) > (${after.hour}::timestamp(3), ${after.apiKeyId}, ${after.method}, ${after.route})`
            : Prisma.empty
        }
      ORDER BY hour, "apiKeyId", method, route
      LIMIT ${EXPORT_BATCH}`;
    for (const r of records) {
      const b = Math.floor(r.hour.getTime() / unit) * unit;
      if (b !== bucket) {
        close();
        bucket = b;
      }
      const key = `${r.method}\u0000${r.route}`;
      let g = groups.get(key);
      if (!g) {
        g = { method: r.method, route: r.route, requests: 0, errors: 0, histogram: emptyHistogram() };
        groups.set(key, g);
      }
      g.requests += r.requests;
      g.errors += r.errors;
      addHistograms(g.histogram, r.latencyBuckets);
    }
    if (rows.length > 0) {
      yield rows;
      rows = [];
    }
    if (records.length < EXPORT_BATCH) break;
    after = records[records.length - 1]!;
  }
  close();
  if (rows.length > 0) yield rows;
}

const col = (name: string, kind: Kind, width: number, numFmt?: string): Column => ({ name, kind, width, numFmt });

/** The columns of a type (the contract's, in its order) and its rows. */
function sheetOf(
  type: ExportType,
  organizationId: string,
  range: Range,
  query: ExportQuery,
  currency: string,
): { columns: Column[]; rows: AsyncGenerator<Row[]> } {
  const take = EXPORT_BATCH;
  switch (type) {
    case "revenue":
      return {
        columns: [
          col("date", "day", 12),
          col("gross", "money", 16),
          col("fees", "money", 16),
          col("net", "money", 16),
          col("currency", "text", 9),
        ],
        rows: revenueRows(
          organizationId,
          range,
          query.granularity === "week" || query.granularity === "month" ? query.granularity : "day",
          currency,
        ),
      };
    case "transactions":
      return {
        columns: [
          col("id", "text", 28),
          col("createdAt", "timestamp", 20),
          col("type", "text", 20),
          col("amount", "money", 16),
          col("currency", "text", 9),
          col("reference", "text", 28),
          col("description", "text", 48),
        ],
        rows: byCreatedAt(
          range,
          (where) =>
            db.ledgerTransaction.findMany({
              where: { organizationId, ...where },
              orderBy: OLDEST_FIRST,
              take,
              select: {
                id: true,
                createdAt: true,
                type: true,
                amountMinor: true,
                currency: true,
                reference: true,
                description: true,
              },
            }),
          (t) => [t.id, t.createdAt, t.type, t.amountMinor, t.currency, t.reference, t.description],
        ),
      };
    case "payments":
      return {
        columns: [
          col("reference", "text", 28),
          col("createdAt", "timestamp", 20),
          col("status", "text", 10),
          col("amount", "money", 16),
          col("currency", "text", 9),
          col("policyId", "text", 28),
          col("email", "text", 32),
          col("paidAt", "timestamp", 20),
        ],
        rows: byCreatedAt(
          range,
          (where) =>
            db.payment.findMany({
              // The Payments page's filters, as its list and totals apply them.
              where: {
                AND: [
                  paymentWhere(organizationId, {
                    status: query.status as PaymentFilters["status"],
                    policyId: query.policyId,
                    paymentLinkId: query.paymentLinkId,
                    q: query.q,
                  }),
                  where,
                ],
              },
              orderBy: OLDEST_FIRST,
              take,
              select: {
                id: true,
                reference: true,
                createdAt: true,
                status: true,
                amountMinor: true,
                currency: true,
                policyId: true,
                email: true,
                paidAt: true,
              },
            }),
          (p) => [p.reference, p.createdAt, p.status, p.amountMinor, p.currency, p.policyId, p.email, p.paidAt],
        ),
      };
    case "claims":
      return {
        columns: [
          col("id", "text", 28),
          col("createdAt", "timestamp", 20),
          col("status", "text", 14),
          col("type", "text", 12),
          col("amount", "money", 16),
          col("currency", "text", 9),
          col("policyId", "text", 28),
          col("description", "text", 48),
        ],
        rows: byCreatedAt(
          range,
          (where) =>
            db.claim.findMany({
              where: {
                AND: [
                  claimWhere(organizationId, {
                    status: query.status as SearchClaimsQuery["status"],
                    policyId: query.policyId,
                    q: query.q,
                  }),
                  where,
                ],
              },
              orderBy: OLDEST_FIRST,
              take,
              select: {
                id: true,
                createdAt: true,
                status: true,
                type: true,
                amountMinor: true,
                currency: true,
                policyId: true,
                description: true,
              },
            }),
          (c) => [c.id, c.createdAt, c.status, c.type, c.amountMinor, c.currency, c.policyId, c.description],
        ),
      };
    case "api-usage": {
      const granularity = query.granularity === "hour" ? "hour" : "day";
      return {
        columns: [
          col("bucket", "timestamp", 20, granularity === "hour" ? "yyyy-mm-dd hh:mm" : "yyyy-mm-dd"),
          col("method", "text", 9),
          col("route", "text", 40),
          col("requests", "count", 10),
          col("errors", "count", 10),
          col("p50Ms", "ms", 10),
          col("p95Ms", "ms", 10),
        ],
        rows: usageRows(organizationId, range, granularity),
      };
    }
  }
}

// ---------- the file ----------

const CSV_KIND: Record<Kind, CsvKind> = {
  text: "text",
  money: "number",
  count: "number",
  ms: "number",
  timestamp: "text",
  day: "text",
};

function csvValue(value: Value, kind: Kind, currency: string): CsvValue {
  if (value === null) return null;
  if (kind === "money") return formatMinor(value as bigint, currency);
  if (kind === "timestamp") return (value as Date).toISOString();
  if (kind === "day") return isoDay(value as Date);
  return value as string | number;
}

function xlsxValue(value: Value, kind: Kind, currency: string): string | number | Date | null {
  if (value === null) return null;
  // Exact: a decimal string with the currency's decimals is the nearest double to the amount.
  if (kind === "money") return Number(formatMinor(value as bigint, currency));
  // XML turns a CR into LF on reading anyway (and LF is a spreadsheet's line break in a cell): say so in the file.
  if (typeof value === "string") return value.replace(/\r\n?/g, "\n");
  return value as number | Date;
}

/** A writable stream of any make (node's, or readable-stream's inside exceljs' zip). */
type Sink = EventEmitter & { _writableState?: { needDrain?: boolean; destroyed?: boolean; finished?: boolean } };

/** Resolves once `stream` may take more (or is gone). */
function drained(stream: Sink): Promise<void> {
  const state = stream._writableState;
  if (!state?.needDrain || state.destroyed || state.finished) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}

/**
 * exceljs (4.x) writes a sheet's XML into its zip entry without waiting, so
 * when the client is slower than the database the XML piles up in front of
 * the compressor, out of sight of `out`'s backpressure. Waiting for the entry
 * too keeps about one batch in flight. It is reached through exceljs
 * internals (the sheet's `stream`, whose `pipes` are what the zip reads the
 * entry from once it has opened it); were they to change, only `out`'s
 * backpressure would be left, and the memory test would say so.
 */
async function sheetDrained(sheet: unknown, out: PassThrough): Promise<void> {
  const pipes = (sheet as { stream?: { pipes?: unknown } }).stream?.pipes;
  if (!Array.isArray(pipes)) return;
  // The zip opens the sheet's entry after the small files before it: moments after the start.
  while (pipes.length === 0 && !out.destroyed) await new Promise((r) => setTimeout(r, 5));
  for (const sink of pipes as Sink[]) if (typeof sink?.on === "function") await drained(sink);
}

/**
 * Writes the rows into `out` batch after batch, each read only when `out`
 * (and whatever `room` waits for) has taken the previous one, then `finish`es. A client gone stops the reading; a failure destroys
 * `out` (the download aborts) and is logged.
 */
function pump(
  out: PassThrough,
  rows: AsyncGenerator<Row[]>,
  first: Row[] | undefined,
  write: (batch: Row[]) => void,
  room: () => Promise<void>,
  finish: () => Promise<void> | void,
  about: Record<string, unknown>,
): void {
  void (async () => {
    try {
      if (first) write(first);
      for (;;) {
        await drained(out as Sink);
        await room();
        if (out.destroyed) {
          await rows.return(undefined);
          return;
        }
        const next = await rows.next();
        if (next.done) break;
        write(next.value);
      }
      await finish();
    } catch (err) {
      logger.error({ err, ...about }, "export failed after its first byte: download aborted");
      out.destroy(err instanceof Error ? err : new Error(String(err)));
      await rows.return(undefined).catch(() => {});
    }
  })();
}

/** A web stream of a Node stream's chunks, one read per pull (so the client's pace reaches `out`). */
function toWebStream(out: PassThrough): ReadableStream<Uint8Array> {
  const chunks = out[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          controller.error(err);
        }
      },
      cancel() {
        out.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

function csvBody(columns: Column[], currency: string, rows: AsyncGenerator<Row[]>, first: Row[] | undefined, about: Record<string, unknown>) {
  const out = new PassThrough();
  const kinds = columns.map((c) => CSV_KIND[c.kind]);
  out.write(csvLine(columns.map((c) => c.name)));
  const write = (batch: Row[]) => {
    out.write(
      batch
        .map((row) =>
          csvLine(
            row.map((v, i) => csvValue(v, columns[i]!.kind, currency)),
            kinds,
          ),
        )
        .join(""),
    );
  };
  pump(
    out,
    rows,
    first,
    write,
    async () => {},
    () => void out.end(),
    about,
  );
  return toWebStream(out);
}

function xlsxBody(
  type: ExportType,
  columns: Column[],
  currency: string,
  rows: AsyncGenerator<Row[]>,
  first: Row[] | undefined,
  about: Record<string, unknown>,
) {
  const out = new PassThrough();
  // Inline strings, not the shared-strings table: that table is held in memory until the end.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(type, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = columns.map((c) => {
    const numFmt = c.numFmt ?? (c.kind === "money" ? moneyFormat(currency) : NUM_FMT[c.kind]);
    return { key: c.name, width: c.width, ...(numFmt ? { style: { numFmt } } : {}) };
  });
  const header = sheet.addRow(columns.map((c) => (c.kind === "money" ? `${c.name} (${currency})` : c.name)));
  header.font = { bold: true };
  header.commit();
  const write = (batch: Row[]) => {
    for (const row of batch) sheet.addRow(row.map((v, i) => xlsxValue(v, columns[i]!.kind, currency))).commit();
  };
  const finish = async () => {
    sheet.commit();
    await workbook.commit();
  };
  pump(out, rows, first, write, () => sheetDrained(sheet, out), finish, about);
  return toWebStream(out);
}

export async function exportAnalytics(actor: Actor, query: ExportQuery, now = new Date()): Promise<Response> {
  assertCan(actor, "read");
  const range = rangeOf(query, now);
  const { currency } = await db.organization.findUniqueOrThrow({
    where: { id: actor.organizationId },
    select: { currency: true },
  });
  const { columns, rows } = sheetOf(query.type, actor.organizationId, range, query, currency);
  // Read before answering: a database failure here is a problem answer, not a truncated file.
  const first = await rows.next();
  const firstRows = first.done ? undefined : first.value;
  const about = { organizationId: actor.organizationId, type: query.type, format: query.format };
  const body =
    query.format === "csv"
      ? csvBody(columns, currency, rows, firstRows, about)
      : xlsxBody(query.type, columns, currency, rows, firstRows, about);
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": EXPORT_CONTENT_TYPES[query.format],
      "Content-Disposition": `attachment; filename="${exportFileName(query.type, range, query.format)}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** coverdesk-<type>-<from>-to-<to>.<ext> */
export const exportFileName = (type: ExportType, range: { from: string; to: string }, format: ExportFormat) =>
  `coverdesk-${type}-${range.from}-to-${range.to}.${format}`;
