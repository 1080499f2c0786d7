// The process contract of SPEC §9, on a second copy of the built app with its
// own embedded database: the data directory is locked against a second
// process, and SIGTERM drains, closes the database, releases the lock, exits 0.
// A start that cannot succeed (bad setting, held lock, unreachable database)
// ends at once with one line naming the cause and never answers 500; a lock
// left by a killed process is taken over at once; `npm start` hands SIGTERM on.
// A second SIGTERM (the process group's, as systemd and Ctrl-C send it, while
// npm passes its own on) does not cut the drain short, and every route counts
// as in flight. A client that gives up mid-upload is an info line, and every
// line the server writes is one JSON object.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { expect, test } from "@playwright/test";
import { slowRequest } from "../support/raw-http";
import { withMigratedDatabase } from "../support/migrated-data-dir";

const DIST = path.resolve(process.env.NEXT_DIST_DIR || ".next");
const PORT = Number(process.env.LIFECYCLE_PORT) || 3290 + (process.pid % 7);
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = "lifecycle-secret-lifecycle-secret-0123";
const UNREACHABLE_DB = "postgres://postgres@127.0.0.1:1/coverdesk";
/** tsx's own entry point, run under this Node (`npx tsx` spends a second or two of CPU in npm first). */
const TSX = "node_modules/tsx/dist/cli.mjs";

test.describe.configure({ mode: "serial" });

/** The data directories this file's servers used: removed once its tests are done (every server stopped by then). */
const dataDirs: string[] = [];
const tempDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-life-"));
  dataDirs.push(dir);
  return dir;
};
test.afterAll(() => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});
test.skip(!fs.existsSync(path.join(DIST, "BUILD_ID")), "needs a production build (npm run build)");

type Server = {
  child: ChildProcess;
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
};

function startServer(
  dataDir: string,
  {
    port = PORT,
    env = {},
    npm = false,
    group = false,
  }: { port?: number; env?: Record<string, string | undefined>; npm?: boolean; group?: boolean } = {},
): Server {
  let out = "";
  let std = "";
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
  // `group`: a process group of its own, as a service manager or a terminal runs it (signalled with kill(-pid)).
  const child = npm
    ? spawn("npm", ["start", "--", ...args.slice(1)], { env: npmEnv, stdio: ["ignore", "pipe", "pipe"], detached: group })
    : spawn(process.execPath, ["node_modules/next/dist/bin/next", ...args], {
        env: childEnv,
        stdio: ["ignore", "pipe", "pipe"],
        detached: group,
      });
  child.stdout!.on("data", (d) => ((out += d), (std += d)));
  child.stderr!.on("data", (d) => ((out += d), (err += d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, stdout: () => std, stderr: () => err, exited };
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
  const dataDir = withMigratedDatabase(tempDataDir());
  const server = startServer(dataDir);
  try {
    await healthy();

    // A second process on the same directory is refused at once, naming it.
    const second = spawnSync(process.execPath, [TSX, "scripts/bootstrap.ts", "--org", "Acme Ltd", "--email", "owner@acme.test"], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(path.join(dataDir, "db"));
    expect(second.stderr).toMatch(/in use by another process/);

    // A request in flight when SIGTERM arrives still gets its answer. Sent whole before the signal (a fetch
    // started just before kill() may not even have connected yet on a busy machine: one CI run's did not).
    const inFlight = slowRequest(PORT, "GET", "/api/v1/business/api-keys", {}, "");
    await inFlight.sent;
    server.child.kill("SIGTERM");
    expect(await inFlight.answer).toMatchObject({ status: 401, complete: true });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, "db.owner"))).toBe(false);

    // The directory opens again: nothing was left locked or corrupt.
    const third = spawnSync(process.execPath, [TSX, "scripts/bootstrap.ts", "--org", "Acme Ltd", "--email", "owner@acme.test"], {
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
  const dataDir = withMigratedDatabase(tempDataDir());
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
  const dataDir = withMigratedDatabase(tempDataDir());
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
    const dataDir = tempDataDir();
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
  const dataDir = withMigratedDatabase(tempDataDir());
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

const bootstrap = (dataDir: string) => {
  const run = spawnSync(process.execPath, [TSX, "scripts/bootstrap.ts", "--org", "Acme Ltd", "--email", "owner@acme.test"], {
    env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim()) as { organizationId: string; apiKey: string };
};

test("a second SIGTERM (the process group's, then the server's own) cuts no request in flight, on any route", async () => {
  test.setTimeout(300_000);
  const dataDir = withMigratedDatabase(tempDataDir());
  const { organizationId, apiKey } = bootstrap(dataDir);
  // `npm start` in a process group of its own, as systemd or a terminal runs it: a signal to the group reaches
  // npm and the server, and npm passes its own on, so the server gets SIGTERM twice.
  // A drain under the whole suite's load may take seconds: a generous timeout, so only a request cut early fails here.
  const npm = startServer(dataDir, { npm: true, group: true, env: { AUTH_RATE_LIMIT: "false", SHUTDOWN_TIMEOUT_MS: "60000" } });
  let serverPid: number | undefined;
  try {
    await healthy();
    serverPid = JSON.parse(fs.readFileSync(path.join(dataDir, "db.owner"), "utf8")).pid as number;
    const auth = { Authorization: `Bearer ${apiKey}` };
    const policy = (i: number) => JSON.stringify({ name: `Fleet cover ${i}`, type: "auto", duration: "yearly", price: "150.00" });
    // REST (a write), better-auth, the hosted checkout and the portal: routes with and without a wrapper of their own.
    const requests = [
      ...Array.from({ length: 8 }, (_, i) => slowRequest(PORT, "POST", "/api/v1/business/policies", auth, policy(i))),
      ...Array.from({ length: 4 }, () =>
        slowRequest(
          PORT,
          "POST",
          "/api/auth/sign-in/email",
          { Origin: BASE },
          JSON.stringify({ email: "nobody@acme.test", password: "wrong-password" }),
        ),
      ),
      ...Array.from({ length: 2 }, () =>
        slowRequest(
          PORT,
          "POST",
          "/api/checkout/pay_unknown",
          {},
          JSON.stringify({ cardNumber: "4242424242424242", expiry: "12/40", cvc: "123" }),
        ),
      ),
      ...Array.from({ length: 2 }, () =>
        slowRequest(
          PORT,
          "POST",
          `/api/portal/${organizationId}/code`,
          { Origin: BASE },
          JSON.stringify({ email: "someone@acme.test" }),
        ),
      ),
    ];
    await Promise.all(requests.map((r) => r.sent));
    await new Promise((r) => setTimeout(r, 500)); // every head read: each request is in a handler, waiting for its body

    process.kill(-npm.child.pid!, "SIGTERM"); // the group: npm and the server, and npm passes it on
    await new Promise((r) => setTimeout(r, 200));
    process.kill(serverPid, "SIGTERM"); // and once more, straight to the server
    process.kill(serverPid, "SIGINT");
    await new Promise((r) => setTimeout(r, 1_500)); // well past the moment a cut would have happened
    for (const r of requests) r.finish();

    const answers = await Promise.all(requests.map((r) => r.answer));
    const summary = answers.map((a) => `${a.status}${a.complete ? "" : " (cut)"}`);
    expect(
      answers.filter((a) => !a.complete || a.status === 0),
      summary.join(", "),
    ).toEqual([]);
    expect(answers.slice(0, 8).map((a) => a.status)).toEqual(Array(8).fill(201));
    // A 500 names its body and what the server wrote that is not an info line: its warnings (a drain timeout) and
    // errors, anything not JSON (Next's own error output), and the drain's counts when it ended. CI runs saw a portal code request answer 500 here
    // ("PGlite is closed": the drain once counted a request done at its answer's end, not its handler's).
    const errors = () =>
      npm
        .output()
        .split("\n")
        .filter((l) => l.trim() !== "" && (/"level":(40|50|60)|requests drained/.test(l) || !l.startsWith("{")))
        .join("\n");
    // Read once the server has exited (or 20 s on): in production its log is written asynchronously, so a
    // line logged just before an answer can reach this process after the answer.
    const exit = await Promise.race([
      npm.exited,
      new Promise<string>((r) => setTimeout(() => r("still running after 20 s"), 20_000)),
    ]);
    const failed = answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.body}`);
    expect(failed, `${summary.join(", ")}\n${errors()}`).toEqual([]);

    expect(exit).toBe(0);
    expect(npm.output()).not.toContain("drain timeout");
    await expect.poll(() => alive(serverPid!), { timeout: 15_000 }).toBe(false);
    expect(npm.output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
  } finally {
    if (npm.child.exitCode === null) {
      try {
        process.kill(-npm.child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }
    if (serverPid && alive(serverPid)) process.kill(serverPid, "SIGKILL");
  }
});

/** Sends a request's head and part of its body, then drops the connection, as a client giving up mid-upload. */
function abortMidBody(target: string, headers: Record<string, string>, declared: number, part: Buffer | string) {
  return new Promise<void>((resolve, reject) => {
    const socket = net.connect(PORT, "127.0.0.1", () => {
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      socket.write(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\n${extra}Content-Length: ${declared}\r\n\r\n`);
      socket.write(part);
      // Long enough for the handler to be reading the body when the client goes.
      setTimeout(() => (socket.destroy(), resolve()), 500);
    });
    socket.on("error", reject);
  });
}

test("a client leaving mid-upload is an info line; every line the server writes is JSON; no deprecation warning", async () => {
  test.setTimeout(300_000);
  const dataDir = withMigratedDatabase(tempDataDir());
  const { apiKey } = bootstrap(dataDir);
  const server = startServer(dataDir); // LOG_LEVEL=info
  try {
    await healthy();
    const auth = { Authorization: `Bearer ${apiKey}` };
    await abortMidBody(
      "/api/v1/business/policies",
      { ...auth, "Content-Type": "application/json" },
      64 * 1024,
      `{"name":"${"x".repeat(2000)}`,
    );
    const boundary = "----coverdesk-abort";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nPolicy wording\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`;
    await abortMidBody(
      "/api/v1/business/documents/certificates",
      { ...auth, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      512 * 1024,
      Buffer.concat([Buffer.from(head), Buffer.alloc(64 * 1024, 0x41)]),
    );

    // better-auth with a NUL in the reset token: a 4xx problem, not an empty 500 and a multi-line dump.
    const reset = await fetch(`${BASE}/api/auth/reset-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: BASE },
      body: JSON.stringify({ token: "a\u0000b", newPassword: "correct-horse-battery" }),
    });
    expect(reset.status).toBe(422);
    expect(reset.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await reset.json()).toMatchObject({ status: 422, code: "validation_failed", errors: [{ path: "token" }] });

    // better-auth's own log line (an unknown email signing in): JSON through pino, not colored text on stderr.
    const signIn = await fetch(`${BASE}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: BASE },
      body: JSON.stringify({ email: "nobody@acme.test", password: "wrong-password" }),
    });
    expect(signIn.status).toBe(401);

    // The spreadsheet export zips with archiver, where the Buffer() deprecation (DEP0005) came from.
    const xlsx = await fetch(`${BASE}/api/v1/business/analytics/export?type=payments&format=xlsx`, { headers: auth });
    expect(xlsx.status).toBe(200);
    expect((await xlsx.arrayBuffer()).byteLength).toBeGreaterThan(0);

    await new Promise((r) => setTimeout(r, 500));
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    // Next's own start-up banner aside ("▲ Next.js …", "- Local: …", "✓ Ready …"), every stdout line is one JSON object.
    const lines = server
      .stdout()
      .split("\n")
      .filter((l) => l.trim() !== "" && !/^(▲|-|✓) /.test(stripVTControlCharacters(l).trim()));
    const notJson = lines.filter((l) => {
      try {
        return typeof JSON.parse(l) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson, server.output()).toEqual([]);
    const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string; status?: number; route?: string });
    expect(
      entries.filter((e) => e.level >= 50),
      server.output(),
    ).toEqual([]);
    // Each abandoned upload, JSON or multipart: its one request line, at info, 499.
    const aborted = entries.filter((e) => e.msg === "request" && e.route !== "/business/analytics/export");
    expect(aborted.map((e) => [e.level, e.route, e.status]).sort()).toEqual([
      [30, "/business/documents/certificates", 499],
      [30, "/business/policies", 499],
    ]);
    expect(entries.filter((e) => (e as { component?: string }).component === "better-auth").map((e) => [e.level, e.msg])).toEqual(
      [[40, "User not found"]],
    );
    expect(server.output()).not.toContain("DEP0005");
    expect(server.stderr()).toBe("");
  } finally {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
  }
});
