import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "../env";
import { MEMORY, openEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";
import { applyMigrations, createMigrationSql } from "./migrator";

const TIMEOUT = 60_000;

async function migrationNames(): Promise<string[]> {
  const entries = await fs.readdir(path.join(process.cwd(), "prisma/migrations"), { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

// A migration whose body has semicolons inside a function and a string.
const FUNCTION_SQL = `CREATE TABLE note (body text DEFAULT 'a;b');
CREATE FUNCTION touch() RETURNS trigger AS $$
BEGIN
  NEW.body := 'x';
  RETURN NEW;
END
$$ LANGUAGE plpgsql;`;

async function withMigrationsDir(migrations: Record<string, string>, fn: (dir: string) => Promise<void>) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "migrator-test-"));
  try {
    for (const [name, sql] of Object.entries(migrations)) {
      await fs.mkdir(path.join(dir, name));
      await fs.writeFile(path.join(dir, name, "migration.sql"), sql);
    }
    await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true });
  }
}

describe("applyMigrations on PGlite", () => {
  let db: EmbeddedDatabase;
  beforeAll(async () => {
    db = await openEmbeddedDatabase(MEMORY);
  });
  afterAll(() => db.close());

  it("applies every migration once and leaves the caller's database open", { timeout: TIMEOUT }, async () => {
    const names = await migrationNames();
    expect(names.length).toBeGreaterThan(0);

    expect(await applyMigrations(new PrismaPGlite(db.pglite))).toEqual({ applied: names });
    const tables = await db.pglite.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(["_prisma_migrations", "user", "organization"]));

    expect(await applyMigrations(new PrismaPGlite(db.pglite))).toEqual({ applied: [] });
  });

  it("rejects a failing migration and records it as failed", { timeout: TIMEOUT }, async () => {
    const broken = await openEmbeddedDatabase(MEMORY);
    try {
      await withMigrationsDir({ "20000101000000_broken": "CREATE TABLE x (id int);\nSELECT nope;" }, async (dir) => {
        await expect(applyMigrations(new PrismaPGlite(broken.pglite), { migrationsDir: dir })).rejects.toThrow(/nope/);
      });
      const { rows } = await broken.pglite.query("SELECT finished_at FROM _prisma_migrations");
      expect(rows).toEqual([{ finished_at: null }]);
    } finally {
      await broken.close();
    }
  });
});

describe.runIf(env.DATABASE_URL)("applyMigrations on PostgreSQL", () => {
  const database = `migrator_test_${randomUUID().replaceAll("-", "")}`;
  let admin: pg.Client;
  let scratchUrl: string;

  beforeAll(async () => {
    const url = new URL(env.DATABASE_URL!);
    url.pathname = `/${database}`;
    scratchUrl = url.toString();
    admin = new pg.Client({ connectionString: env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
  });
  // Without FORCE this fails if the migrator left a connection open.
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${database}"`);
    await admin.end();
  });

  it("applies every migration once, also when two processes race", { timeout: TIMEOUT }, async () => {
    const names = await migrationNames();
    const results = await Promise.all([
      applyMigrations(new PrismaPg({ connectionString: scratchUrl })),
      applyMigrations(new PrismaPg({ connectionString: scratchUrl })),
    ]);
    expect(results.map((r) => r.applied).sort()).toEqual([[], names]);

    expect(await applyMigrations(new PrismaPg({ connectionString: scratchUrl }))).toEqual({ applied: [] });
    const client = new pg.Client({ connectionString: scratchUrl });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL");
      expect(rows.map((r) => r.migration_name).sort()).toEqual(names);
    } finally {
      await client.end();
    }
  });

  it("runs a migration script whole", { timeout: TIMEOUT }, async () => {
    await withMigrationsDir({ "29990101000000_function": FUNCTION_SQL }, async (dir) => {
      await expect(applyMigrations(new PrismaPg({ connectionString: scratchUrl }), { migrationsDir: dir })).resolves.toEqual({
        applied: ["29990101000000_function"],
      });
    });
  });
});

describe("createMigrationSql", () => {
  it("is empty once the migrations match schema.prisma", { timeout: TIMEOUT }, async () => {
    expect(await createMigrationSql()).toBe("");
  });

  it("creates the whole schema from no migrations", { timeout: TIMEOUT }, async () => {
    await withMigrationsDir({}, async (empty) => {
      expect(await createMigrationSql({ migrationsDir: empty })).toContain('CREATE TABLE "user"');
    });
  });
});
