// `npm run dev` runs this beside `next dev`: once the server answers, it asks for the main routes once,
// so their first compile (a minute or more on a busy 2-core machine) happens before anyone opens them.
// It waits at most 5 minutes for the server, prints one line, and leaves on its own (also when
// `next dev` is gone). Port: PORT, as `next dev` reads it (3000 by default).
const port = Number(process.env.PORT) || 3000;
const base = `http://localhost:${port}`;
const routes = ["/api/health", "/sign-in", "/"];
const parent = process.ppid;
const started = Date.now();

const alive = () => {
  try {
    process.kill(parent, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function get(route, timeoutMs) {
  const res = await fetch(base + route, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  await res.arrayBuffer();
  return res.status;
}

async function main() {
  // The server listens before it has compiled anything: any answer (even a 503 while the database opens) will do.
  for (;;) {
    if (!alive() || Date.now() - started > 5 * 60_000) return;
    try {
      await get("/api/health", 5_000);
      break;
    } catch {
      await sleep(1_000);
    }
  }
  const warmed = [];
  for (const route of routes) {
    if (!alive()) return;
    try {
      warmed.push(`${route} ${await get(route, 10 * 60_000)}`);
    } catch {
      warmed.push(`${route} failed`);
    }
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`[dev-warm] compiled ${warmed.join(", ")} in ${seconds} s: the first pages are ready`);
}

main().catch(() => {});
