// Vitest globalSetup: migrate the test database once per run, not once per
// test file. Runs in Vitest's main process before any worker starts.
//
// - PostgreSQL (DATABASE_URL): applies the migrations to that database here;
//   the workers run with MIGRATE_ON_START=false (vitest.config.mts).
// - Embedded (no DATABASE_URL): migrates one in-memory PGlite and dumps its
//   data directory to the file named by EMBEDDED_SEED (vitest.config.mts puts
//   the path in the workers' env); each worker's in-memory database starts as
//   a copy of it (src/server/db/client.ts), so no worker migrates.
//
// Tests of the migrator itself (src/server/db/migrator.test.ts) open their own
// databases and are not affected.
import fs from "node:fs/promises";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { TestProject } from "vitest/node";
import { MEMORY, openEmbeddedDatabase } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrator";

export default async function setup(project: TestProject) {
  const seed = (project.config.env as Record<string, string | undefined>).EMBEDDED_SEED;
  if (process.env.DATABASE_URL) {
    await applyMigrations(new PrismaPg({ connectionString: process.env.DATABASE_URL }));
    return;
  }
  if (!seed) return;
  await removeSeedsOfDeadRuns(seed);
  const db = await openEmbeddedDatabase(MEMORY);
  try {
    await applyMigrations(new PrismaPGlite(db.pglite));
    // Uncompressed (about 40 MB): every test file loads it, and gunzip made that slower here.
    const dump = await db.pglite.dumpDataDir("none");
    await fs.writeFile(seed, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
  return async () => {
    await fs.rm(seed, { force: true });
  };
}

/** A run that was killed never removed its seed (about 40 MB): remove those whose Vitest process is gone. */
async function removeSeedsOfDeadRuns(seed: string) {
  const dir = path.dirname(seed);
  for (const name of await fs.readdir(dir).catch(() => [])) {
    const pid = /^coverdesk-vitest-seed-(\d+)\.tar$/.exec(name)?.[1];
    if (pid && !isRunning(Number(pid))) await fs.rm(path.join(dir, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
