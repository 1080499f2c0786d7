// npm run worker — the background worker on its own (webhook delivery, mail,
// payouts, coverage renewal reminders and expiries), for deployments with
// several app instances (run them with WEBHOOK_WORKER=false). Any number of
// workers may run against one PostgreSQL: rows are claimed with SKIP LOCKED.
import { connectDatabase, disconnectDatabase } from "@/server/db/client";
import { logger } from "@/server/logger";
import { startWebhookWorker } from "@/server/webhooks/worker";

async function main() {
  await connectDatabase();
  const worker = startWebhookWorker();
  logger.info("webhook worker started");
  const stop = async (signal: string) => {
    logger.info({ signal }, "webhook worker stopping");
    await worker.stop();
    await disconnectDatabase();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
