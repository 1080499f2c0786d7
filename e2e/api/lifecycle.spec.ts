// The process contract of SPEC §9, on a second copy of the built app with its
// own embedded database: the data directory is locked against a second
// process, and SIGTERM drains, closes the database, releases the lock, exits 0.
// A start that cannot succeed (bad setting, held lock, unreachable database)
// ends at once with one line naming the cause and never answers 500; a lock
// left by a killed process is taken over at once; `npm start` hands SIGTERM on.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const DIST = path.resolve(process.env.NEXT_DIST_DIR || ".next");
const PORT = 3290 + (process.pid % 7);
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = "lifecycle-secret-lifecycle-secret-0123";
const UNREACHABLE_DB = "postgres://postgres@127.0.0.1:1/coverdesk";

test.describe.configure({ mode: "serial" });
test.skip(!fs.existsSync(path.join(DIST, "BUILD_ID")), "needs a production build (npm run build)");

type Server = { child: ChildProcess; output: () => string; stderr: () => string; exited: Promise<number | null> };

function startServer(
  dataDir: string,
  { port = PORT, env = {}, npm = false }: { port?: number; env?: Record<string, string | undefined>; npm?: boolean } = {},
): Server {
  let out = "";
  let err = "";
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: "",
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    BETTER_AUTH_SECRET: SECRET,
    NEXT_MANUAL_SIG_HANDLE: "true",
    LOG_LEVEL: "info",
    ...env,
  };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  // npm start sets NEXT_MANUAL_SIG_HANDLE itself: prove the script does.
  const npmEnv: NodeJS.ProcessEnv = { ...childEnv };
  delete npmEnv.NEXT_MANUAL_SIG_HANDLE;
  const args = ["start", "-p", String(port), "-H", "127.0.0.1"];
  // `npm start` as a container runs it (CMD npm start): the start script must hand SIGTERM to the server.
  const child = npm
    ? spawn("npm", ["start", "--", ...args.slice(1)], { env: npmEnv, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(process.execPath, ["node_modules/next/dist/bin/next", ...args], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => ((out += d), (err += d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, stderr: () => err, exited };
}

/** Polls /api/health until it answers 200, recording every status seen on the way. */
async function healthy(port = PORT, seen: number[] = []): Promise<number[]> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status) seen.push(status);
    if (status === 200) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not become healthy");
}

/** Polls a starting server until it exits; returns the HTTP statuses it answered meanwhile. */
async function answersUntilExit(server: Server, port: number): Promise<number[]> {
  const seen: number[] = [];
  let done = false;
  void server.exited.then(() => (done = true));
  const deadline = Date.now() + 120_000;
  while (!done && Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status) seen.push(status);
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

/** One line saying why the start failed: no stack trace, no multi-line dump. */
function expectOneLineReason(server: Server, pattern: RegExp) {
  const lines = server
    .stderr()
    .split("\n")
    .filter((l) => l.trim() !== "");
  const failure = lines.filter((l) => l.startsWith("startup failed: "));
  expect(failure, server.output()).toHaveLength(1);
  expect(failure[0]).toMatch(pattern);
  expect(server.output()).not.toMatch(/^\s+at /m);
}

const portIsFree = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => false,
    () => true,
  );

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("a second process is refused the data directory; SIGTERM drains, releases the lock and exits 0", async () => {
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-life-"));
  const server = startServer(dataDir);
  try {
    await healthy();

    // A second process on the same directory is refused at once, naming it.
    const second = spawnSync("npx", ["tsx", "scripts/bootstrap.ts", "--org", "Acme Ltd", "--email", "owner@acme.test"], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(path.join(dataDir, "db"));
    expect(second.stderr).toMatch(/in use by another process/);

    // A request in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`${BASE}/api/v1/business/api-keys`);
    server.child.kill("SIGTERM");
    expect((await inFlight).status).toBe(401);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "db.owner"))).toBe(false);

    // The directory opens again: nothing was left locked or corrupt.
    const third = spawnSync("npx", ["tsx", "scripts/bootstrap.ts", "--org", "Acme Ltd", "--email", "owner@acme.test"], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(third.status, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout.trim())).toMatchObject({
      apiKey: expect.stringMatching(/^cd_live_/),
      testApiKey: expect.stringMatching(/^cd_test_/),
    });
  } finally {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
  }
});

test("a lock left by a killed server is taken over at once; health answers 503 until ready", async () => {
  test.setTimeout(300_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-life-"));
  const first = startServer(dataDir);
  let second: Server | undefined;
  try {
    await healthy();
    first.child.kill("SIGKILL");
    await first.exited;
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(true); // left behind, with its mtime still fresh

    second = startServer(dataDir);
    const seen = await healthy();
    expect(seen.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(seen).toContain(503); // while the database opens
    expect(second.output()).not.toContain("startup failed");
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, "db.owner"), "utf8")).pid).toBe(second.child.pid);
  } finally {
    if (first.child.exitCode === null) first.child.kill("SIGKILL");
    if (second && second.child.exitCode === null) second.child.kill("SIGKILL");
  }
});

test("a second server on a data directory in use exits non-zero at once, saying why, and never answers 500", async () => {
  test.setTimeout(300_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-life-"));
  const first = startServer(dataDir);
  const port2 = PORT + 100;
  try {
    await healthy();
    const second = startServer(dataDir, { port: port2 });
    const seen = await answersUntilExit(second, port2);
    expect(await second.exited).toBe(1);
    expect(seen.filter((s) => s !== 503)).toEqual([]);
    expectOneLineReason(second, new RegExp(`in use by another process \\(pid ${first.child.pid}\\b`));
    expect(second.stderr()).toContain(path.join(dataDir, "db"));
    expect(await portIsFree(port2)).toBe(true);
    // The first one kept its lock and still serves.
    expect((await fetch(`${BASE}/api/health`)).status).toBe(200);
  } finally {
    if (first.child.exitCode === null) first.child.kill("SIGKILL");
  }
});

for (const [variable, env] of [
  ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
  ["BETTER_AUTH_SECRET", { BETTER_AUTH_SECRET: "too-short" }],
  ["DATABASE_URL", { DATABASE_URL: UNREACHABLE_DB }],
  // `next start` runs in production: there a shared database needs a given secret.
  ["BETTER_AUTH_SECRET", { DATABASE_URL: UNREACHABLE_DB, BETTER_AUTH_SECRET: undefined }],
] as const) {
  test(`a bad setting (${Object.entries(env)
    .map(([k, v]) => `${k}=${v ?? "unset"}`)
    .join(" ")}) stops the start, naming ${variable}`, async () => {
    test.setTimeout(180_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-life-"));
    const server = startServer(dataDir, { env });
    try {
      const seen = await answersUntilExit(server, PORT);
      expect(await server.exited).not.toBe(0);
      expect(server.child.exitCode).not.toBeNull();
      // Checked before the app answers anything; only the database is reached after, and health says 503 meanwhile.
      expect(seen.filter((s) => s !== 503)).toEqual([]);
      expectOneLineReason(server, new RegExp(`^startup failed: .*\\b${variable}\\b`));
      expect(server.output()).not.toContain("postgres://"); // the URL may hold a password
      expect(await portIsFree(PORT)).toBe(true);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  });
}

test("SIGTERM to `npm start` stops the server: exit 0, port freed, lock released, no process left", async () => {
  test.setTimeout(300_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-life-"));
  const npm = startServer(dataDir, { npm: true });
  let serverPid: number | undefined;
  try {
    await healthy();
    serverPid = JSON.parse(fs.readFileSync(path.join(dataDir, "db.owner"), "utf8")).pid as number;
    npm.child.kill("SIGTERM");
    expect(await npm.exited).toBe(0);
    await expect.poll(() => alive(serverPid!), { timeout: 15_000 }).toBe(false);
    expect(npm.output()).toContain('"msg":"stopped"');
    expect(await portIsFree(PORT)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
  } finally {
    if (npm.child.exitCode === null) npm.child.kill("SIGKILL");
    if (serverPid && alive(serverPid)) process.kill(serverPid, "SIGKILL");
  }
});
