import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Service tests run against a real database: the PostgreSQL server at
// DATABASE_URL when set (CI), else an in-memory embedded PGlite per test file.
// Either way the migrations run once per run, in src/test/global-setup.ts: on
// PostgreSQL into a template database that each worker's own database is copied
// from (src/test/worker-database.ts points the worker at it), or on one
// in-memory PGlite whose dump (at EMBEDDED_SEED) every test file's database
// then starts from.
const usePostgres = !!process.env.DATABASE_URL;
const WORKERS = Number(process.env.VITEST_WORKERS ?? 3);
// Files that change the process around them (vi.stubEnv, module mocks, env read at import, globals they
// patch) get a fresh module graph each; every other file runs in its worker's one graph (isolate: false),
// which saves loading the server's modules again per file (about 60 s of the run).
const ISOLATED = [
  "src/server/client-ip.test.ts",
  "src/server/db/client.test.ts",
  "src/server/db/migrator.test.ts",
  "src/server/integrations/sms.test.ts",
  "src/server/notices/sms-delivery.test.ts",
  "src/server/jobs/env.test.ts",
  "src/server/mail/password-reset.test.ts",
  "src/server/mail/retry.test.ts",
  "src/server/payments/currency-race.test.ts",
  "src/server/payments/paystack.test.ts",
  "src/server/payouts/paystack-recipient.test.ts",
  "src/server/payouts/paystack-transfers.test.ts",
  "src/server/refunds/paystack.test.ts",
  "src/server/renewals/paystack.test.ts",
  "src/server/webhooks/delivery.test.ts",
  "src/server/webhooks/service.test.ts",
  "src/server/webhooks/url-safety.test.ts",
];
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
      "server-only": fileURLToPath(new URL("./src/test/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    projects: [
      { extends: true, test: { name: "shared", include: ["src/**/*.test.ts"], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED, isolate: true } },
    ],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Files wait on the database more than they compute: on PostgreSQL three run side by side, each worker on
    // its own database (one NOTIFY channel and one job outbox per worker, as one file at a time had).
    maxWorkers: usePostgres ? WORKERS : undefined,
    globalSetup: ["./src/test/global-setup.ts"],
    setupFiles: usePostgres ? ["./src/test/worker-database.ts"] : [],
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      AUTH_RATE_LIMIT: "false",
      // New password hashes at scrypt N = 1024, as on the e2e server (src/server/password.ts).
      PASSWORD_SCRYPT_N: "1024",
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
