// What a job kind is, and the one claim-and-run loop every leased kind goes
// through. A row job's rows live in its own table (webhook_task, mail_task,
// withdrawal, …), each with `id`, `runAt` and `lockedUntil`: due rows are
// claimed in one statement — FOR UPDATE SKIP LOCKED, so any number of runners
// never take one row twice, and a lease (lockedUntil), so a row whose runner
// died comes back once the lease runs out. Each claimed row is then attempted
// on its own: its outcome (done, again at …, exhausted — decided here from
// the kind's retry table) is written by the kind for that row only, and an
// error thrown while handling one row is logged and touches no other row (the
// lease brings it back, as after a crash).
import { Prisma } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { logger } from "@/server/logger";
import { nextAttemptAt, type RetryTable } from "./retry";

/** The tables row jobs claim from; each has `id`, `runAt` and `lockedUntil`. */
export type JobTable = "webhook_task" | "mail_task" | "withdrawal" | "refund" | "claim_payout";

/** How an attempt failed: `retryAfterS` (the other side's wish), `final` (no retry whatever the table says). */
export interface Failure {
  retryAfterS?: number | null;
  final?: boolean;
}

export interface RowJob<Row extends { id: string }, Result> {
  kind: string;
  /** Kinds of one lane run in order in one loop of the runner; without one, a kind has its own loop. */
  lane?: string;
  table: JobTable;
  /** Beyond "due and not leased": which rows of the table are this kind's work. */
  where?: Prisma.Sql;
  /** Rows claimed at once. */
  batch: number;
  /**
   * Take the due rows turn by turn across organizations (each one's oldest
   * first) instead of oldest first overall: one organization's burst (500
   * receipts) does not hold everyone else's rows back behind it.
   */
  fairByOrganization?: boolean;
  /** How long a claim is held: longer than one attempt can take. */
  leaseMs(): number;
  retry: RetryTable<Row, Result>;
  /** The claimed rows, with what their attempt needs. */
  load(ids: string[]): Promise<Row[]>;
  /** Failed attempts the row has had so far. */
  failures(row: Row): number;
  /** One attempt. Expected outcomes (a refusal, a timeout) are results, not throws. */
  attempt(row: Row): Promise<Result>;
  /** null when the attempt succeeded. */
  failureOf(result: Result): Failure | null;
  /** Bookkeeping of a success (attempt = 1-based number of this attempt). */
  succeeded(row: Row, result: Result, attempt: number): Promise<void>;
  /** Bookkeeping of a failure that will be tried again at `retryAt` (the row's lease is released). */
  retrying(row: Row, result: Result, attempt: number, retryAt: Date): Promise<void>;
}

/** A job that is a query over its own tables rather than leased rows (a fan-out, a sweep). */
export interface PassJob {
  kind: string;
  /** As for a row job. */
  lane?: string;
  /** Does its work; returns how much it did. */
  run(): Promise<number>;
  /** Run again at once while it did something (a batch at a time), as row jobs always are. */
  drain?: boolean;
  /** Run at most this often by a started runner, and never by `runJobsOnce` (sweeps). */
  everyMs?: number;
  /** The tables whose new rows are its work: a wake-up naming one of them makes its lane pass. */
  wakeOn?: readonly string[];
}

export type Job = ({ type: "rows" } & RowJob<{ id: string }, unknown>) | ({ type: "pass" } & PassJob);

/** The tables whose new rows wake a kind: a row job's own table, a pass job's `wakeOn`. */
export const wakeTablesOf = (job: Job): readonly string[] => (job.type === "rows" ? [job.table] : (job.wakeOn ?? []));

/** Declares a row job (keeps the row and result types checked inside it). */
export function rowJob<Row extends { id: string }, Result>(job: RowJob<Row, Result>): Job & { type: "rows" } {
  return { type: "rows", ...(job as unknown as RowJob<{ id: string }, unknown>) };
}

export function passJob(job: PassJob): Job & { type: "pass" } {
  return { type: "pass", ...job };
}

/** A fair claim ranks at most this many of the oldest due rows (bounded work per claim; a larger backlog is fair within them). */
const FAIR_WINDOW = 5000;

/** Claims the due rows of a kind (one statement, autocommitted) and returns their ids. */
export async function claimDue(job: RowJob<{ id: string }, unknown>): Promise<string[]> {
  const table = Prisma.raw(`"${job.table}"`);
  const until = new Date(Date.now() + job.leaseMs());
  const due = Prisma.sql`"runAt" <= now() AND ("lockedUntil" IS NULL OR "lockedUntil" < now())
        ${job.where ? Prisma.sql`AND (${job.where})` : Prisma.empty}`;
  const rows = job.fairByOrganization
    ? // Ranked within each organization, then taken rank by rank. A window cannot be locked FOR UPDATE,
      // so the UPDATE checks the lease again on each row it takes: a row another runner claimed in the
      // meantime no longer matches once that runner commits (READ COMMITTED re-checks), and is skipped.
      await db.$queryRaw<{ id: string }[]>`
    UPDATE ${table} SET "lockedUntil" = ${until}::timestamp(3)
    WHERE id = ANY(ARRAY(
      SELECT id FROM (
        SELECT id, "runAt", row_number() OVER (PARTITION BY "organizationId" ORDER BY "runAt", id) AS turn
        FROM (SELECT id, "organizationId", "runAt" FROM ${table} WHERE ${due} ORDER BY "runAt" LIMIT ${FAIR_WINDOW}) oldest
      ) ranked
      ORDER BY turn, "runAt" LIMIT ${job.batch}))
      AND ("lockedUntil" IS NULL OR "lockedUntil" < now())
    RETURNING id`
    : await db.$queryRaw<{ id: string }[]>`
    UPDATE ${table} SET "lockedUntil" = ${until}::timestamp(3)
    WHERE id = ANY(ARRAY(
      SELECT id FROM ${table}
      WHERE ${due}
      ORDER BY "runAt" LIMIT ${job.batch} FOR UPDATE SKIP LOCKED))
    RETURNING id`;
  return rows.map((r) => r.id);
}

/** One attempt of one claimed row, and its outcome written by the kind. */
async function attemptRow(job: RowJob<{ id: string }, unknown>, row: { id: string }): Promise<void> {
  const attempt = job.failures(row) + 1;
  const result = await job.attempt(row);
  const failure = job.failureOf(result);
  if (!failure) return job.succeeded(row, result, attempt);
  const retryAt = failure.final ? null : nextAttemptAt(job.retry, attempt, failure.retryAfterS ?? null);
  if (retryAt) return job.retrying(row, result, attempt, retryAt);
  return job.retry.exhausted(row, result, attempt);
}

/**
 * A started runner's lane: the attempts it left running. A claimed batch is
 * waited for at most `waitMs`; an attempt still under way then (a receiver
 * taking its full timeout) goes on by itself, its row still leased, and the
 * lane claims what is due next — one slow receiver no longer holds back every
 * other organization's delivery for up to WEBHOOK_TIMEOUT_MS. At most `max`
 * attempts run at once; the lane waits for the runner's stop to let them end.
 */
export interface InFlight {
  attempts: Set<Promise<void>>;
  waitMs: number;
  max: number;
}

/**
 * Claims and attempts the due rows of one kind. Returns how many it claimed.
 * Without `inFlight` (tests, scripts, `runJobsOnce`) every attempt has ended
 * when it returns.
 */
export async function runRowJob(job: RowJob<{ id: string }, unknown>, inFlight?: InFlight): Promise<number> {
  if (inFlight) while (inFlight.attempts.size >= inFlight.max) await Promise.race(inFlight.attempts);
  const ids = await claimDue(job);
  if (ids.length === 0) return 0;
  const rows = await job.load(ids);
  const attempts = rows.map((row) =>
    attemptRow(job, row).catch((err: unknown) => {
      // The row keeps its lease and comes back after it, like a crashed runner's.
      logger.error({ err, job: job.kind, id: row.id }, "job attempt failed");
    }),
  );
  if (!inFlight) {
    await Promise.all(attempts);
    return ids.length;
  }
  for (const attempt of attempts) {
    inFlight.attempts.add(attempt);
    void attempt.finally(() => inFlight.attempts.delete(attempt));
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(attempts), new Promise((resolve) => (timer = setTimeout(resolve, inFlight.waitMs)))]);
  clearTimeout(timer);
  return ids.length;
}

/** Runs a job once (a row job: one claimed batch). */
export function runJob(job: Job, inFlight?: InFlight): Promise<number> {
  return job.type === "rows" ? runRowJob(job, inFlight) : job.run();
}
