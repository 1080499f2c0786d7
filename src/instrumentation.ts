// Runs once when the server starts; the Node-only work lives in its own module
// so the Edge build never sees it. `next start` listens before calling this,
// and holds every request until it returns: the settings are checked before it
// returns, the database opens after, while /api/health answers 503 (see
// src/server/boot.ts and src/server/lifecycle.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("./server/boot");
  await boot();
}
