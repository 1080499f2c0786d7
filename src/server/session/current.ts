// The signed-in user of a page render, and the organization they work in.
import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { capabilities } from "@/server/actor";
import { isPlatformAdmin } from "@/server/admin/service";
import { getAuth } from "@/server/auth";
import type { Me } from "@/lib/schemas/organizations";
import { resolveActiveMembership } from "@/server/organizations/service";

/** Once per render (React cache): the layout and the page ask alike. */
export const currentSession = cache(async function currentSession() {
  const session = await getAuth().api.getSession({ headers: await headers() });
  if (!session) return null;
  const [member, platformAdmin] = await Promise.all([
    resolveActiveMembership(session.user.id, (session.user.activeOrganizationId as string | null | undefined) ?? null),
    // From the database, like organizations.me: a session may predate a grant or a revocation.
    isPlatformAdmin(session.user.id),
  ]);
  // What the dashboard shows is what the services will accept: the same rule, from actor.ts.
  const me: Me | null = member
    ? {
        role: member.role,
        can: capabilities({ organizationId: member.organizationId, userId: session.user.id, role: member.role }),
        platformAdmin,
        livemode: session.user.testMode !== true,
      }
    : null;
  // The organization requires two-factor and this member has none: only its set-up page opens.
  const mustEnrol = !!member?.organization.requireTwoFactor && session.user.twoFactorEnabled !== true;
  // platformAdmin also for a user without an organization (a platform operator needs none).
  return { user: session.user, member, me, platformAdmin, mustEnrol };
});
