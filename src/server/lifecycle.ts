// Server start and stop: open the database (applying migrations) before taking
// traffic, and on SIGTERM close it cleanly so the embedded lock is released.
import { connectDatabase, disconnectDatabase } from "@/server/db/client";
import { logger } from "@/server/logger";

const GRACE_MS = 500;

export async function startNodeServer(): Promise<void> {
  await connectDatabase();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Let requests already in flight finish before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS));
    await disconnectDatabase().catch((err) => logger.error({ err }, "error while closing the database"));
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
