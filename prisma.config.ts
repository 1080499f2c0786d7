import path from "node:path";
import { defineConfig } from "prisma/config";

// The Prisma CLI wants a native schema engine even for `generate`, and cannot
// download one offline. Generation never runs it, so any existing file does;
// migrations go through the WebAssembly engine (scripts/db-migrate.ts).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve("package.json");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  ...(process.env.DATABASE_URL ? { datasource: { url: process.env.DATABASE_URL } } : {}),
});
