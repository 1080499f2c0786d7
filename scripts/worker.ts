// npm run worker — the job runner on its own (webhook delivery, mail, payouts,
// coverage renewal reminders and expiries, sweeps: src/server/jobs), for
// deployments that keep it out of the app instances (run those with
// WORKER=false). Any number of runners may share one PostgreSQL: rows are
// claimed with SKIP LOCKED and a lease, and every runner is woken by the
// database's notifications when an outbox row commits.
import { connectDatabase, disconnectDatabase } from "@/server/db/client";
import { startJobRunner } from "@/server/jobs/runner";
import { logger } from "@/server/logger";

async function main() {
  await connectDatabase();
  const runner = startJobRunner();
  logger.info("job runner started");
  const stop = async (signal: string) => {
    logger.info({ signal }, "job runner stopping");
    await runner.stop();
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
