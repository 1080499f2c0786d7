// GET /api/files/{id} — a stored file, for its organization only (session or API key)
import { serveFile } from "@/server/files/serve";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  return serveFile(request, (await ctx.params).id);
}
