// Runs once when the server starts; the Node-only work lives in its own module
// so the Edge build never sees it. `next start` listens before calling this,
// and holds every request until it returns: the settings are checked before it
// returns (importing the server validates the environment), the database opens
// after, while /api/health answers 503. A start that cannot succeed ends the
// process at once with one line naming the cause, never leaving it up
// answering 500s (a throw here would only be logged by Next).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    // Requests Next cannot route (unknown methods, malformed paths) are answered before they reach it.
    const { installHttpGuard } = await import("./server/http-guard");
    installHttpGuard();
    const { startNodeServer } = await import("./server/lifecycle");
    startNodeServer().catch(exitOnStartupFailure);
  } catch (err) {
    exitOnStartupFailure(err);
  }
}

function exitOnStartupFailure(err: unknown): never {
  const reason = (err instanceof Error ? err.message : String(err)).trim().replace(/\s*\n\s*/g, " ");
  process.stderr.write(`startup failed: ${reason}\n`);
  process.exit(1);
}
