// The one job runner: webhooks, mail, payouts, coverage reminders and
// expiries, sweeps — every kind listed in ./kinds.ts, each with its own retry
// table, through one claim loop (./kind.ts). Kinds run in lanes: the kinds of
// one lane in order, one loop per lane (webhook fan-out and delivery share
// one; mail, payouts, the lifecycle and the sweeps have one each), so a slow
// SMTP server or a receiver taking its whole timeout never delays another
// lane's work. A lane passes over its kinds, each until it has nothing due,
// else the poll (1 s) paces it. It passes at once when woken. On PostgreSQL
// the database wakes the runners of every instance when an outbox row commits
// (LISTEN/NOTIFY, ./notify.ts), naming the table, and only the lanes working
// on that table pass (a new event wakes the webhook lane, not the payouts):
// the work a pass creates (a payout's events, the mail a dispatch planned)
// wakes its own lane the same way. On the embedded database — one process, no
// notifications — `wakeJobs()` (a request that may have written outbox rows
// has answered) wakes every lane, and a pass that did anything wakes every
// lane again. Background lanes (all but webhooks) give way to the requests
// this process is answering, a second at most (giveWay). Any number
// of runners may share one PostgreSQL: rows are claimed with SKIP LOCKED and a
// lease. Started with the app unless WORKER=false (then `npm run worker` runs
// it apart); WEBHOOK_WORKER is the old name of that switch.
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { requestsWorking } from "@/server/operations/busy";
import { runJob, wakeTablesOf, type InFlight, type Job } from "./kind";
import { JOBS } from "./kinds";
import { listenForJobs, type JobsListener } from "./notify";
import { clearWakeHandler, setWakeHandler, signalEvents } from "./wake";

export { wakeJobs } from "./wake";

const drains = (job: Job) => job.type === "rows" || job.drain === true;

/** Runs one kind until it has nothing due (or once, if it does not drain). Returns how much it did. */
async function runKind(job: Job, inFlight?: InFlight, beforeBatch?: () => Promise<boolean>): Promise<number> {
  if (!drains(job)) return runJob(job, inFlight);
  let done = 0;
  for (let n = await runJob(job, inFlight); n > 0; n = await runJob(job, inFlight)) {
    done += n;
    // A background lane gives way again before each batch of a long drain (false: the lane stops).
    if (beforeBatch && !(await beforeBatch())) break;
  }
  return done;
}

/** A lane waits this long for a claimed batch before it claims the next (see InFlight). */
const BATCH_WAIT_MS = 250;
/** Attempts a lane leaves running at once, at most. */
const MAX_IN_FLIGHT = 100;

/** Passes a runner makes back to back at most before it lets the poll pace it again. */
const MAX_BACK_TO_BACK = 10;

/**
 * Does now what a runner would: passes over every kind that runs on each pass
 * (not the sweeps, which a started runner runs every few minutes) until one
 * finds nothing to do — so the events a payout wrote are dispatched, and their
 * mail sent, before it returns. For tests and scripts.
 */
export async function runJobsOnce(jobs: readonly Job[] = JOBS): Promise<void> {
  for (let pass = 0; pass < MAX_BACK_TO_BACK; pass++) {
    let done = 0;
    for (const job of jobs) {
      if (job.type === "pass" && job.everyMs) continue;
      done += await runKind(job);
    }
    if (done === 0) return;
  }
}

export interface JobRunner {
  /** Lets the attempts under way finish, then stops. */
  stop(): Promise<void>;
  /** Passes made so far (for tests and logs). */
  readonly passes: number;
}

export interface JobRunnerOptions {
  /** The poll: a pass at least this often (ms). */
  intervalMs?: number;
  /** Listen for the database's notifications (default: on PostgreSQL). */
  listen?: boolean;
  jobs?: readonly Job[];
}

/** Lanes whose work an integrator waits for as it happens: they never give way (see giveWay). */
const PROMPT_LANES = new Set(["webhooks"]);
const GIVE_WAY_STEP_MS = 10;

/**
 * Background work gives way to the requests this process is answering: it
 * waits while any is under way, JOBS_GIVE_WAY_MS at most, then works anyway
 * (so it is late under load, never starved). A burst of writes is then answered
 * with the whole CPU, and the mail its claims planned goes out after it.
 */
export async function giveWay(maxMs = env.JOBS_GIVE_WAY_MS, stopped: () => boolean = () => false): Promise<void> {
  const until = performance.now() + maxMs;
  while (requestsWorking() > 0 && performance.now() < until && !stopped()) {
    await new Promise((resolve) => setTimeout(resolve, GIVE_WAY_STEP_MS));
  }
}

/** One lane: its kinds, in order, passed over by a loop of its own. */
function startLane(jobs: readonly Job[], intervalMs: number, wakeAll: (() => void) | null, prompt: boolean) {
  let stopped = false;
  let running = false;
  let again = false;
  let passes = 0;
  let backToBack = 0;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const lastRun = new Map<string, number>();
  const inFlight: InFlight = { attempts: new Set(), waitMs: BATCH_WAIT_MS, max: MAX_IN_FLIGHT };

  /** Gives way (a background lane); false once the lane is stopping. */
  const politely = async () => {
    await giveWay(env.JOBS_GIVE_WAY_MS, () => stopped);
    return !stopped;
  };
  /** One pass; returns how much it did. */
  const pass = async () => {
    let done = 0;
    for (const job of jobs) {
      if (stopped) break;
      if (job.type === "pass" && job.everyMs) {
        if (Date.now() - (lastRun.get(job.kind) ?? 0) < job.everyMs) continue;
        lastRun.set(job.kind, Date.now());
      }
      if (!prompt && !(await politely())) break;
      // One kind failing (its database call, say) does not hold back the others.
      done += await runKind(job, inFlight, prompt ? undefined : politely).catch((err: unknown) => {
        logger.error({ err, job: job.kind }, "job pass failed");
        return 0;
      });
    }
    return done;
  };
  const tick = () => {
    if (stopped) return;
    clearTimeout(timer);
    running = true;
    again = false;
    current = pass()
      .then((done) => {
        // What a pass did may be work for the other lanes (a payout's events, the mail a
        // dispatch planned), and for this one: without notifications to say so, every lane
        // passes again now, a few times at most.
        backToBack = done > 0 && backToBack < MAX_BACK_TO_BACK ? backToBack + 1 : 0;
        if (backToBack > 0) wakeAll?.();
      })
      .finally(() => {
        passes++;
        running = false;
        if (!stopped) timer = setTimeout(tick, again ? 0 : intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  const tables = new Set(jobs.flatMap(wakeTablesOf));
  return {
    /** Whether new rows of `table` are this lane's work. */
    wakesOn: (table: string) => tables.has(table),
    wake() {
      if (stopped) return;
      if (running) again = true;
      else {
        clearTimeout(timer);
        timer = setTimeout(tick, 0);
      }
    },
    get passes() {
      return passes;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      // The attempts a pass left running end too (each one bounded by its own timeout).
      await Promise.allSettled([...inFlight.attempts]);
    },
  };
}

/**
 * Starts the runner: one loop per lane (kinds that share a lane run in order
 * in one loop; a kind without one has its own), so a slow mail server or a
 * receiver that takes its full timeout never holds back the first attempt of
 * another lane's work. A wake-up wakes every lane.
 */
export function startJobRunner(options: JobRunnerOptions = {}): JobRunner {
  const { intervalMs = 1000, listen = !!env.DATABASE_URL, jobs = JOBS } = options;
  const byLane = new Map<string, Job[]>();
  for (const job of jobs) {
    const lane = job.lane ?? job.kind;
    byLane.set(lane, [...(byLane.get(lane) ?? []), job]);
  }
  const listening = listen && !!env.DATABASE_URL;
  const wakeAll = () => lanes.forEach((lane) => lane.wake());
  /** A table's new rows wake the lanes working on it; no table, every lane. */
  const wake = (table?: string) => {
    for (const lane of lanes) if (table === undefined || lane.wakesOn(table)) lane.wake();
    // The database's notification of a commit on any instance reaches this process's event streams too.
    if (listening) signalEvents(table);
  };
  const lanes = [...byLane.entries()].map(([name, laneJobs]) =>
    startLane(laneJobs, intervalMs, listening ? null : wakeAll, PROMPT_LANES.has(name)),
  );
  // Listening, this process's untargeted wake-ups add nothing: the commit's notification names the table.
  const localWake = (table?: string) => {
    if (!listening || table !== undefined) wake(table);
  };
  setWakeHandler(localWake);
  const listener: JobsListener | null = listening ? listenForJobs(env.DATABASE_URL!, wake) : null;
  return {
    get passes() {
      return lanes.reduce((sum, lane) => sum + lane.passes, 0);
    },
    async stop() {
      clearWakeHandler(localWake);
      await Promise.all([listener?.close(), ...lanes.map((lane) => lane.stop())]);
    },
  };
}
