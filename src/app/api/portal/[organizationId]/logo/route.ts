// GET /api/portal/{organizationId}/logo — the business's logo, public (it is on its portal and certificates)
import { logo, portalRoute } from "@/server/portal/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ organizationId: string }> }) {
  return portalRoute(request, (await ctx.params).organizationId, logo);
}
