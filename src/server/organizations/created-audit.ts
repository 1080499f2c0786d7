// organization.created: in the live organization's log, in the transaction
// that made it. By whoever the request's context names (the user in the
// dashboard, the key of POST /organizations); without one — the organization
// made at sign-up, in better-auth's hook — by the user who owns it.
import type { Organization as OrgRow } from "@/generated/prisma/client";
import { audit, auditAs, currentAuditor, userAuditor } from "@/server/audit/record";
import type { Tx } from "@/server/db/client";

export async function auditOrganizationCreated(tx: Tx, org: OrgRow, ownerUserId: string): Promise<void> {
  const entry = {
    action: "organization.created",
    resourceType: "organization",
    resourceId: org.id,
    details: { name: org.name, email: org.email, currency: org.currency, owner: ownerUserId },
  };
  if (currentAuditor().actorType !== "system") return audit(tx, org.id, entry);
  return auditAs(tx, org.id, await userAuditor(tx, ownerUserId), entry);
}
