// Server start and stop. On start: check the settings, open the database
// (taking the embedded lock, applying migrations) and start the job runner
// (src/server/jobs); /api/health answers 503 until then, and a failure ends the process
// at once (see instrumentation.ts) rather than leaving it up answering 500s.
// On SIGTERM (or SIGINT): report unhealthy so load balancers stop sending, let
// requests in flight and the job attempts under way finish, close the
// database (releasing the embedded lock) and exit 0. `npm start` sets
// NEXT_MANUAL_SIG_HANDLE so that Next leaves the signal to us. The signal often
// comes twice — systemd and Ctrl-C signal the whole process group, so npm gets
// it too and passes its own on — and a repeated one changes nothing: the
// handlers stay installed for good (after a `once` handler, Node's default
// would kill the process mid-drain); only SIGKILL or the drain timeout ends it.
// Every HTTP request counts as in flight from its head to its answer's end
// (src/server/http-guard.ts), whichever route serves it.
import { flushApiUsage } from "@/server/analytics/metering";
import { capturePeerAddresses } from "@/server/client-ip";
import { connectDatabase, db, disconnectDatabase } from "@/server/db/client";
import { authSecret, env } from "@/server/env";
import { requestsInFlight } from "@/server/http-guard";
import { loopUtilization, requestsWorking } from "@/server/operations/busy";
import { logger } from "@/server/logger";
import { flushRateLimits } from "@/server/rest/rate-limit";
import { startJobRunner } from "@/server/jobs/runner";

const g = globalThis as unknown as {
  __coverdeskLife?: { starting?: boolean; draining: boolean; stop?: (signal: string) => Promise<void> };
};
const life = (g.__coverdeskLife ??= { draining: false });

export const isDraining = () => life.draining;
export const isStarting = () => life.starting === true;

/**
 * Requests not done: those the HTTP server counts (head read, answer or handler
 * not done) and, as a second witness, the route handlers still working. A CI
 * run saw the database closed under a portal code request whose handler was
 * still at work, with no drain timeout: the first count alone had read zero
 * (how, not found: it did not happen again in many runs). A handler's own
 * count does not depend on how Next resolves its request listener.
 */
const unfinished = () => Math.max(requestsInFlight(), requestsWorking());

async function drained(): Promise<void> {
  const started = Date.now();
  // Connections accepted just before the signal may not have sent their head yet.
  await new Promise((r) => setTimeout(r, 300));
  const deadline = Date.now() + env.SHUTDOWN_TIMEOUT_MS;
  while (unfinished() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const counts = { inFlight: requestsInFlight(), working: requestsWorking(), waitedMs: Date.now() - started };
  if (unfinished() > 0) logger.warn(counts, "drain timeout: stopping with requests in flight");
  else logger.info(counts, "requests drained");
}

/**
 * Checks what can be checked at once (throwing before the first request is
 * answered), then returns the opening of the database and the job runner.
 */
export function startNodeServer(): Promise<void> {
  life.starting = true;
  let runner: { stop(): Promise<void> } | null = null;
  const stop = async (signal: string) => {
    if (life.draining) {
      logger.info({ signal, inFlight: requestsInFlight() }, "already shutting down: signal ignored");
      return;
    }
    life.draining = true;
    logger.info({ signal, inFlight: requestsInFlight() }, "shutting down");
    await Promise.all([drained(), runner?.stop()]);
    await flushApiUsage().catch((err) => logger.error({ err }, "could not write the last API usage"));
    await flushRateLimits().catch((err) => logger.error({ err }, "could not write the last rate-limit counts"));
    await disconnectDatabase().catch((err) => logger.error({ err }, "error while closing the database"));
    logger.info("stopped");
    process.exit(0);
  };
  // `on`, not `once`: a repeated signal must find our handler, not Node's default (which would end the drain).
  if (!life.stop) {
    process.on("SIGTERM", () => void life.stop?.("SIGTERM"));
    process.on("SIGINT", () => void life.stop?.("SIGINT"));
  }
  life.stop = stop;
  capturePeerAddresses();
  loopUtilization(); // starts sampling the event loop's load (admission sheds writes when it is saturated)
  authSecret(); // required in production with DATABASE_URL: say so now, not at the first sign-up
  return (async () => {
    try {
      await openDatabase();
    } catch (err) {
      if (life.draining) return; // stopped while starting: not a failure
      throw err;
    }
    // Deployments may run it apart instead (`npm run worker`, WORKER=false here).
    if (env.WEBHOOK_WORKER !== undefined) {
      logger.warn("WEBHOOK_WORKER is deprecated: it is now WORKER (the job runner runs webhooks, mail, payouts and reminders)");
    }
    if (!life.draining && env.WORKER) runner = startJobRunner();
    life.starting = false;
    logger.info("ready");
    // Under `npm start`'s cluster (scripts/start.mjs) the primary replaces a worker that stops after this, and
    // stops everything when one fails before it.
    if (process.env.COVERDESK_CLUSTER_WORKER !== undefined) process.send?.({ type: "coverdesk:ready" });
  })();
}

async function openDatabase(): Promise<void> {
  try {
    await connectDatabase();
    await db.$queryRaw`SELECT 1`; // without migrations to apply, connecting alone has not reached the server
  } catch (err) {
    if (!env.DATABASE_URL) throw err;
    // Name the setting, never its value (it holds the password). Prisma's
    // message ends with the driver's reason ("Can't reach database server at …").
    const reason = (err instanceof Error ? err.message : String(err)).trim().split("\n").pop();
    throw new Error(`DATABASE_URL: cannot use the database: ${reason}`, { cause: err });
  }
}
