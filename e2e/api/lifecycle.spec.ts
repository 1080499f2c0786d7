// The process contract of SPEC §9, on a second copy of the built app with its
// own embedded database: the data directory is locked against a second
// process, and SIGTERM drains, closes the database, releases the lock, exits 0.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const DIST = path.resolve(process.env.NEXT_DIST_DIR || ".next");
const PORT = 3290 + (process.pid % 7);
const BASE = `http://127.0.0.1:${PORT}`;

test.describe.configure({ mode: "serial" });
test.skip(!fs.existsSync(path.join(DIST, "BUILD_ID")), "needs a production build (npm run build)");

function startServer(dataDir: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = "";
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      APP_URL: BASE,
      BETTER_AUTH_SECRET: "lifecycle-secret-lifecycle-secret-0123",
      NEXT_MANUAL_SIG_HANDLE: "true",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function healthy(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${BASE}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not become healthy");
}

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

    // The directory opens again: nothing was left locked or corrupt.
    const third = spawnSync("npx", ["tsx", "scripts/bootstrap.ts", "--org", "Acme Ltd", "--email", "owner@acme.test"], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(third.status, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout.trim())).toMatchObject({ apiKey: expect.stringMatching(/^cd_live_/) });
  } finally {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
  }
});
