// GET /api/coverages/{id}/certificate — a coverage's certificate of insurance (PDF), as the signed-in member
import { handleSessionCertificate } from "@/server/coverages/session-certificate";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  return handleSessionCertificate(request, id);
}
