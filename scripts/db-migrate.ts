// npm run db:migrate — applies pending migrations to DATABASE_URL, or else to
// the embedded database in DATA_DIR.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "@/server/env";
import { DatabaseLockedError, openEmbeddedDatabase } from "@/server/db/embedded";
import { applyMigrations } from "@/server/db/migrator";

async function main() {
  let applied: string[];
  let target: string;
  if (env.DATABASE_URL) {
    target = "PostgreSQL (DATABASE_URL)";
    ({ applied } = await applyMigrations(new PrismaPg({ connectionString: env.DATABASE_URL })));
  } else {
    const db = await openEmbeddedDatabase(env.DATA_DIR);
    target = `the embedded database at ${db.dir}`;
    try {
      ({ applied } = await applyMigrations(new PrismaPGlite(db.pglite)));
    } finally {
      await db.close();
    }
  }
  if (applied.length === 0) console.log(`No pending migrations for ${target}.`);
  else console.log(`Applied to ${target}:\n${applied.map((name) => `  ${name}`).join("\n")}`);
}

main().catch((err) => {
  console.error(err instanceof DatabaseLockedError ? err.message : err);
  process.exit(1);
});
