// Idempotency survives `kill -9` (issue 23): a POST /claims with an
// Idempotency-Key whose process dies right after its transaction committed and
// before it answered must, once retried on the restarted app, replay that
// claim — not run again (the old code left the key `in_progress`, and after
// its 60 s lease the retry created a second claim). The same for money going
// back (issue 25): a refund, and a cancellation that refunds, each killed
// after its commit, replay once retried — one refund each, one ledger debit.
// And the renewal job (issue 27): killed after the provider charged a
// renewal and before the settlement committed
// (CRASH_AFTER_RENEWAL_CHARGE_FOR_TESTS, src/server/renewals/job.ts), the
// restarted app charges the same reference again once the lease ran out and
// settles it once — one renewal payment, one credit.
// With DATABASE_URL set, the embedded variant stops after the claim (see the
// test). Each test starts its own copy of the built app (NEXT_DIST_DIR), with the
// tests-only hook CRASH_AFTER_COMMIT_FOR_TESTS=<key,key…> (see
// src/server/operations/pipeline.ts), on the embedded database and — when
// DATABASE_URL is set — on PostgreSQL, in a database of the test's own: its
// servers run the job runner and are killed on purpose, so on the database the
// other specs share they would claim those specs' mail and renewals (and
// strand them under a lease when killed, or crash on another test's renewal).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { withMigratedDatabase } from "../support/migrated-data-dir";
import pg from "pg";

const DIST = path.resolve(process.env.NEXT_DIST_DIR || ".next");
/** A port of its own (E2E_CRASH_PORT to choose it), away from the main server and the lifecycle spec's. */
const PORT = Number(process.env.E2E_CRASH_PORT ?? 3320 + (process.pid % 7));
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = "crash-secret-crash-secret-crash-secret-01";

test.describe.configure({ mode: "serial" });

/** The data directories this file's servers used: removed once its tests are done (every server stopped by then). */
const dataDirs: string[] = [];
const tempDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-crash-"));
  dataDirs.push(dir);
  return dir;
};
test.afterAll(() => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});
test.skip(!fs.existsSync(path.join(DIST, "BUILD_ID")), "needs a production build (npm run build)");

type Server = { child: ChildProcess; output: () => string; exited: Promise<NodeJS.Signals | number | null> };

function startServer(env: Record<string, string>): Server {
  let out = "";
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      APP_URL: BASE,
      BETTER_AUTH_SECRET: SECRET,
      NEXT_MANUAL_SIG_HANDLE: "true",
      VALIDATE_RESPONSES: "true",
      WORKER: "false",
      LOG_LEVEL: "warn",
      // Live payments through the sandbox's cards (the money-back half sells through the checkout).
      PAYMENTS_PROVIDER: "sandbox",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  return { child, output: () => out, exited };
}

async function healthy() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const status = await fetch(`${BASE}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not become healthy");
}

const api = (key: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${BASE}/api/v1/${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** `npm run bootstrap`: an organization, its owner and its live and test API keys, made before the app starts. */
function bootstrap(env: Record<string, string>, org: string, email: string) {
  // tsx's own entry point under this Node (not `npx tsx`: npm's start-up is a second or two of CPU).
  const boot = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/bootstrap.ts", "--org", org, "--email", email],
    {
      env: { ...process.env, ...env, LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  expect(boot.status, boot.stderr).toBe(0);
  return JSON.parse(boot.stdout.trim().split("\n").pop()!) as { apiKey: string; testApiKey: string };
}

/** Runs one statement on the PostgreSQL server at `url` (CREATE and DROP DATABASE cannot run in a transaction). */
async function onServer(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The databases this file made, each with the URL to reach its server: dropped once its tests are done. */
const ownDatabases: { name: string; server: string }[] = [];
test.afterAll(async () => {
  for (const { name, server } of ownDatabases.splice(0)) await onServer(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

/** A new, empty database beside the one at `url` (the first server migrates it); its URL. */
async function ownDatabase(url: string, name: string) {
  await onServer(url, `CREATE DATABASE "${name}"`);
  ownDatabases.push({ name, server: url });
  const own = new URL(url);
  own.pathname = `/${name}`;
  return own.toString();
}

const databases = [
  { name: "embedded", url: "" },
  ...(process.env.DATABASE_URL ? [{ name: "PostgreSQL", url: process.env.DATABASE_URL }] : []),
];

for (const database of databases) {
  /** Everything, or the claim alone (the embedded database beside PostgreSQL: see below). */
  const full = !!database.url || !process.env.DATABASE_URL;
  const proves = full
    ? "the one claim, refund and cancellation; a renewal killed after its charge is settled once"
    : "the one claim (a commit outlives kill -9)";
  test(`${database.name}: killed between the commit and the answer, the retry replays ${proves}`, async () => {
    test.setTimeout(240_000);
    // Embedded: a migrated database to start from (on PostgreSQL the directory holds the stored files only).
    const dataDir = database.url ? tempDataDir() : withMigratedDatabase(tempDataDir());
    const run = crypto.randomBytes(4).toString("hex");
    const env = {
      DATABASE_URL: database.url ? await ownDatabase(database.url, `coverdesk_crash_${run}`) : "",
      DATA_DIR: dataDir,
    };

    // An organization and its API key, made as an operator would (before the embedded lock is taken).
    const { apiKey, testApiKey } = bootstrap(env, `Crash ${run}`, `crash-${run}@example.test`);

    const idempotencyKey = `crash-after-commit-${run}`;
    const refundKey = `crash-after-commit-${run}-refund`;
    const cancelKey = `crash-after-commit-${run}-cancel`;
    // Every server of this test dies after the commit of a first request with one of these keys (a replay commits nothing).
    const crashEnv = { ...env, CRASH_AFTER_COMMIT_FOR_TESTS: [idempotencyKey, refundKey, cancelKey].join(",") };
    const first = startServer(crashEnv);
    const servers: Server[] = [first];
    /** Sends a request that kills the server after its commit; then starts the next server (`next` its settings). */
    const crashOn = async (
      method: string,
      route: string,
      body: unknown,
      key: string,
      next: Record<string, string> = crashEnv,
    ) => {
      const cut = await api(apiKey, method, route, body, { "idempotency-key": key }).then(
        (r) => `answered ${r.status}`,
        (err: Error) => `cut: ${err.message}`,
      );
      expect(cut, `${route} with ${key}`).toMatch(/^cut/);
      expect(await servers.at(-1)!.exited).toBe("SIGKILL");
      servers.push(startServer(next));
      await healthy();
    };
    /** The retry after the restart: answered from the stored answer, as it was committed. */
    const replay = async (method: string, route: string, body: unknown, key: string, status: number) => {
      const res = await api(apiKey, method, route, body, { "idempotency-key": key });
      const text = await res.text();
      expect(res.status, text).toBe(status);
      expect(res.headers.get("idempotent-replayed")).toBe("true");
      return JSON.parse(text) as Record<string, unknown>;
    };
    let second: Server | undefined;
    try {
      await healthy();
      const policyRes = await api(apiKey, "POST", "business/policies", {
        name: `Crash cover ${run}`,
        type: "property",
        duration: "yearly",
        price: "150.00",
      });
      expect(policyRes.status, await policyRes.clone().text()).toBe(201);
      const policy = (await policyRes.json()) as { id: string };
      const claim = { policyId: policy.id, type: "fire", description: `Crash ${run}`, amount: 2500 };

      // The claim commits, then the process dies before answering: the connection is cut.
      const cut = await api(apiKey, "POST", "claims", claim, { "idempotency-key": idempotencyKey }).then(
        (r) => `answered ${r.status}`,
        (err: Error) => `cut: ${err.message}`,
      );
      expect(cut).toMatch(/^cut/);
      expect(await first.exited).toBe("SIGKILL");

      // Restarted, the retry answers the claim that committed, and runs nothing.
      second = startServer(crashEnv);
      servers.push(second);
      await healthy();
      const retry = await api(apiKey, "POST", "claims", claim, { "idempotency-key": idempotencyKey });
      const retryText = await retry.text();
      expect(retry.status, retryText).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      const replayed = JSON.parse(retryText) as { id: string; description: string };
      expect(replayed.description).toBe(`Crash ${run}`);

      const list = (await (await api(apiKey, "GET", "claims?limit=100")).json()) as { data: { id: string }[] };
      expect(list.data.map((c) => c.id)).toEqual([replayed.id]);

      // And so does every later retry.
      const again = await api(apiKey, "POST", "claims", claim, { "idempotency-key": idempotencyKey });
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(((await again.json()) as { id: string }).id).toBe(replayed.id);

      // Beside PostgreSQL, the embedded database proves the one thing of its own — a commit outlives kill -9 —
      // with the claim above; the money-back and renewal halves run on PostgreSQL (their logic is the same
      // code on both, and each embedded restart costs seconds). Without DATABASE_URL they run here.
      if (!full) return;

      // Money back. Two sales through the checkout (the second keeps the balance above what goes back)…
      const sell = async (email: string) => {
        const res = await api(apiKey, "POST", "payments/initialize", { amount: 150, policyId: policy.id, email });
        expect(res.status, await res.clone().text()).toBe(201);
        const { reference } = (await res.json()) as { reference: string };
        const paid = await fetch(`${BASE}/api/checkout/${reference}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            cardNumber: "4242424242424242",
            expMonth: 12,
            expYear: new Date().getUTCFullYear() + 1,
            cvc: "123",
          }),
        });
        expect(paid.status, await paid.clone().text()).toBe(200);
        return reference;
      };
      const reference = await sell(`holder-${run}@example.test`);
      await sell(`other-${run}@example.test`);
      // …then a refund of 10.00 killed after its commit…
      const refundBody = { amount: 10, reason: "Crash test" };
      await crashOn("POST", `payments/${reference}/refund`, refundBody, refundKey);
      const refund = await replay("POST", `payments/${reference}/refund`, refundBody, refundKey, 201);
      expect(refund).toMatchObject({ amount: "10.00", paymentReference: reference });

      // …and a cancellation (refunding what is left, by the rule) killed after its commit. The server it
      // restarts is already the renewal half's (its job runner on, dying after a renewal's charge): one
      // start fewer, and the replay and the checks below run beside a job runner as a deployment's would.
      const verified = (await (await api(apiKey, "GET", `payments/verify/${reference}`)).json()) as { coverage: { id: string } };
      const cancelBody = { reason: "Crash test" };
      await crashOn("POST", `business/coverages/${verified.coverage.id}/cancel`, cancelBody, cancelKey, {
        ...crashEnv,
        ...renewalJobs(env),
        CRASH_AFTER_RENEWAL_CHARGE_FOR_TESTS: "1",
      });
      const cancelled = await replay("POST", `business/coverages/${verified.coverage.id}/cancel`, cancelBody, cancelKey, 200);
      expect(cancelled).toMatchObject({ status: "cancelled", refund: { amount: "140.00" } });

      // Each ran once: two refunds, the payment refunded in full, two refund debits in the ledger.
      const refunds = (await (await api(apiKey, "GET", "business/refunds?limit=100")).json()) as { data: { amount: string }[] };
      expect(refunds.data.map((r) => r.amount).sort()).toEqual(["10.00", "140.00"]);
      const payment = (await (await api(apiKey, "GET", `payments/verify/${reference}`)).json()) as { amountRefunded: string };
      expect(payment.amountRefunded).toBe("150.00");
      const ledger = (await (await api(apiKey, "GET", "business/earnings/transactions?type=refund&limit=100")).json()) as {
        data: { amount: string }[];
      };
      expect(ledger.data.map((e) => e.amount).sort()).toEqual(["-10.00", "-140.00"]);

      // The renewal job, on the server that runs now (its job runner on), which dies after a renewal's charge.
      await renewalCrash(testApiKey, env, servers, run);
    } finally {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
      await Promise.all(servers.map((s) => s.exited));
    }
  });
}

/** A server with its job runner on, and a renewal lease of 2 s. */
const renewalJobs = (env: Record<string, string>) => ({ ...env, WORKER: "true", RENEWAL_LEASE_SECONDS: "2" });

/**
 * The renewal job killed after the provider charged a renewal and before the
 * settlement committed (CRASH_AFTER_RENEWAL_CHARGE_FOR_TESTS), with a test key
 * (the test clock): the restarted app charges the same reference again once
 * the lease (2 s here) ran out, and settles it once. The server running when it
 * is called has its job runner on and that crash hook set.
 */
async function renewalCrash(testApiKey: string, env: Record<string, string>, servers: Server[], run: string) {
  const jobs = renewalJobs(env);
  const policyRes = await api(testApiKey, "POST", "business/policies", {
    name: `Monthly cover ${run}`,
    type: "property",
    duration: "monthly",
    price: "150.00",
  });
  expect(policyRes.status, await policyRes.clone().text()).toBe(201);
  const policy = (await policyRes.json()) as { id: string };
  const email = `holder-${run}@example.test`;
  const init = await api(testApiKey, "POST", "payments/initialize", { amount: 150, policyId: policy.id, email, autoRenew: true });
  expect(init.status, await init.clone().text()).toBe(201);
  const { reference } = (await init.json()) as { reference: string };
  const paid = await fetch(`${BASE}/api/checkout/${reference}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cardNumber: "4242424242424242", expMonth: 12, expYear: new Date().getUTCFullYear() + 1, cvc: "123" }),
  });
  expect(paid.status, await paid.clone().text()).toBe(200);
  const verified = (await (await api(testApiKey, "GET", `payments/verify/${reference}`)).json()) as {
    coverage: { id: string; autoRenew: boolean };
  };
  expect(verified.coverage.autoRenew).toBe(true);

  // The period ends now: the worker charges the card, and the process dies before settling.
  const ended = await api(testApiKey, "POST", `business/coverages/${verified.coverage.id}/simulate-end`);
  expect(ended.status, await ended.clone().text()).toBe(200);
  expect(await servers.at(-1)!.exited).toBe("SIGKILL");

  // Restarted (no crash this time): the charge is taken up again with its own reference, and settled once.
  servers.push(startServer(jobs));
  await healthy();
  const coverageOf = async () =>
    (
      (await (await api(testApiKey, "GET", `business/coverages?policyId=${policy.id}`)).json()) as {
        data: { renewalCount: number; status: string }[];
      }
    ).data[0]!;
  await expect.poll(async () => (await coverageOf()).renewalCount, { timeout: 30_000 }).toBe(1);
  // Nothing more comes of it: one renewal payment, succeeded, attempt 1; one renewal credited in the ledger.
  await new Promise((r) => setTimeout(r, 3_000));
  expect(await coverageOf()).toMatchObject({ renewalCount: 1, status: "active" });
  const payments = (await (await api(testApiKey, "GET", `payments?policyId=${policy.id}&limit=100`)).json()) as {
    data: { reference: string; status: string; renewal: { attempt: number } | null }[];
  };
  expect(payments.data.filter((p) => p.renewal).map((p) => [p.status, p.renewal!.attempt])).toEqual([["success", 1]]);
  const ledger = (await (await api(testApiKey, "GET", "business/earnings/transactions?type=payment&limit=100")).json()) as {
    data: { amount: string }[];
  };
  expect(ledger.data.map((e) => e.amount)).toEqual(["150.00", "150.00"]);
}
