// Runs once when the server starts; the Node-only work lives in its own module
// so the Edge build never sees it.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startNodeServer } = await import("./server/lifecycle");
    await startNodeServer();
  }
}
