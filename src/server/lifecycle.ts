// Server start and stop. On start: open the database (applying migrations)
// before taking traffic, and start the webhook worker. On SIGTERM: report
// unhealthy so load balancers stop sending, let requests in flight and the
// webhook attempt under way finish, close the database (releasing the
// embedded lock) and exit 0. `npm start` sets NEXT_MANUAL_SIG_HANDLE so that
// Next leaves the signal to us.
import { connectDatabase, disconnectDatabase } from "@/server/db/client";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { startWebhookWorker } from "@/server/webhooks/worker";

const DRAIN_TIMEOUT_MS = 10_000;

const g = globalThis as unknown as { __coverdeskLife?: { draining: boolean; inFlight: number } };
const life = (g.__coverdeskLife ??= { draining: false, inFlight: 0 });

export const isDraining = () => life.draining;

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

export async function startNodeServer(): Promise<void> {
  await connectDatabase();
  // Deployments with several instances may run it apart instead (`npm run worker`, WEBHOOK_WORKER=false here).
  const worker = env.WEBHOOK_WORKER ? startWebhookWorker() : null;
  const stop = async (signal: string) => {
    if (life.draining) return;
    life.draining = true;
    logger.info({ signal, inFlight: life.inFlight }, "shutting down");
    await Promise.all([drained(), worker?.stop()]);
    await disconnectDatabase().catch((err) => logger.error({ err }, "error while closing the database"));
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
