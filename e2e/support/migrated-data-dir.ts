// A data directory whose embedded database is already migrated, for the specs
// that start servers of their own (lifecycle, crash). A fresh directory's
// first start spends most of its time in initdb and the migrations (measured
// on 2 cores: 19 s wall and 11 s of CPU, against 9 s and 3.4 s on a migrated
// one), and what those specs prove starts after that. The migrated database is
// made once per test worker (`npm run db:migrate` on an empty directory) and
// copied for each use; E2E_FRESH_DATA_DIRS=1 makes every one from scratch.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

let template: string | undefined;

function migratedTemplate(): string {
  if (template) return template;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-template-"));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 }));
  const migrate = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/db-migrate.ts"], {
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: dir, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (migrate.status !== 0) throw new Error(`could not migrate a template database: ${migrate.stderr || migrate.stdout}`);
  template = dir;
  return dir;
}

/** Fills `dataDir` (an empty directory) with a copy of a migrated embedded database; returns it. */
export function withMigratedDatabase(dataDir: string): string {
  if (process.env.E2E_FRESH_DATA_DIRS === "1") return dataDir;
  fs.cpSync(path.join(migratedTemplate(), "db"), path.join(dataDir, "db"), { recursive: true });
  return dataDir;
}
