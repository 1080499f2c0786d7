// Vitest globalSetup: migrate the test database once per run, not once per
// test file. Runs in Vitest's main process before any worker starts.
//
// - PostgreSQL (DATABASE_URL): applies the migrations to a template database
//   on that server (the URL's database name + `_vitest_template`), then copies
//   it once per worker (`_vitest_1`, `_vitest_2`, …); src/test/worker-database.ts
//   points each worker at its copy, and they run with MIGRATE_ON_START=false
//   (vitest.config.mts). The role needs CREATEDB. The copies are dropped at
//   the end of the run (a killed run's are dropped by the next one). Two runs
//   at once against the same database name would drop each other's copies:
//   give each its own DATABASE_URL database (as .ci/run does).
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
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { TestProject } from "vitest/node";
import { MEMORY, openEmbeddedDatabase } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrator";
import { withDatabase, workerDatabase } from "./worker-database";

export default async function setup(project: TestProject) {
  // Each Vitest project runs its global setup; the databases are made once per run, in this process.
  const once = globalThis as {
    coverdeskTestSetup?: Promise<(() => Promise<void>) | undefined>;
    coverdeskTestSetupUsers?: number;
  };
  once.coverdeskTestSetupUsers = (once.coverdeskTestSetupUsers ?? 0) + 1;
  once.coverdeskTestSetup ??= prepare(project);
  const teardown = await once.coverdeskTestSetup;
  return async () => {
    // The last project to finish tears down.
    if (--once.coverdeskTestSetupUsers! === 0) await teardown?.();
  };
}

async function prepare(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const seed = (project.config.env as Record<string, string | undefined>).EMBEDDED_SEED;
  if (process.env.DATABASE_URL) return postgresDatabases(process.env.DATABASE_URL, Number(project.config.maxWorkers) || 1);
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

async function postgresDatabases(url: string, workers: number) {
  const template = workerDatabase(url, "template");
  const copies = Array.from({ length: workers }, (_, i) => workerDatabase(url, String(i + 1)));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const id = (db: string) => admin.escapeIdentifier(db);
  try {
    for (const db of [...copies, template]) await admin.query(`DROP DATABASE IF EXISTS ${id(db)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${id(template)}`);
    // The migrator closes its connections (a database being copied can have no other).
    await applyMigrations(new PrismaPg({ connectionString: withDatabase(url, template) }));
    for (const db of copies) await admin.query(`CREATE DATABASE ${id(db)} TEMPLATE ${id(template)}`);
  } finally {
    await admin.end();
  }
  return async () => {
    const end = new pg.Client({ connectionString: url });
    await end.connect();
    try {
      for (const db of [...copies, template]) await end.query(`DROP DATABASE IF EXISTS ${end.escapeIdentifier(db)} WITH (FORCE)`);
    } finally {
      await end.end();
    }
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
