import path from "node:path";
import { defineConfig } from "vitest/config";

// Service tests run against a real database: the PostgreSQL at DATABASE_URL
// when set (CI), else an in-memory embedded PGlite per test worker.
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(__dirname, "src"),
      "server-only": path.resolve(__dirname, "src/test/server-only-stub.ts"),
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
      BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
      ...(process.env.DATABASE_URL ? {} : { DATA_DIR: "memory://" }),
    },
  },
});
