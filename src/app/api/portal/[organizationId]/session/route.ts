// POST /api/portal/{organizationId}/session — sign in with the code; DELETE — sign out
import { portalRoute, signIn, signOut } from "@/server/portal/http";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ organizationId: string }> };

export async function POST(request: Request, ctx: Ctx) {
  return portalRoute(request, (await ctx.params).organizationId, signIn, { mutation: true });
}

export async function DELETE(request: Request, ctx: Ctx) {
  return portalRoute(request, (await ctx.params).organizationId, signOut, { mutation: true });
}
