import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Service tests run against a real database: the PostgreSQL at DATABASE_URL
// when set (CI), else an in-memory embedded PGlite per test worker.
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
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      AUTH_RATE_LIMIT: "false",
      VALIDATE_RESPONSES: "true",
      // Live payments through the sandbox (as on the embedded database) even when DATABASE_URL is set;
      // the tests of a deployment without a provider stub it away (payments/modes.test.ts).
      PAYMENTS_PROVIDER: "sandbox",
      BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
      ...(process.env.DATABASE_URL ? {} : { DATA_DIR: "memory://" }),
    },
  },
});
