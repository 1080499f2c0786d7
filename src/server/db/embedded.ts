// The embedded database: PGlite in-process, in a data directory that only one
// process may open. PGlite has no lock of its own and two processes on one
// directory corrupt it, so we hold a lock file for as long as it is open.
// Beside it, `db.owner` names the holder (pid, host): a lock left by a killed
// process of this host is taken over at once instead of waiting for the
// lock's mtime to go stale.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";
import { PGlite } from "@electric-sql/pglite";

export const MEMORY = "memory://";

export class DatabaseLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid?: number,
  ) {
    super(
      `The embedded database at ${dir} is in use by another process ` +
        `(${pid ? `pid ${pid}: ` : ""}a running server, bootstrap or migration). ` +
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

interface Owner {
  pid: number;
  host: string;
}

const ownerFile = (dir: string) => `${dir}.owner`;

function readOwner(dir: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(ownerFile(dir), "utf8")) as Partial<Owner>;
    return Number.isInteger(owner.pid) && typeof owner.host === "string" ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
}

const g = globalThis as unknown as { __coverdeskHeldDirs?: Set<string> };
const held = (g.__coverdeskHeldDirs ??= new Set());

/** The recorded holder runs on this host and is gone (its pid may even be ours again, after a container restart). */
function ownerIsDead(dir: string, owner: Owner | undefined): boolean {
  if (!owner || owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return !held.has(dir);
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Opens (creating if needed) the PGlite database of a data directory, or an in-memory one.
 * `seed`, for an in-memory database only (ignored otherwise): the path of a data
 * directory dump (PGlite's `dumpDataDir`, made by src/test/global-setup.ts) to
 * start from instead of an empty database. Loading it skips initdb and the migrations.
 */
export async function openEmbeddedDatabase(dataDir: string, opts: { seed?: string } = {}): Promise<EmbeddedDatabase> {
  if (dataDir === MEMORY) {
    const loadDataDir = opts.seed ? new Blob([fs.readFileSync(opts.seed)]) : undefined;
    const pglite = await PGlite.create({ loadDataDir });
    return { pglite, dir: MEMORY, close: () => pglite.close() };
  }
  const dir = path.resolve(dataDir, "db");
  fs.mkdirSync(dir, { recursive: true });
  const lock = () =>
    lockfile.lock(dir, {
      // Only a fallback for holders we cannot check (another host on a shared
      // volume): long, as opening PGlite can block the event loop for many seconds.
      stale: 60_000,
      update: 10_000,
      realpath: false,
      onCompromised: (err) => {
        // Another process took the directory: stop before it gets corrupted.
        console.error(`Lost the lock on ${dir}: ${err.message}`);
        process.exit(1);
      },
    });
  const locked = (err: unknown) => (err as NodeJS.ErrnoException).code === "ELOCKED";
  let unlock: () => Promise<void>;
  try {
    unlock = await lock();
  } catch (err) {
    if (!locked(err)) throw err;
    const owner = readOwner(dir);
    if (!ownerIsDead(dir, owner)) throw new DatabaseLockedError(dir, owner?.pid);
    fs.rmSync(`${dir}.lock`, { recursive: true, force: true });
    unlock = await lock().catch((again) => {
      throw locked(again) ? new DatabaseLockedError(dir, readOwner(dir)?.pid) : again;
    });
  }
  held.add(dir);
  fs.writeFileSync(ownerFile(dir), JSON.stringify({ pid: process.pid, host: os.hostname() } satisfies Owner));
  const release = async () => {
    held.delete(dir);
    fs.rmSync(ownerFile(dir), { force: true });
    await unlock();
  };
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
