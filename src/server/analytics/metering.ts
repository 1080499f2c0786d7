// API-usage metering. Every authenticated REST request is counted in memory,
// per (organization, key, minute, method, route template), and each instance
// writes its counts every METERING_FLUSH_MS with ONE statement: an upsert that
// ADDS to the stored bucket, so any number of instances share a minute. Nothing
// touches the database on the request path. A crash loses at most one flush
// interval of counts (the README says so); a failed write keeps the counts for
// the next flush (bounded, see MAX_PENDING_BUCKETS). Each flush also adds the
// same counts per hour into api_usage_hourly, which ranges of days read.
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

/**
 * Upper bounds (ms, inclusive) of the latency buckets; the last is open-ended.
 * Percentiles are interpolated inside a bucket, so they are exact to its width.
 */
export const LATENCY_BOUNDS_MS = [
  1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000,
] as const;
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;
/** Buckets kept while the database refuses writes; beyond, the oldest minutes are dropped (and logged). */
const MAX_PENDING_BUCKETS = 50_000;

export interface MeteredRequest {
  organizationId: string;
  apiKeyId: string;
  method: string;
  /** The endpoint's path template, or "(unmatched)" for a path no endpoint serves. */
  route: string;
  status: number;
  durationMs: number;
  /** When the request started; the bucket is its minute. */
  at: Date;
}

interface Bucket {
  organizationId: string;
  apiKeyId: string;
  minute: Date;
  method: string;
  route: string;
  requests: number;
  errors: number;
  serverErrors: number;
  latencyMsSum: number;
  latencyBuckets: number[];
}

export function latencyBucketOf(ms: number): number {
  for (let i = 0; i < LATENCY_BOUNDS_MS.length; i++) if (ms <= LATENCY_BOUNDS_MS[i]!) return i;
  return LATENCY_BOUNDS_MS.length;
}

/**
 * The latency at quantile q (0..1) of a histogram over LATENCY_BOUNDS_MS,
 * interpolated linearly inside the bucket it falls in; null for no requests.
 * The open-ended last bucket answers its lower bound.
 */
export function percentileMs(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    const n = histogram[i] ?? 0;
    if (n === 0) continue;
    if (seen + n >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1]!;
      if (i >= LATENCY_BOUNDS_MS.length) return lower;
      const upper = LATENCY_BOUNDS_MS[i]!;
      const within = Math.max(0, rank - seen) / n;
      return Math.round((lower + (upper - lower) * within) * 10) / 10;
    }
    seen += n;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}

/** Adds histogram b into a (same length). */
export function addHistograms(a: number[], b: readonly number[]): number[] {
  for (let i = 0; i < LATENCY_BUCKETS; i++) a[i] = (a[i] ?? 0) + (b[i] ?? 0);
  return a;
}

export const emptyHistogram = () => Array.from({ length: LATENCY_BUCKETS }, () => 0);

export class Meter {
  private buckets = new Map<string, Bucket>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  record(r: MeteredRequest): void {
    const minute = new Date(Math.floor(r.at.getTime() / 60_000) * 60_000);
    const id = `${r.organizationId}\u0000${r.apiKeyId}\u0000${minute.getTime()}\u0000${r.method}\u0000${r.route}`;
    let b = this.buckets.get(id);
    if (!b) {
      b = {
        organizationId: r.organizationId,
        apiKeyId: r.apiKeyId,
        minute,
        method: r.method,
        route: r.route,
        requests: 0,
        errors: 0,
        serverErrors: 0,
        latencyMsSum: 0,
        latencyBuckets: emptyHistogram(),
      };
      this.buckets.set(id, b);
    }
    b.requests++;
    if (r.status >= 400) b.errors++;
    if (r.status >= 500) b.serverErrors++;
    b.latencyMsSum += r.durationMs;
    b.latencyBuckets[latencyBucketOf(r.durationMs)]!++;
    this.schedule();
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, env.METERING_FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what is buffered (one statement). Safe to call at any time; concurrent calls share one write. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.buckets.size === 0) return Promise.resolve();
    const batch = [...this.buckets.values()];
    this.buckets = new Map();
    this.flushing = write(batch)
      .catch((err) => {
        logger.error({ err, buckets: batch.length }, "could not write API usage; keeping it for the next flush");
        for (const b of batch) this.merge(b);
        this.trim();
        this.schedule();
      })
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  private merge(b: Bucket) {
    const id = `${b.organizationId}\u0000${b.apiKeyId}\u0000${b.minute.getTime()}\u0000${b.method}\u0000${b.route}`;
    const mine = this.buckets.get(id);
    if (!mine) {
      this.buckets.set(id, b);
      return;
    }
    mine.requests += b.requests;
    mine.errors += b.errors;
    mine.serverErrors += b.serverErrors;
    mine.latencyMsSum += b.latencyMsSum;
    addHistograms(mine.latencyBuckets, b.latencyBuckets);
  }

  private trim() {
    if (this.buckets.size <= MAX_PENDING_BUCKETS) return;
    const sorted = [...this.buckets.entries()].sort((a, b) => a[1].minute.getTime() - b[1].minute.getTime());
    const drop = sorted.slice(0, this.buckets.size - MAX_PENDING_BUCKETS);
    for (const [id] of drop) this.buckets.delete(id);
    logger.error({ dropped: drop.length }, "API usage buffer full: dropped the oldest buckets");
  }

  /** Buckets waiting to be written (for tests). */
  get pending(): number {
    return this.buckets.size;
  }
}

const bucketOrder = (a: Bucket, b: Bucket) =>
  a.organizationId === b.organizationId
    ? a.minute.getTime() - b.minute.getTime() || (a.apiKeyId + a.method + a.route < b.apiKeyId + b.method + b.route ? -1 : 1)
    : a.organizationId < b.organizationId
      ? -1
      : 1;

/** The batch summed per hour (same fields; `minute` holds the hour). */
function hoursOf(batch: Bucket[]): Bucket[] {
  const hours = new Map<string, Bucket>();
  for (const b of batch) {
    const hour = new Date(Math.floor(b.minute.getTime() / 3_600_000) * 3_600_000);
    const id = `${b.organizationId}\u0000${b.apiKeyId}\u0000${hour.getTime()}\u0000${b.method}\u0000${b.route}`;
    const h = hours.get(id);
    if (!h) {
      hours.set(id, { ...b, minute: hour, latencyBuckets: [...b.latencyBuckets] });
      continue;
    }
    h.requests += b.requests;
    h.errors += b.errors;
    h.serverErrors += b.serverErrors;
    h.latencyMsSum += b.latencyMsSum;
    addHistograms(h.latencyBuckets, b.latencyBuckets);
  }
  return [...hours.values()];
}

const valuesOf = (batch: Bucket[]) =>
  Prisma.join(
    batch.map(
      (b) =>
        Prisma.sql`(${b.organizationId}, ${b.apiKeyId}, ${b.minute}::timestamp(3), ${b.method}, ${b.route}, ${b.requests}::int, ${b.errors}::int, ${b.serverErrors}::int, ${b.latencyMsSum}::float8, ${b.latencyBuckets}::int[])`,
    ),
  );

/**
 * One transaction, two additive upserts: the minutes into api_usage and their
 * hours into api_usage_hourly, so the two never disagree. Rows are sorted so
 * that instances flushing at once lock shared rows in one order (no deadlock).
 * Counts of an organization deleted meanwhile are dropped, not retried forever.
 */
async function write(batch: Bucket[]): Promise<void> {
  const minutes = [...batch].sort(bucketOrder);
  const hours = hoursOf(batch).sort(bucketOrder);
  await db.$transaction([
    db.$executeRaw`
      INSERT INTO api_usage AS u ("organizationId", "apiKeyId", minute, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
      SELECT v.* FROM (VALUES ${valuesOf(minutes)}) AS v(o, k, t, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
      WHERE EXISTS (SELECT 1 FROM organization WHERE organization.id = v.o)
      ON CONFLICT ("organizationId", minute, "apiKeyId", method, route) DO UPDATE SET
        requests = u.requests + EXCLUDED.requests,
        errors = u.errors + EXCLUDED.errors,
        "serverErrors" = u."serverErrors" + EXCLUDED."serverErrors",
        "latencyMsSum" = u."latencyMsSum" + EXCLUDED."latencyMsSum",
        "latencyBuckets" = (
          SELECT array_agg(coalesce(a, 0) + coalesce(b, 0) ORDER BY i)
          FROM unnest(u."latencyBuckets", EXCLUDED."latencyBuckets") WITH ORDINALITY AS t(a, b, i)
        )`,
    db.$executeRaw`
      INSERT INTO api_usage_hourly AS u ("organizationId", "apiKeyId", hour, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
      SELECT v.* FROM (VALUES ${valuesOf(hours)}) AS v(o, k, t, method, route, requests, errors, "serverErrors", "latencyMsSum", "latencyBuckets")
      WHERE EXISTS (SELECT 1 FROM organization WHERE organization.id = v.o)
      ON CONFLICT ("organizationId", hour, "apiKeyId", method, route) DO UPDATE SET
        requests = u.requests + EXCLUDED.requests,
        errors = u.errors + EXCLUDED.errors,
        "serverErrors" = u."serverErrors" + EXCLUDED."serverErrors",
        "latencyMsSum" = u."latencyMsSum" + EXCLUDED."latencyMsSum",
        "latencyBuckets" = (
          SELECT array_agg(coalesce(a, 0) + coalesce(b, 0) ORDER BY i)
          FROM unnest(u."latencyBuckets", EXCLUDED."latencyBuckets") WITH ORDINALITY AS t(a, b, i)
        )`,
  ]);
}

const g = globalThis as unknown as { __coverdeskMeter?: Meter };
/** One meter per process (Next may load this module in several bundles). */
export const meter: Meter = (g.__coverdeskMeter ??= new Meter());

export const recordApiRequest = (r: MeteredRequest) => meter.record(r);
export const flushApiUsage = () => meter.flush();
