// Server start and stop. On start: check the settings, open the database
// (taking the embedded lock, applying migrations) and start the webhook
// worker; /api/health answers 503 until then, and a failure ends the process
// at once (see instrumentation.ts) rather than leaving it up answering 500s.
// On SIGTERM: report unhealthy so load balancers stop sending, let requests in
// flight and the webhook attempt under way finish, close the database
// (releasing the embedded lock) and exit 0. `npm start` sets
// NEXT_MANUAL_SIG_HANDLE so that Next leaves the signal to us.
import { flushApiUsage } from "@/server/analytics/metering";
import { capturePeerAddresses } from "@/server/client-ip";
import { connectDatabase, db, disconnectDatabase } from "@/server/db/client";
import { authSecret, env } from "@/server/env";
import { logger } from "@/server/logger";
import { flushRateLimits } from "@/server/rest/rate-limit";
import { startWebhookWorker } from "@/server/webhooks/worker";

const DRAIN_TIMEOUT_MS = 10_000;

const g = globalThis as unknown as { __coverdeskLife?: { starting?: boolean; draining: boolean; inFlight: number } };
const life = (g.__coverdeskLife ??= { draining: false, inFlight: 0 });

export const isDraining = () => life.draining;
export const isStarting = () => life.starting === true;

/** Counts a request as in flight until it answers, so shutdown can wait for it. */
export async function tracked<T>(work: () => Promise<T>): Promise<T> {
  life.inFlight++;
  try {
    return await work();
  } finally {
    life.inFlight--;
  }
}

async function drained(): Promise<void> {
  // Connections accepted just before the signal may not have reached a handler yet.
  await new Promise((r) => setTimeout(r, 300));
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (life.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/**
 * Checks what can be checked at once (throwing before the first request is
 * answered), then returns the opening of the database and the worker.
 */
export function startNodeServer(): Promise<void> {
  life.starting = true;
  let worker: { stop(): Promise<void> } | null = null;
  const stop = async (signal: string) => {
    if (life.draining) return;
    life.draining = true;
    logger.info({ signal, inFlight: life.inFlight }, "shutting down");
    await Promise.all([drained(), worker?.stop()]);
    await flushApiUsage().catch((err) => logger.error({ err }, "could not write the last API usage"));
    await flushRateLimits().catch((err) => logger.error({ err }, "could not write the last rate-limit counts"));
    await disconnectDatabase().catch((err) => logger.error({ err }, "error while closing the database"));
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  capturePeerAddresses();
  authSecret(); // required in production with DATABASE_URL: say so now, not at the first sign-up
  return (async () => {
    try {
      await openDatabase();
    } catch (err) {
      if (life.draining) return; // stopped while starting: not a failure
      throw err;
    }
    // Deployments with several instances may run it apart instead (`npm run worker`, WEBHOOK_WORKER=false here).
    if (!life.draining && env.WEBHOOK_WORKER) worker = startWebhookWorker();
    life.starting = false;
    logger.info("ready");
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
