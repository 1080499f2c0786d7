// A second copy of the built app beside the one Playwright started, on the same
// database (PostgreSQL runs only: the embedded database belongs to one
// process): for specs of what several instances must share (rate limits,
// metering, the portal's limits, the balance lock, the job runner's wake-up).
// playwright.config.ts starts it once for the whole run, as it starts the
// first (`npm start`, the first one's settings, WORKER=false: the first runs
// the only job runner), on E2E_SECOND_PORT; it used to be started and stopped
// by each of the four spec files that need it, each start blocking a worker.

async function healthy(base: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** The second instance: its base URL, and a check that it answers (in a spec's beforeAll). */
export function secondInstance() {
  const port = process.env.E2E_SECOND_PORT;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    async start(): Promise<void> {
      if (!port)
        throw new Error("E2E_SECOND_PORT is unset: the second instance is started by playwright.config.ts (PostgreSQL runs)");
      if (!(await healthy(base))) throw new Error(`the second instance does not answer /api/health at ${base}`);
    },
  };
}
