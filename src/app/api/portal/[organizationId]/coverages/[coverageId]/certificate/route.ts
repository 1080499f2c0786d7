// GET /api/portal/{organizationId}/coverages/{coverageId}/certificate — the certificate of insurance (PDF)
import { certificate, portalRoute } from "@/server/portal/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ organizationId: string; coverageId: string }> }) {
  const { organizationId, coverageId } = await ctx.params;
  return portalRoute(request, organizationId, certificate(coverageId));
}
