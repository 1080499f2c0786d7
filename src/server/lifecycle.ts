// Server start and stop: open the database (applying migrations) before taking
// traffic, and on SIGTERM close it cleanly so the embedded lock is released.
import { connectDatabase, disconnectDatabase } from "@/server/db/client";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { startWebhookWorker } from "@/server/webhooks/worker";

const GRACE_MS = 500;

export async function startNodeServer(): Promise<void> {
  await connectDatabase();
  // Deployments with several instances may run it apart instead (`npm run worker`, WEBHOOK_WORKER=false here).
  const worker = env.WEBHOOK_WORKER ? startWebhookWorker() : null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Let requests already in flight finish before the database goes away.
    await Promise.all([new Promise((resolve) => setTimeout(resolve, GRACE_MS)), worker?.stop()]);
    await disconnectDatabase().catch((err) => logger.error({ err }, "error while closing the database"));
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
