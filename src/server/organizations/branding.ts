// What a policyholder sees of a business: its name, accent colour and logo,
// on the portal, certificates and verification page. Kept on the live
// organization (the logo is its file); the test twin shows the same.
import type { StoredFile } from "@/generated/prisma/client";
import { db } from "@/server/db/client";

export interface Branding {
  /** The organization whose data is shown (live, or its test twin). */
  organizationId: string;
  livemode: boolean;
  name: string;
  email: string | null;
  phone: string | null;
  /** #rrggbb, or null for Coverdesk's own. */
  accentColor: string | null;
  logo: StoredFile | null;
}

export const DEFAULT_ACCENT = "#1d4ed8";

/** The branding of an organization (either mode); null when there is no such organization. */
export async function brandingOf(organizationId: string): Promise<Branding | null> {
  const org = await db.organization.findUnique({
    where: { id: organizationId },
    select: {
      id: true,
      livemode: true,
      name: true,
      email: true,
      phone: true,
      accentColor: true,
      logoFile: true,
      liveOrganization: { select: { accentColor: true, logoFile: true } },
    },
  });
  if (!org) return null;
  const account = org.liveOrganization ?? org;
  return {
    organizationId: org.id,
    livemode: org.livemode,
    name: org.name,
    email: org.email,
    phone: org.phone,
    accentColor: account.accentColor,
    logo: account.logoFile,
  };
}
