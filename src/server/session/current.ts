// The signed-in user of a page render, and the organization they work in.
import "server-only";
import { headers } from "next/headers";
import { getAuth } from "@/server/auth";
import { resolveActiveMembership } from "@/server/organizations/service";

export async function currentSession() {
  const session = await getAuth().api.getSession({ headers: await headers() });
  if (!session) return null;
  const member = await resolveActiveMembership(
    session.user.id,
    (session.user.activeOrganizationId as string | null | undefined) ?? null,
  );
  return { user: session.user, member };
}
