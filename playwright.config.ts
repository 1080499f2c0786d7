import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM, CHROMIUM_ARGS } from "./e2e/support/browsers";

// The built app, started on a fresh embedded database (no DATABASE_URL), so
// every run exercises the embedded path while Vitest covers PostgreSQL.
// `npm run test:e2e:pg` (E2E_DATABASE=postgres) starts the same build on the
// PostgreSQL at DATABASE_URL instead, for the generated security matrix and
// fuzz suite: hostile input must be harmless on both databases.
const POSTGRES = process.env.E2E_DATABASE === "postgres";
if (POSTGRES && !process.env.DATABASE_URL) throw new Error("E2E_DATABASE=postgres needs DATABASE_URL");
process.env.E2E_PORT ??= POSTGRES ? "3211" : "3210";
const PORT = Number(process.env.E2E_PORT);
/** The platform operator the specs sign in as (see e2e/support/api.ts). */
const PLATFORM_ADMIN = { email: "platform-admin@e2e.test", password: "correct-horse-battery" };
export const BASE_URL = `http://127.0.0.1:${PORT}`;
// On PostgreSQL a second instance of the same build, on the same database, beside the first: for the
// specs of what instances share (metering, rate limits, the portal's limits, the balance lock, the job
// runner's wake-up). Started once here, not once per spec file (four starts of the app, each blocking a
// worker); WORKER=false, so the first instance runs the only job runner (as jobs-wake.spec.ts needs).
process.env.E2E_SECOND_PORT ??= String(PORT + 1);
const SECOND_PORT = Number(process.env.E2E_SECOND_PORT);
if (!process.env.E2E_DATA_DIR) {
  // Made by this process (the runner: its workers inherit the variable), so removed by it when it exits.
  // Not in a globalTeardown: Playwright runs that before it stops the webServers, which still hold the
  // embedded database here. The operations manifest the specs share (e2e/support/session-matrix.ts,
  // named after this process) goes with it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-e2e-"));
  process.env.E2E_DATA_DIR = dataDir;
  process.on("exit", () => {
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
    fs.rmSync(path.join(os.tmpdir(), `coverdesk-operations-${process.pid}.json`), { force: true });
  });
}
// Passwords hashed at scrypt N = 1024 (~9 ms) instead of 16384 (~140 ms of CPU): the suite signs up
// ~800 accounts. Set here so the servers some specs start themselves hash alike; every hash records its N.
process.env.PASSWORD_SCRYPT_N ??= "1024";

/** The first instance's settings (the second one, on PostgreSQL runs, starts with them too). */
const FIRST_SERVER_ENV = {
  DATABASE_URL: POSTGRES ? process.env.DATABASE_URL! : "",
  REDIS_URL: "",
  DATA_DIR: process.env.E2E_DATA_DIR,
  APP_URL: BASE_URL,
  PORT: String(PORT),
  BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345",
  AUTH_RATE_LIMIT: "false",
  PASSWORD_SCRYPT_N: process.env.PASSWORD_SCRYPT_N,
  // Every REST answer is checked against its declared response schema (500 on a mismatch).
  VALIDATE_RESPONSES: "true",
  // The embedded run keeps the quick start's default (live payments through the sandbox);
  // on PostgreSQL that needs saying, as a demo deployment would.
  PAYMENTS_PROVIDER: POSTGRES ? "sandbox" : "",
  // Receivers in the specs listen on 127.0.0.1; retries come after 1 s, not 5 s.
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  WEBHOOK_RETRY_SCHEDULE: "1,1,1",
  // Metered API usage is written every 250 ms, so the usage specs need not wait 5 s.
  METERING_FLUSH_MS: "250",
  // The sandbox pays a withdrawal out after 1 s, not 5 s.
  PAYOUT_DELAY_SECONDS: "1",
  // Writes are not shed here: specs fire 20 writes at once on a machine the suite keeps busy, and judge
  // their outcomes; shedding is proven by src/server/operations/admission.test.ts and measured by the bench.
  WRITE_QUEUE_MS: "30000",
  // Background jobs (mail, payouts, renewals) do not wait for a quiet moment: three spec workers keep the
  // server busy all the time, and specs wait for that mail. Giving way is proven in src/server/jobs/runner.test.ts.
  JOBS_GIVE_WAY_MS: "0",
  // The event streams beat (and re-check their key) every second, so a revoked key's stream ends quickly.
  EVENTS_STREAM_HEARTBEAT_MS: "1000",
  LOG_LEVEL: "warn",
  NEXT_TELEMETRY_DISABLED: "1",
  // One process per instance: on PostgreSQL the suite already runs two instances on two cores, and
  // `npm start`'s cluster (a worker per core) is proven by e2e/api/cluster.spec.ts.
  WEB_CONCURRENCY: "1",
};

export default defineConfig({
  testDir: "e2e",
  // The PostgreSQL run writes apart: Playwright empties its output folder first, and the
  // embedded run's screenshots (test-results/screens/) must survive it.
  outputDir: POSTGRES ? "test-results/postgres" : "test-results",
  fullyParallel: true,
  // Three workers on PostgreSQL. Measured back to back from a fresh clone on this 2-core machine (quiet, the
  // same 758 tests): 960 s at three, 1 068 s at two. The embedded database is one process's: two workers share it.
  workers: Number(process.env.E2E_WORKERS ?? (POSTGRES ? 3 : 2)),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    // A trace records a screencast and a DOM snapshot of every action, kept only when a test fails: `npm test`
    // turns it off (E2E_TRACE=off), as nothing there reads one (a failure prints its error and screenshot); a
    // spec run by hand keeps a failure's trace, and E2E_TRACE=retain-on-failure npm test brings them back.
    trace: (process.env.E2E_TRACE ?? "retain-on-failure") as "off" | "retain-on-failure" | "on",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's headless shell when installed, else its full Chromium (e2e/support/browsers.ts).
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // No traces for the HTTP specs: each request context would record one (hundreds of thousands of
    // files over a run, most of the test runner's CPU); a failure's message carries the answer already.
    { name: "api", testDir: "e2e/api", use: { trace: "off" } },
    // Reduced motion, as a user may ask: the app then animates nothing (globals.css), so the browser paints
    // no frames for spinners and fades while a spec waits.
    {
      name: "ui",
      testDir: "e2e/ui",
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" },
    },
  ],
  webServer: [
    {
      // It builds first, unless `npm test` has just built (E2E_BUILT=1). The
      // server keeps idle connections longer than any client here (as behind a
      // load balancer): with Node's 5 s default, a client reusing a connection
      // just as the server drops it gets ECONNRESET, likelier under the fuzz load.
      // The platform admin of the KYB specs is granted from the shell, as an operator would, before the
      // server takes the embedded database's lock.
      command: `${process.env.E2E_BUILT ? "" : "npm run build && "}npm run admin:grant -- --email ${PLATFORM_ADMIN.email} --password ${PLATFORM_ADMIN.password} && npm start -- -p ${PORT} -H 127.0.0.1 --keepAliveTimeout 65000`,
      url: `${BASE_URL}/api/health`,
      timeout: 600_000,
      // E2E_REUSE_SERVER=1 lets a developer point the specs at an app they already run on E2E_PORT.
      reuseExistingServer: !!process.env.E2E_REUSE_SERVER,
      stdout: "ignore",
      stderr: "pipe",
      env: FIRST_SERVER_ENV,
    },
    ...(POSTGRES ? [secondServer()] : []),
  ],
});

/** The second instance (PostgreSQL runs): the first one's settings, its own port, no job runner. */
function secondServer() {
  return {
    command: `npm start -- -p ${SECOND_PORT} -H 127.0.0.1 --keepAliveTimeout 65000`,
    url: `http://127.0.0.1:${SECOND_PORT}/api/health`,
    timeout: 600_000,
    reuseExistingServer: !!process.env.E2E_REUSE_SERVER,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: { ...FIRST_SERVER_ENV, PORT: String(SECOND_PORT), WORKER: "false" },
  };
}
