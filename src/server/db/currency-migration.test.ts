// The migration that made amounts ISO 4217 minor units of their currency:
// rows written before it (every currency in hundredths) are rescaled.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MEMORY, openEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";
import { applyMigrations } from "./migrator";

const MIGRATION = "20261127073000_currency_minor_units";
const ALL = path.join(process.cwd(), "prisma/migrations");

let db: EmbeddedDatabase;
let dir: string;
beforeAll(async () => {
  db = await openEmbeddedDatabase(MEMORY);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "currency-migration-"));
  // Every migration before this one.
  for (const name of (await fs.readdir(ALL)).filter((n) => /^\d{14}_/.test(n)).sort()) {
    if (name >= MIGRATION) break;
    await fs.cp(path.join(ALL, name), path.join(dir, name), { recursive: true });
  }
  await applyMigrations(new PrismaPGlite(db.pglite), { migrationsDir: dir });
}, 60_000);
afterAll(async () => {
  await db.close();
  await fs.rm(dir, { recursive: true, force: true });
});

it("rescales amounts of currencies without 2 decimals, and leaves NGN's alone", { timeout: 60_000 }, async () => {
  const q = (sql: string) => db.pglite.exec(sql);
  const orgs = { ng: "NGN", jp: "JPY", kw: "KWD" } as const;
  for (const [id, currency] of Object.entries(orgs)) {
    await q(`INSERT INTO organization (id, name, currency, "updatedAt") VALUES ('${id}', '${id}', '${currency}', now())`);
    await q(`INSERT INTO policy (id, "organizationId", name, type, duration, "priceMinor", currency, "updatedAt")
             VALUES ('p_${id}', '${id}', 'Cover', 'auto', 'yearly', 100050, '${currency}', now())`);
    await q(`INSERT INTO ledger_transaction (id, "organizationId", type, "amountMinor", currency, reference, description)
             VALUES ('l_${id}', '${id}', 'payment', 100000, '${currency}', 'r_${id}', 'Payment')`);
    await q(`INSERT INTO daily_stats ("organizationId", day, "grossMinor") VALUES ('${id}', '2026-11-01', 100000)`);
  }

  await fs.cp(path.join(ALL, MIGRATION), path.join(dir, MIGRATION), { recursive: true });
  expect(await applyMigrations(new PrismaPGlite(db.pglite), { migrationsDir: dir })).toEqual({ applied: [MIGRATION] });

  const read = async (sql: string) =>
    (await db.pglite.query<{ id: string; v: string }>(sql)).rows.map((r) => [r.id, String(r.v)]);
  // ¥1000.50 (stored 100050) becomes ¥1001 — whole yen; KWD 1000.50 becomes 1000500 fils.
  expect(await read(`SELECT "organizationId" AS id, "priceMinor" AS v FROM policy ORDER BY 1`)).toEqual([
    ["jp", "1001"],
    ["kw", "1000500"],
    ["ng", "100050"],
  ]);
  expect(await read(`SELECT "organizationId" AS id, "amountMinor" AS v FROM ledger_transaction ORDER BY 1`)).toEqual([
    ["jp", "1000"],
    ["kw", "1000000"],
    ["ng", "100000"],
  ]);
  expect(
    await read(`SELECT "organizationId" AS id, "grossMinor" AS v FROM daily_stats WHERE day = '2026-11-01' ORDER BY 1`),
  ).toEqual([
    ["jp", "1000"],
    ["kw", "1000000"],
    ["ng", "100000"],
  ]);
  // Its helper functions are gone.
  const fns = await db.pglite.query(`SELECT proname FROM pg_proc WHERE proname LIKE 'coverdesk_rescale%'`);
  expect(fns.rows).toEqual([]);
});
