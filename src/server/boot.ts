// Node-only start-up, called from instrumentation's register(). Importing the
// server validates the environment, so the imports sit inside the try: a start
// that cannot succeed ends the process at once with one line naming the cause,
// never leaving it up answering 500s (a throw in register() is only logged by Next).
export async function boot(): Promise<void> {
  try {
    // Requests Next cannot route (unknown methods, malformed paths) are answered before they reach it.
    const { installHttpGuard, serveApiDirectly } = await import("./http-guard");
    installHttpGuard();
    const { startNodeServer, tracked } = await import("./lifecycle");
    // In production /api/v1 is answered from the HTTP server, before Next's routing. `next dev` keeps
    // the route (src/app/api/v1), so an edited endpoint reloads like any other code.
    if (process.env.NODE_ENV === "production") {
      const { handleRestRequest } = await import("./rest/handler");
      serveApiDirectly((request) => tracked(() => handleRestRequest(request)));
    }
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
