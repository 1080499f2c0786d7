// Prisma migrations without the Prisma CLI: the CLI's migrate commands need a
// native schema engine it cannot download offline, so we drive the WebAssembly
// schema engine through a driver adapter instead. The files and the
// `_prisma_migrations` table are the standard ones, so `prisma migrate deploy`
// stays usable wherever the CLI works.
import fs from "node:fs/promises";
import path from "node:path";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine, SchemaFilter } from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { MEMORY, openEmbeddedDatabase } from "./embedded";

type EngineModule = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

const LOCKFILE = "migration_lock.toml";
const PGLITE_ADAPTER = "pglite-prisma-adapter";
const PG_ADAPTER = "@prisma/adapter-pg";
const NO_FILTER: SchemaFilter = { externalTables: [], externalEnums: [] };
// Any constant will do, as long as it differs from the 72707369 the engine takes
// itself on another connection of the same pool, which would then wait on us.
const ADVISORY_LOCK_KEY = 4_217_305_911;

// Only the default paths are static: Next's file tracing follows them, while a
// caller's path would make it trace the whole project.
const migrationsDirOf = (dir?: string) =>
  dir ? path.resolve(/* turbopackIgnore: true */ dir) : path.join(process.cwd(), "prisma/migrations");
const schemaPathOf = (file?: string) =>
  file ? path.resolve(/* turbopackIgnore: true */ file) : path.join(process.cwd(), "prisma/schema.prisma");

const g = globalThis as unknown as { __coverdeskSchemaEngine?: Promise<EngineModule> };

// The package's main entry imports the .wasm as an ES module, which neither
// Node nor the Next bundler loads, so we instantiate it ourselves. The wasm
// bindings live in module state: instantiate once per process (dev reloads
// included), hence the global.
function loadEngine(): Promise<EngineModule> {
  return (g.__coverdeskSchemaEngine ??= (async () => {
    const runtime = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmPath = path.join(process.cwd(), "node_modules/@prisma/schema-engine-wasm/schema_engine_bg.wasm");
    const wasmModule = new WebAssembly.Module(await fs.readFile(wasmPath));
    const instance = new WebAssembly.Instance(wasmModule, { "./schema_engine_bg.js": withUnrefTimers(runtime) });
    runtime.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return runtime;
  })().catch((err) => {
    g.__coverdeskSchemaEngine = undefined;
    throw err;
  }));
}

// The engine arms a 10 s timeout around its own advisory lock and never clears
// it, which would keep a finished script alive for those 10 s.
function withUnrefTimers(runtime: EngineModule): WebAssembly.ModuleImports {
  const imports: WebAssembly.ModuleImports = { ...(runtime as unknown as WebAssembly.ModuleImports) };
  for (const name of Object.keys(imports)) {
    if (name.startsWith("__wbg_setTimeout_")) {
      imports[name] = (fn: () => void, ms: number) => setTimeout(fn, ms >>> 0).unref();
    }
  }
  return imports;
}

// Both adapters run migration scripts badly: pglite-prisma-adapter (0.7.2)
// starts the script without awaiting it, so a failing migration is recorded as
// applied and its error becomes an unhandled rejection; @prisma/adapter-pg
// splits the script at every ";" (breaking function bodies and string
// literals) and spreads the pieces over its pool. Run the whole script in one
// call instead, as the native engine does, and report errors as they would.
function runScriptsWhole(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const internals = adapter as unknown as { client: unknown; onError(err: unknown): never };
  let run: (script: string) => Promise<unknown>;
  if (adapter.adapterName === PGLITE_ADAPTER) run = (script) => (internals.client as PGlite).exec(script);
  else if (adapter.adapterName === PG_ADAPTER) run = (script) => (internals.client as pg.Pool).query(script);
  else return adapter;
  adapter.executeScript = async (script) => {
    try {
      await run(script);
    } catch (err) {
      internals.onError(err);
    }
  };
  return adapter;
}

/** Runs `fn` with an engine on `factory`, then frees it and disposes every connection it opened. */
async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const runtime = await loadEngine();
  const opened: SqlDriverAdapter[] = [];
  const track = async (connecting: Promise<SqlDriverAdapter>) => {
    const adapter = runScriptsWhole(await connecting);
    opened.push(adapter);
    return adapter;
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => track(factory.connect()),
    connectToShadowDb: () => track(factory.connectToShadowDb()),
  };
  try {
    const engine = await runtime.SchemaEngine.new(
      { datamodels: undefined },
      () => {},
      bindMigrationAwareSqlAdapterFactory(tracked),
    );
    try {
      return await fn(engine);
    } finally {
      engine.free();
    }
  } finally {
    await Promise.all(opened.map((adapter) => adapter.dispose()));
  }
}

/**
 * Serializes migrations across processes with a PostgreSQL advisory lock. The
 * lock belongs to one session and a transaction is the adapter's only way to
 * hold on to one pooled connection, so it is a transaction-level lock.
 */
async function withMigrationLock<T>(factory: SqlMigrationAwareDriverAdapterFactory, fn: () => Promise<T>): Promise<T> {
  // PGlite is in-process with one session: a transaction there would block the
  // engine's own queries, and only this process can open its data directory.
  if (factory.adapterName === PGLITE_ADAPTER) return fn();
  const adapter = await factory.connect();
  try {
    const tx = await adapter.startTransaction();
    try {
      await tx.executeRaw({ sql: `SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_KEY})`, args: [], argTypes: [] });
      return await fn();
    } finally {
      // Ending the transaction releases the lock; adapters without phantom
      // queries leave sending ROLLBACK to the caller.
      if (!tx.options.usePhantomQuery) await tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] });
      await tx.rollback();
    }
  } finally {
    await adapter.dispose();
  }
}

function unlessMissing<T>(err: NodeJS.ErrnoException, fallback: T): T {
  if (err.code === "ENOENT") return fallback;
  throw err;
}

async function readMigrations(baseDir: string): Promise<MigrationList> {
  const entries = await fs.readdir(baseDir, { withFileTypes: true }).catch((err) => unlessMissing(err, []));
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockfile = await fs.readFile(path.join(baseDir, LOCKFILE), "utf8").catch((err) => unlessMissing(err, null));
  return {
    baseDir,
    lockfile: { path: LOCKFILE, content: lockfile },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: { tag: "ok" as const, value: await fs.readFile(path.join(baseDir, name, "migration.sql"), "utf8") },
        },
      })),
    ),
  };
}

/**
 * Applies every migration in `migrationsDir` (default `prisma/migrations`) that
 * the database has not recorded in `_prisma_migrations`. Safe to run from
 * several processes at once. The factory stays the caller's: only the
 * connections opened here are closed.
 */
export async function applyMigrations(
  factory: SqlMigrationAwareDriverAdapterFactory,
  opts: { migrationsDir?: string } = {},
): Promise<{ applied: string[] }> {
  const migrationsList = await readMigrations(migrationsDirOf(opts.migrationsDir));
  if (migrationsList.migrationDirectories.length === 0) return { applied: [] };
  return withMigrationLock(factory, () =>
    withEngine(factory, async (engine) => {
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
      return { applied: appliedMigrationNames };
    }),
  );
}

/**
 * The SQL of the next migration: what brings a database with every existing
 * migration applied to the current schema, or "" when nothing changes. The
 * migrations are replayed into an in-memory PGlite, so no server is needed.
 */
export async function createMigrationSql(opts: { schemaPath?: string; migrationsDir?: string } = {}): Promise<string> {
  const schemaPath = schemaPathOf(opts.schemaPath);
  const files = [{ path: schemaPath, content: await fs.readFile(schemaPath, "utf8") }];
  const migrationsList = await readMigrations(migrationsDirOf(opts.migrationsDir));
  const shadow = await openEmbeddedDatabase(MEMORY);
  try {
    return await withEngine(new PrismaPGlite(shadow.pglite), async (engine) => {
      if (migrationsList.migrationDirectories.length > 0) {
        await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
      }
      const diff = await engine.diff({
        from: { tag: "schemaDatasource", files, configDir: path.dirname(schemaPath) },
        to: { tag: "schemaDatamodel", files },
        script: true,
        exitCode: true,
        filters: NO_FILTER,
      });
      // With exitCode set, 0 means empty and 2 means there is a change.
      return diff.exitCode === 0 ? "" : (diff.stdout ?? "");
    });
  } finally {
    await shadow.close();
  }
}
