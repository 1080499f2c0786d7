// POST /api/portal/{organizationId}/coverages/{coverageId}/renew — start a renewal payment
import { portalRoute, renew } from "@/server/portal/http";

export const dynamic = "force-dynamic";

export async function POST(request: Request, ctx: { params: Promise<{ organizationId: string; coverageId: string }> }) {
  const { organizationId, coverageId } = await ctx.params;
  return portalRoute(request, organizationId, renew(coverageId), { mutation: true });
}
