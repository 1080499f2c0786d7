// A second copy of the built app beside the one Playwright started, on the same
// database (PostgreSQL runs only: the embedded database belongs to one
// process): for specs of what several instances must share (rate limits,
// metering, the portal's limits). Started as `npm start` does (Next leaves
// SIGTERM to the app, which then writes its last counts), with the first's
// environment; stopped with SIGTERM, SIGKILL after 15 s.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import config from "../../playwright.config";

export async function healthy(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** `portVariable` names the setting that moves it, for the message when the port is taken. */
export function secondInstance(port: number, portVariable: string, env: Record<string, string> = {}) {
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let stderr = "";
  return {
    base,
    async start(): Promise<void> {
      if (await healthy(base)) throw new Error(`port ${port} already answers: set ${portVariable} to a free port`);
      const webServer = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer;
      child = spawn(
        process.execPath,
        [path.join(process.cwd(), "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
        {
          env: { ...process.env, ...webServer?.env, PORT: String(port), NEXT_MANUAL_SIG_HANDLE: "true", ...env },
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
      const until = Date.now() + 150_000;
      while (!(await healthy(base))) {
        if (child.exitCode !== null) throw new Error(`the second instance exited (${child.exitCode}): ${stderr}`);
        if (Date.now() > until) throw new Error(`the second instance did not answer /api/health: ${stderr}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    async stop(): Promise<void> {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((r) => running.once("exit", r));
      running.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (running.exitCode === null) running.kill("SIGKILL");
    },
  };
}
