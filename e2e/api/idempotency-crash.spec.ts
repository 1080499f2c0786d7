// Idempotency survives `kill -9` (issue 23): a POST /claims with an
// Idempotency-Key whose process dies right after its transaction committed and
// before it answered must, once retried on the restarted app, replay that
// claim — not run again (the old code left the key `in_progress`, and after
// its 60 s lease the retry created a second claim). Each test starts its own
// copy of the built app (NEXT_DIST_DIR), with the tests-only hook
// CRASH_AFTER_COMMIT_FOR_TESTS=<key> (see src/server/operations/pipeline.ts), on the
// embedded database and — when DATABASE_URL is set — on PostgreSQL.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const DIST = path.resolve(process.env.NEXT_DIST_DIR || ".next");
/** A port of its own (E2E_CRASH_PORT to choose it), away from the main server and the lifecycle spec's. */
const PORT = Number(process.env.E2E_CRASH_PORT ?? 3320 + (process.pid % 7));
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = "crash-secret-crash-secret-crash-secret-01";

test.describe.configure({ mode: "serial" });
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

const databases = [
  { name: "embedded", url: "" },
  ...(process.env.DATABASE_URL ? [{ name: "PostgreSQL", url: process.env.DATABASE_URL }] : []),
];

for (const database of databases) {
  test(`${database.name}: killed between the commit and the answer, the retry replays the one claim`, async () => {
    test.setTimeout(240_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "coverdesk-crash-"));
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    const run = crypto.randomBytes(4).toString("hex");

    // An organization and its API key, made as an operator would (before the embedded lock is taken).
    const boot = spawnSync(
      "npx",
      ["tsx", "scripts/bootstrap.ts", "--org", `Crash ${run}`, "--email", `crash-${run}@example.test`],
      { env: { ...process.env, ...env, LOG_LEVEL: "silent" }, encoding: "utf8", timeout: 120_000 },
    );
    expect(boot.status, boot.stderr).toBe(0);
    const { apiKey } = JSON.parse(boot.stdout.trim().split("\n").pop()!) as { apiKey: string };

    const idempotencyKey = `crash-after-commit-${run}`;
    const first = startServer({ ...env, CRASH_AFTER_COMMIT_FOR_TESTS: idempotencyKey });
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

      // Restarted (without the hook), the retry answers the claim that committed, and runs nothing.
      second = startServer(env);
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
    } finally {
      for (const s of [first, second]) if (s && s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
      await Promise.all([first.exited, second?.exited]);
    }
  });
}
