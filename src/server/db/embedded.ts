// The embedded database: PGlite in-process, in a data directory that only one
// process may open. PGlite has no lock of its own and two processes on one
// directory corrupt it, so we hold a lock file for as long as it is open.
import fs from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";
import { PGlite } from "@electric-sql/pglite";

export const MEMORY = "memory://";

export class DatabaseLockedError extends Error {
  constructor(readonly dir: string) {
    super(
      `The embedded database at ${dir} is in use by another process (a running server, bootstrap or migration). ` +
        `Stop it first, or point DATA_DIR somewhere else, or use DATABASE_URL.`,
    );
    this.name = "DatabaseLockedError";
  }
}

export interface EmbeddedDatabase {
  pglite: PGlite;
  dir: string;
  close(): Promise<void>;
}

/** Opens (creating if needed) the PGlite database of a data directory, or an in-memory one. */
export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  if (dataDir === MEMORY) {
    const pglite = await PGlite.create();
    return { pglite, dir: MEMORY, close: () => pglite.close() };
  }
  const dir = path.resolve(dataDir, "db");
  fs.mkdirSync(dir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, {
      stale: 15_000,
      update: 5_000,
      realpath: false,
      onCompromised: (err) => {
        // Another process took the directory: stop before it gets corrupted.
        console.error(`Lost the lock on ${dir}: ${err.message}`);
        process.exit(1);
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED") throw new DatabaseLockedError(dir);
    throw err;
  }
  try {
    const pglite = await PGlite.create(dir);
    let closed = false;
    return {
      pglite,
      dir,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await pglite.close();
        } finally {
          await release();
        }
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
}
