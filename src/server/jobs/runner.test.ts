// The job runner itself, on the real database: a kind's retry table as the
// runner applies it, a failure touching only its own row, a row claimed by a
// runner that died coming back when its lease runs out, the declared tables of
// the real kinds, and the wake-ups (in-process; on PostgreSQL, the database's
// NOTIFY at commit, from another connection, also after the listener's
// connection is killed).
//
// The rows of the test kinds are mail_task rows already marked sent (the real
// mail job never claims those) with a kind of their own, so test files running
// beside this one never touch them, nor this file theirs.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Prisma, type MailTask } from "@/generated/prisma/client";
import { connectDatabase, db } from "@/server/db/client";
import { env } from "@/server/env";
import { recordEvent } from "@/server/events/record";
import { MAIL_MAX_ATTEMPTS } from "@/server/mail/kinds";
import { mailJob } from "@/server/mail/sender";
import { payoutJob } from "@/server/payouts/job";
import { webhookDeliveryJob } from "@/server/webhooks/jobs";
import { countWorking } from "@/server/operations/busy";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { claimDue, passJob, rowJob, runRowJob, type Job } from "./kind";
import { LISTENER_APPLICATION_NAME } from "./notify";
import { nextAttemptAt, scheduleOf } from "./retry";
import { startJobRunner, wakeJobs, type JobRunner } from "./runner";

beforeAll(async () => {
  await connectDatabase();
});

const runners: JobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});

async function rows(count: number) {
  const { org } = await ownerWithOrganization();
  const tag = `test_job_${unique()}`;
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const row = await db.mailTask.create({
      data: {
        organizationId: org.id,
        kind: tag,
        sourceId: `src_${n}`,
        recipient: `r${n}@example.test`,
        data: {},
        sentAt: new Date(), // never the real mail job's
        runAt: new Date(Date.now() - 1000),
      },
    });
    ids.push(row.id);
  }
  return { tag, ids, organizationId: org.id };
}

const rowOf = (id: string) => db.mailTask.findUniqueOrThrow({ where: { id } });
const dueNow = (ids: string[]) =>
  db.mailTask.updateMany({ where: { id: { in: ids } }, data: { runAt: new Date(Date.now() - 1000) } });

type Result = { ok: true } | { ok: false; error: string };

/** A kind over the tagged rows: `behave(row)` decides each attempt; every write is on the row itself. */
function testKind(tag: string, behave: (row: MailTask) => Promise<Result>, opts: { leaseMs?: number; delays?: number[] } = {}) {
  const attempts: string[] = [];
  const exhausted: string[] = [];
  const delays = opts.delays ?? [10, 60, 600];
  const job = rowJob<MailTask, Result>({
    kind: `test.${tag}`,
    table: "mail_task",
    // Done and exhausted rows are kept (marked), and never claimed again.
    where: Prisma.sql`kind = ${tag} AND coalesce("lastError", '') NOT IN ('done', 'exhausted')`,
    batch: 10,
    leaseMs: () => opts.leaseMs ?? 60_000,
    retry: {
      ...scheduleOf(() => delays),
      whenExhausted: "kept, marked exhausted",
      exhausted: async (row, _r, attempt) => {
        exhausted.push(row.id);
        await db.mailTask.update({
          where: { id: row.id },
          data: { attempts: attempt, lastError: "exhausted", lockedUntil: null },
        });
      },
    },
    load: (ids) => db.mailTask.findMany({ where: { id: { in: ids } } }),
    failures: (row) => row.attempts,
    attempt: async (row) => {
      attempts.push(row.id);
      return behave(row);
    },
    failureOf: (r) => (r.ok ? null : {}),
    succeeded: async (row, _r, attempt) => {
      await db.mailTask.update({ where: { id: row.id }, data: { attempts: attempt, lastError: "done", lockedUntil: null } });
    },
    retrying: async (row, r, attempt, retryAt) => {
      await db.mailTask.update({
        where: { id: row.id },
        data: { attempts: attempt, lastError: r.ok ? null : r.error, runAt: retryAt, lockedUntil: null },
      });
    },
  });
  return { job, attempts, exhausted };
}

describe("a kind's retry table", () => {
  it("schedules each retry from its table, then does what the kind declares when none is left", async () => {
    const { tag, ids } = await rows(1);
    const id = ids[0]!;
    const { job, attempts, exhausted } = testKind(tag, async () => ({ ok: false, error: "refused" }));
    expect(job.retry.maxAttempts).toBe(4);

    for (const [n, wait] of [10, 60, 600].entries()) {
      const before = Date.now();
      expect(await runRowJob(job)).toBe(1);
      const after = Date.now();
      const row = await rowOf(id);
      expect([row.attempts, row.lastError, row.lockedUntil]).toEqual([n + 1, "refused", null]);
      // Due `wait` seconds after the attempt (taken between before and after).
      expect(row.runAt.getTime()).toBeGreaterThanOrEqual(before + wait * 1000);
      expect(row.runAt.getTime()).toBeLessThanOrEqual(after + wait * 1000);
      expect(await runRowJob(job)).toBe(0); // not due before its time
      await dueNow([id]);
    }

    expect(await runRowJob(job)).toBe(1); // the 4th and last attempt
    expect(exhausted).toEqual([id]);
    expect(await rowOf(id)).toMatchObject({ attempts: 4, lastError: "exhausted", lockedUntil: null });
    await dueNow([id]);
    expect(await runRowJob(job)).toBe(0); // given up: never claimed again
    expect(attempts).toHaveLength(4);
  });

  it("a success after failures ends the retries", async () => {
    const { tag, ids } = await rows(1);
    let n = 0;
    const { job, exhausted } = testKind(tag, async () => (++n < 3 ? { ok: false, error: `try ${n}` } : { ok: true }));
    for (let i = 0; i < 3; i++) {
      await runRowJob(job);
      await dueNow(ids);
    }
    expect(await rowOf(ids[0]!)).toMatchObject({ attempts: 3, lastError: "done" });
    expect(exhausted).toEqual([]);
  });

  it("the real kinds declare theirs: webhooks on WEBHOOK_RETRY_SCHEDULE with Retry-After, mail 1 min … 6 h then kept, payouts doubling to an hour, never given up", () => {
    const at = (table: Parameters<typeof nextAttemptAt>[0], attempt: number, retryAfterS: number | null = null) => {
      const next = nextAttemptAt(table, attempt, retryAfterS, 0);
      return next === null ? null : next.getTime() / 1000;
    };
    const webhook = webhookDeliveryJob.retry;
    expect(env.WEBHOOK_RETRY_SCHEDULE.map((_, i) => at(webhook, i + 1))).toEqual(env.WEBHOOK_RETRY_SCHEDULE);
    expect(at(webhook, env.WEBHOOK_RETRY_SCHEDULE.length + 1)).toBeNull();
    expect(webhook.maxAttempts).toBe(env.WEBHOOK_RETRY_SCHEDULE.length + 1);
    expect(at(webhook, 1, 100_000)).toBe(100_000); // a longer Retry-After wins…
    expect(at(webhook, 1, 0)).toBe(env.WEBHOOK_RETRY_SCHEDULE[0]); // …a shorter one does not
    expect(webhook.whenExhausted).toMatch(/deleted/);

    expect([1, 2, 3, 4, 5, 6].map((n) => at(mailJob.retry, n))).toEqual([60, 300, 1800, 7200, 21600, null]);
    expect(mailJob.retry.maxAttempts).toBe(MAIL_MAX_ATTEMPTS);
    expect(at(mailJob.retry, 1, 100_000)).toBe(60); // mail has no Retry-After
    expect(mailJob.retry.whenExhausted).toMatch(/stays/);

    expect([1, 2, 3, 8, 1000].map((n) => at(payoutJob.retry, n))).toEqual([30, 60, 120, 3600, 3600]);
    expect(payoutJob.retry.maxAttempts).toBe(Infinity);
  });
});

describe("one failure touches only its own row", () => {
  it("a failed attempt and a thrown one leave the other rows of the batch to their own outcome", async () => {
    const { tag, ids } = await rows(3);
    const [failing, throwing, fine] = ids as [string, string, string];
    const { job } = testKind(tag, async (row) => {
      if (row.id === failing) return { ok: false, error: "receiver said no" };
      if (row.id === throwing) throw new Error("the database went away mid-attempt");
      await new Promise((r) => setTimeout(r, 50)); // still under way when the others have failed
      return { ok: true };
    });
    expect(await runRowJob(job)).toBe(3);

    expect(await rowOf(fine)).toMatchObject({ attempts: 1, lastError: "done", lockedUntil: null });
    const failed = await rowOf(failing);
    expect([failed.attempts, failed.lastError, failed.lockedUntil]).toEqual([1, "receiver said no", null]);
    expect(failed.runAt.getTime()).toBeGreaterThan(Date.now() + 5_000);
    // The thrown one is left as a crash leaves it: untouched, still leased, back after the lease.
    const thrown = await rowOf(throwing);
    expect([thrown.attempts, thrown.lastError]).toEqual([0, null]);
    expect(thrown.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("a crashed runner's rows", () => {
  it("a row claimed by a runner that died is left alone while its lease runs, then picked up and attempted once", async () => {
    const { tag, ids } = await rows(2);
    const { job, attempts } = testKind(tag, async () => ({ ok: true }), { leaseMs: 1_500 });

    // The dead runner's claim committed (one statement); then the process was killed.
    expect((await claimDue(job)).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await rowOf(id)).lockedUntil!.getTime()).toBeGreaterThan(Date.now());

    // Another runner, before the lease runs out: nothing to take.
    expect(await runRowJob(job)).toBe(0);
    expect(attempts).toEqual([]);

    await new Promise((r) => setTimeout(r, 1_700));
    const [a, b] = await Promise.all([runRowJob(job), runRowJob(job)]); // two live runners race for them
    expect(a + b).toBe(2);
    expect([...attempts].sort()).toEqual([...ids].sort());
    for (const id of ids) expect(await rowOf(id)).toMatchObject({ attempts: 1, lastError: "done", lockedUntil: null });
    expect(await runRowJob(job)).toBe(0);
  });
});

describe("wake-ups", () => {
  /** A runner of one counting kind, polling only every minute: any pass sooner was a wake-up. */
  function counting(listen: boolean) {
    const passed: number[] = [];
    const job: Job = passJob({ kind: `count.${unique()}`, wakeOn: ["event"], run: async () => (passed.push(Date.now()), 0) });
    const runner = startJobRunner({ intervalMs: 60_000, listen, jobs: [job] });
    runners.push(runner);
    return { runner, passed };
  }

  async function until(check: () => boolean, ms: number) {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 5));
    }
    return true;
  }

  it("wakeJobs() makes this process's runner pass at once", async () => {
    const { passed } = counting(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(passed).toHaveLength(0);
    const woken = Date.now();
    wakeJobs();
    expect(await until(() => passed.length === 1, 1_000)).toBe(true);
    expect(passed[0]! - woken).toBeLessThan(100);
  });

  it("background lanes give way to a request under way (JOBS_GIVE_WAY_MS at most); the webhooks lane does not", async () => {
    const saved = env.JOBS_GIVE_WAY_MS;
    env.JOBS_GIVE_WAY_MS = 600;
    try {
      const passed = { background: [] as number[], webhooks: [] as number[] };
      const background = passJob({ kind: `mail.${unique()}`, run: async () => (passed.background.push(Date.now()), 0) });
      const prompt = passJob({
        kind: `hooks.${unique()}`,
        lane: "webhooks",
        run: async () => (passed.webhooks.push(Date.now()), 0),
      });
      runners.push(startJobRunner({ intervalMs: 60_000, listen: false, jobs: [background, prompt] }));
      // A request is being answered while the runner is woken: only the webhooks lane passes at once.
      let answer!: () => void;
      const request = countWorking(() => new Promise<void>((r) => (answer = r)));
      const woken = Date.now();
      wakeJobs();
      expect(await until(() => passed.webhooks.length === 1, 1_000)).toBe(true);
      expect(passed.webhooks[0]! - woken).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 150));
      expect(passed.background).toHaveLength(0);
      // Answered: the background lane passes straight after.
      const answered = Date.now();
      answer();
      await request;
      expect(await until(() => passed.background.length === 1, 1_000)).toBe(true);
      expect(passed.background[0]! - answered).toBeLessThan(100);
      // A request that never ends holds the background lane back JOBS_GIVE_WAY_MS, not for ever.
      const endless = countWorking(() => new Promise<void>((r) => (answer = r)));
      const again = Date.now();
      wakeJobs();
      expect(await until(() => passed.background.length === 2, 2_000)).toBe(true);
      expect(passed.background[1]! - again).toBeGreaterThanOrEqual(550);
      answer();
      await endless;
    } finally {
      env.JOBS_GIVE_WAY_MS = saved;
    }
  });

  it("a slow lane never holds back another lane's pass", async () => {
    const passed: number[] = [];
    let slowRuns = 0;
    const slow = passJob({
      kind: `slow.${unique()}`,
      run: async () => {
        slowRuns++;
        await new Promise((r) => setTimeout(r, 1_000)); // a receiver taking its time
        return 0;
      },
    });
    const quick = passJob({ kind: `quick.${unique()}`, run: async () => (passed.push(Date.now()), 0) });
    runners.push(startJobRunner({ intervalMs: 60_000, listen: false, jobs: [slow, quick] }));
    wakeJobs();
    expect(await until(() => slowRuns === 1 && passed.length === 1, 1_000)).toBe(true);
    const woken = Date.now();
    wakeJobs(); // the slow lane is still busy with its first pass
    expect(await until(() => passed.length === 2, 500)).toBe(true);
    expect(passed[1]! - woken).toBeLessThan(100);
  });

  it("a slow attempt never holds back the rows claimed after it in its own lane; stop() waits for it", async () => {
    const { tag, ids } = await rows(1);
    const slowId = ids[0]!;
    const started: Record<string, number> = {};
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const { job } = testKind(tag, async (row) => {
      started[row.id] = Date.now();
      if (row.id === slowId) await held; // a receiver taking its full timeout
      return { ok: true };
    });
    const runner = startJobRunner({ intervalMs: 60_000, listen: false, jobs: [job] });
    runners.push(runner);
    wakeJobs();
    expect(await until(() => slowId in started, 2_000)).toBe(true);
    // Another row, due after the slow one was claimed, while its attempt is still under way.
    const { organizationId } = await rowOf(slowId);
    const later = await db.mailTask.create({
      data: {
        organizationId,
        kind: tag,
        sourceId: "later",
        recipient: "later@example.test",
        data: {},
        sentAt: new Date(), // never the real mail job's
        runAt: new Date(Date.now() - 1000),
      },
    });
    try {
      const woken = Date.now();
      wakeJobs();
      expect(await until(() => later.id in started, 2_000)).toBe(true);
      expect(started[later.id]! - woken).toBeLessThan(1_000); // the batch is waited for 250 ms, not until the slow one ends
      // Its outcome is written after its attempt returns: wait for the write, not for the start.
      let outcome: string | null = null;
      for (const deadline = Date.now() + 2_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
        outcome = (await rowOf(later.id)).lastError;
        if (outcome !== null) break;
      }
      expect(outcome).toBe("done");
      expect((await rowOf(slowId)).lastError).toBeNull(); // still under way, its row still leased
      expect((await rowOf(slowId)).lockedUntil!.getTime()).toBeGreaterThan(Date.now());
      // Stopping waits for it to end, and its outcome is written.
      const stopped = runner.stop();
      setTimeout(release, 100);
      await stopped;
      expect((await rowOf(slowId)).lastError).toBe("done");
    } finally {
      release(); // a failed expectation above must not leave stop() waiting on the held attempt
    }
  });

  it.skipIf(!env.DATABASE_URL)(
    "PostgreSQL: an outbox row committed on another connection wakes the runner at its commit, not before; also after the listener's connection was killed",
    async () => {
      const { passed } = counting(true);
      // Listening: it passes once on connecting, for what committed before.
      expect(await until(() => passed.length === 1, 5_000)).toBe(true);
      const { org } = await ownerWithOrganization();
      await new Promise((r) => setTimeout(r, 200));
      const seen = passed.length;

      // Another connection (another instance's, as far as the runner knows) writes an event and holds its transaction.
      const other = new pg.Client({ connectionString: env.DATABASE_URL });
      await other.connect();
      try {
        const latencies: number[] = [];
        for (let n = 0; n < 20; n++) {
          const before = passed.length;
          await other.query("BEGIN");
          await other.query(`INSERT INTO event (id, "organizationId", type, data) VALUES ($1, $2, 'ping', '{}')`, [
            `evt_test_${unique()}${n}`,
            org.id,
          ]);
          if (n === 0) {
            await new Promise((r) => setTimeout(r, 300));
            expect(passed.length).toBe(before); // uncommitted: nobody is woken
          }
          const committed = Date.now();
          await other.query("COMMIT");
          expect(await until(() => passed.length > before, 2_000)).toBe(true);
          latencies.push(passed[before]! - committed);
        }
        latencies.sort((x, y) => x - y);
        expect(latencies[Math.ceil(latencies.length * 0.95) - 1]).toBeLessThan(100);
        expect(passed.length).toBeGreaterThanOrEqual(seen + 20);

        // A rolled-back insert wakes nobody.
        const before = passed.length;
        await other.query("BEGIN");
        await other.query(`INSERT INTO event (id, "organizationId", type, data) VALUES ($1, $2, 'ping', '{}')`, [
          `evt_test_${unique()}`,
          org.id,
        ]);
        await other.query("ROLLBACK");
        await new Promise((r) => setTimeout(r, 300));
        expect(passed.length).toBe(before);

        // The listener's connection dies (a restart, a failover): it reconnects, passes once, and is woken again.
        const killed = await other.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
          [LISTENER_APPLICATION_NAME],
        );
        expect(killed.rowCount).toBeGreaterThanOrEqual(1);
        expect(await until(() => passed.length > before, 5_000)).toBe(true); // the pass on reconnecting
        await new Promise((r) => setTimeout(r, 100));
        const after = passed.length;
        await db.$transaction(async (tx) => {
          await recordEvent(tx, org.id, "ping", {});
        });
        expect(await until(() => passed.length > after, 2_000)).toBe(true);
      } finally {
        await other.end();
      }
    },
  );
  it.skipIf(!env.DATABASE_URL)(
    "PostgreSQL: a commit wakes only the lanes working on its table, and this process's untargeted wake-ups are left to the database",
    async () => {
      const passes = { events: 0, mail: 0, other: 0 };
      const jobs: Job[] = [
        passJob({ kind: `events.${unique()}`, wakeOn: ["event"], run: async () => (passes.events++, 0) }),
        passJob({ kind: `mail.${unique()}`, wakeOn: ["mail_task"], run: async () => (passes.mail++, 0) }),
        passJob({ kind: `other.${unique()}`, run: async () => (passes.other++, 0) }),
      ];
      runners.push(startJobRunner({ intervalMs: 60_000, listen: true, jobs }));
      // Each lane passes once when the listener connects.
      expect(await until(() => passes.events === 1 && passes.mail === 1 && passes.other === 1, 5_000)).toBe(true);
      const { org } = await ownerWithOrganization();
      await new Promise((r) => setTimeout(r, 200));
      const before = { ...passes };

      await db.$transaction(async (tx) => {
        await recordEvent(tx, org.id, "ping", {});
      });
      expect(await until(() => passes.events > before.events, 2_000)).toBe(true);
      wakeJobs(); // what a request does after a change: the commit's notification has done it
      await new Promise((r) => setTimeout(r, 300));
      expect(passes.mail).toBe(before.mail);
      expect(passes.other).toBe(before.other);
      expect(passes.events).toBe(before.events + 1);

      wakeJobs("mail_task"); // a named table still wakes its lane in this process
      expect(await until(() => passes.mail > before.mail, 1_000)).toBe(true);
      expect(passes.other).toBe(before.other);
    },
  );
});

describe("a fair claim (the notice job's)", () => {
  /** `count` due rows of one new organization under `tag`, the oldest `ageMs` ago. */
  async function burst(tag: string, count: number, ageMs: number) {
    const { org } = await ownerWithOrganization();
    await db.mailTask.createMany({
      data: Array.from({ length: count }, (_, n) => ({
        organizationId: org.id,
        kind: tag,
        sourceId: `src_${org.id}_${n}`,
        recipient: `r${n}@example.test`,
        data: {},
        sentAt: new Date(),
        runAt: new Date(Date.now() - ageMs + n),
      })),
    });
    return (await db.mailTask.findMany({ where: { organizationId: org.id, kind: tag }, select: { id: true } })).map((r) => r.id);
  }

  it("takes another organization's row in the first batch behind a burst; oldest first would not; two claims share nothing", async () => {
    const tag = `test_fair_${unique()}`;
    const burstIds = await burst(tag, 40, 60_000);
    const [late] = await burst(tag, 1, 1_000);
    const { job } = testKind(tag, async () => ({ ok: true }));
    const oldestFirst = await claimDue(job);
    expect(oldestFirst).toHaveLength(10);
    expect(oldestFirst).not.toContain(late);
    await db.mailTask.updateMany({ where: { kind: tag }, data: { lockedUntil: null } });

    const fair = { ...job, fairByOrganization: true };
    const [a, b] = await Promise.all([claimDue(fair), claimDue(fair)]);
    expect([...a, ...b]).toContain(late);
    expect(new Set([...a, ...b]).size).toBe(a.length + b.length);
    // Whatever the two raced for, every row claimed is leased once, and the rest are still due.
    const leased = await db.mailTask.count({ where: { kind: tag, lockedUntil: { gt: new Date() } } });
    expect(leased).toBe(a.length + b.length);
    expect(burstIds.length + 1 - leased).toBeGreaterThanOrEqual(21);
  });
});
