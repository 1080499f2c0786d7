// Node-only start-up, called from instrumentation's register(). Importing the
// server validates the environment, so the imports sit inside the try: a start
// that cannot succeed ends the process at once with one line naming the cause,
// never leaving it up answering 500s (a throw in register() is only logged by Next).
export async function boot(): Promise<void> {
  try {
    // Requests Next cannot route (unknown methods, malformed paths) are answered before they reach it.
    const { installHttpGuard, serveApiDirectly } = await import("./http-guard");
    installHttpGuard();
    await logProcessWarnings();
    const { startNodeServer } = await import("./lifecycle");
    // In production /api/v1 is answered from the HTTP server, before Next's routing. `next dev` keeps
    // the route (src/app/api/v1), so an edited endpoint reloads like any other code.
    if (process.env.NODE_ENV === "production") {
      const { handleRestRequest } = await import("./operations/pipeline");
      serveApiDirectly(handleRestRequest);
    }
    startNodeServer().catch(exitOnStartupFailure);
  } catch (err) {
    exitOnStartupFailure(err);
  }
}

/**
 * Node's process warnings (deprecations, a listener leak, …) as one JSON log
 * line each, instead of Node's two-line text on stderr — once per process.
 */
async function logProcessWarnings(): Promise<void> {
  const g = globalThis as unknown as { __coverdeskWarnings?: boolean };
  if (g.__coverdeskWarnings) return;
  g.__coverdeskWarnings = true;
  const { logger } = await import("./logger");
  process.removeAllListeners("warning");
  process.on("warning", (warning: Error & { code?: string }) => {
    logger.warn({ warning: { name: warning.name, code: warning.code, message: warning.message } }, "process warning");
  });
}

function exitOnStartupFailure(err: unknown): never {
  const reason = (err instanceof Error ? err.message : String(err)).trim().replace(/\s*\n\s*/g, " ");
  process.stderr.write(`startup failed: ${reason}\n`);
  process.exit(1);
}
