import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Service tests run against a real database: the PostgreSQL at DATABASE_URL
// when set (CI), else an in-memory embedded PGlite per test file. Either way
// the migrations run once per run, in src/test/global-setup.ts: on the
// PostgreSQL database itself, or on one in-memory PGlite whose dump (at
// EMBEDDED_SEED) every test file's database then starts from.
const usePostgres = !!process.env.DATABASE_URL;
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
      "server-only": fileURLToPath(new URL("./src/test/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One file at a time (Vitest's default on 2 cores). Three at a time on PostgreSQL ran 177 → 143 s, but the
    // files share one database and its NOTIFY channel: the job runner's wake-up test counted other files' commits.
    globalSetup: ["./src/test/global-setup.ts"],
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      AUTH_RATE_LIMIT: "false",
      VALIDATE_RESPONSES: "true",
      // Live payments through the sandbox (as on the embedded database) even when DATABASE_URL is set;
      // the tests of a deployment without a provider stub it away (payments/modes.test.ts).
      PAYMENTS_PROVIDER: "sandbox",
      BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
      // Migrated once by the global setup (the migrator's own tests open their own databases).
      MIGRATE_ON_START: "false",
      ...(usePostgres
        ? {}
        : {
            DATA_DIR: "memory://",
            EMBEDDED_SEED: path.join(os.tmpdir(), `coverdesk-vitest-seed-${process.pid}.tar`),
          }),
    },
  },
});
