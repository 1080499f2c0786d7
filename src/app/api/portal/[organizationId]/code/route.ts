// POST /api/portal/{organizationId}/code — email a one-time sign-in code
import { portalRoute, requestCode } from "@/server/portal/http";

export const dynamic = "force-dynamic";

export async function POST(request: Request, ctx: { params: Promise<{ organizationId: string }> }) {
  return portalRoute(request, (await ctx.params).organizationId, requestCode, { mutation: true });
}
