// POST /api/portal/{organizationId}/claims — file a claim with up to 5 attachments (multipart)
import { fileClaim, portalRoute } from "@/server/portal/http";

export const dynamic = "force-dynamic";

export async function POST(request: Request, ctx: { params: Promise<{ organizationId: string }> }) {
  return portalRoute(request, (await ctx.params).organizationId, fileClaim, { mutation: true });
}
