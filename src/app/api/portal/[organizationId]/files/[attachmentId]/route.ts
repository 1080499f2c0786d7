// GET /api/portal/{organizationId}/files/{attachmentId} — an attachment of one of the policyholder's claims
import { attachment, portalRoute } from "@/server/portal/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: { params: Promise<{ organizationId: string; attachmentId: string }> }) {
  const { organizationId, attachmentId } = await ctx.params;
  return portalRoute(request, organizationId, attachment(attachmentId));
}
