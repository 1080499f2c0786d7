// `npm start` on every core (scripts/start.mjs): on PostgreSQL it runs
// WEB_CONCURRENCY copies of the app under Node's cluster module, on one port.
// Proven from outside, on a database of this file's own: the primary has that
// many workers; exactly one of them runs the job runner (one LISTEN connection
// on the database); a worker killed with SIGKILL is replaced — the runner's
// role with it — and the app keeps answering; SIGTERM drains every worker and
// exits 0 with no process left. A setting that stops a worker before it is
// ready stops the whole start with exit 1 (never a restart loop), and more
// than one worker on the embedded database is refused at once.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { slowRequest } from "../support/raw-http";

const DIST = path.resolve(process.env.NEXT_DIST_DIR || ".next");
const PORT = Number(process.env.E2E_CLUSTER_PORT ?? 3340 + (process.pid % 7));
const BASE = `http://127.0.0.1:${PORT}`;
/** The job runner's LISTEN connection names itself so (src/server/jobs/notify.ts). */
const LISTENER = "coverdesk-jobs-listener";

test.describe.configure({ mode: "serial" });
test.skip(!fs.existsSync(path.join(DIST, "BUILD_ID")), "needs a production build (npm run build)");

type Server = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

const dataDirs: string[] = [];
const databases: string[] = [];
test.afterAll(async () => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  for (const name of databases.splice(0)) await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, empty database beside DATABASE_URL's (the app migrates it as it starts); its URL. */
async function ownDatabase() {
  const name = `coverdesk_cluster_${crypto.randomBytes(4).toString("hex")}`;
  await onServer(`CREATE DATABASE "${name}"`);
  databases.push(name);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** `npm start`, as a container or a service manager runs it, in a process group of its own. */
function npmStart(env: Record<string, string>): Server {
  let out = "";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-cluster-"));
  dataDirs.push(dataDir);
  const child = spawn("npm", ["start", "--", "-p", String(PORT), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      APP_URL: BASE,
      BETTER_AUTH_SECRET: "cluster-secret-cluster-secret-cluster-01",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function until<T>(check: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const health = () =>
  fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
    (r) => r.status,
    () => 0,
  );

/** The processes whose parent is `pid` (read from /proc: no ps needed). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // it ended while being read
    }
  }
  return out.sort((a, b) => a - b);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The primary's pid, from its "starting N workers" line (npm runs it under a shell that execs it). */
const primaryPid = (server: Server) => {
  const line = server
    .output()
    .split("\n")
    .find((l) => l.includes('"role":"primary"') && l.includes("workers"));
  return line ? (JSON.parse(line) as { pid: number }).pid : undefined;
};

const listeners = async (database: string) =>
  Number(
    (
      await onServer(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = '${database}' AND application_name = '${LISTENER}'`,
      )
    ).rows[0].n,
  );

test("PostgreSQL: WEB_CONCURRENCY workers on one port, one job runner among them; a killed worker is replaced with its role; SIGTERM drains all, exit 0", async () => {
  test.skip(!process.env.DATABASE_URL, "needs PostgreSQL (DATABASE_URL)");
  test.setTimeout(180_000);
  const database = await ownDatabase();
  const server = npmStart({ DATABASE_URL: database.url, WEB_CONCURRENCY: "2" });
  try {
    await until(async () => (await health()) === 200, 120_000, "health 200");
    const primary = primaryPid(server)!;
    expect(primary, server.output()).toBeGreaterThan(0);
    const workers = await until(
      async () => (childrenOf(primary).length === 2 ? childrenOf(primary) : false),
      10_000,
      "two workers",
    );
    // Only the first worker runs the job runner: one LISTEN connection, not one per worker.
    await until(async () => (await listeners(database.name)) === 1, 20_000, "the runner's listener");
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await listeners(database.name)).toBe(1);

    // The first worker (the runner's) is killed: another takes its place, and the runner's role with it.
    process.kill(workers[0]!, "SIGKILL");
    const replaced = await until(
      async () => {
        const now = childrenOf(primary);
        return now.length === 2 && !now.includes(workers[0]!) ? now : false;
      },
      30_000,
      "a replacement worker",
    );
    expect(replaced).toContain(workers[1]);
    // The primary wrote its line before the fork, but the pipe's data may reach this process after /proc shows the child.
    await expect.poll(() => server.output(), { timeout: 5_000 }).toContain("a worker stopped: starting another");
    await until(async () => (await listeners(database.name)) === 1 && (await health()) === 200, 60_000, "the replacement ready");
    // Every request on a new connection is answered, whichever worker takes it.
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${BASE}/api/health`, { headers: { connection: "close" } }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    // SIGTERM to the primary: a request in flight is answered, every worker ends, exit 0. Sent whole before
    // the signal (a fetch started just before kill() may not have connected yet on a busy machine).
    const inFlight = slowRequest(PORT, "GET", "/api/v1/business/api-keys", {}, "");
    await inFlight.sent;
    process.kill(primary, "SIGTERM");
    expect(await inFlight.answer).toMatchObject({ status: 401, complete: true });
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect([primary, ...replaced].filter(alive)).toEqual([]);
    expect(await health()).toBe(0);
    expect(await listeners(database.name)).toBe(0);
  } finally {
    if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
  }
});

test("PostgreSQL: a worker stopped by a bad setting before it is ready stops the start with exit 1, no restart loop", async () => {
  test.skip(!process.env.DATABASE_URL, "needs PostgreSQL (DATABASE_URL)");
  test.setTimeout(120_000);
  const database = await ownDatabase();
  const server = npmStart({ DATABASE_URL: database.url, WEB_CONCURRENCY: "2", BETTER_AUTH_SECRET: "too-short" });
  try {
    expect(await server.exited, server.output()).toBe(1);
    expect(server.output()).toContain("a worker stopped before it was ready: stopping");
    expect(server.output()).toMatch(/startup failed: .*BETTER_AUTH_SECRET/);
    expect(server.output()).not.toContain("starting another");
    expect(await health()).toBe(0);
  } finally {
    if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
  }
});

test("more than one worker on the embedded database, or a WEB_CONCURRENCY that is not a count, is refused at once", async () => {
  test.setTimeout(60_000);
  for (const [value, reason] of [
    ["2", /WEB_CONCURRENCY above 1 needs DATABASE_URL/],
    ["many", /WEB_CONCURRENCY must be a whole number from 1 to 64, not \\"many\\"/],
  ] as const) {
    const server = npmStart({ WEB_CONCURRENCY: value });
    try {
      expect(await server.exited, server.output()).toBe(1);
      expect(server.output()).toMatch(reason);
      expect(await health()).toBe(0);
    } finally {
      if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
    }
  }
});
