// Test mode: every organization has a test twin — an organization row of its
// own (livemode false) that test keys and the dashboard's test view act as.
// Tenant isolation by organizationId then keeps test data apart from live data
// with no second mechanism; the twin mirrors the live profile (name, contact,
// currency) so checkout pages and receipts read the same.
import { randomUUID } from "node:crypto";
import { db, type Tx } from "@/server/db/client";

const PROFILE = { name: true, email: true, phone: true, address: true, currency: true } as const;

/** The live organization's test twin, made if it is missing (organizations made before test mode, a race). */
export async function ensureTestTwin(accountId: string, tx: Tx | typeof db = db): Promise<string> {
  const existing = await tx.organization.findUnique({ where: { liveOrganizationId: accountId }, select: { id: true } });
  if (existing) return existing.id;
  const live = await tx.organization.findUniqueOrThrow({ where: { id: accountId }, select: PROFILE });
  await tx.$executeRaw`
    INSERT INTO organization (id, livemode, "liveOrganizationId", name, email, phone, address, currency, "createdAt", "updatedAt")
    VALUES (${randomUUID()}, false, ${accountId}, ${live.name}, ${live.email}, ${live.phone}, ${live.address}, ${live.currency}, now(), now())
    ON CONFLICT ("liveOrganizationId") DO NOTHING`;
  const twin = await tx.organization.findUniqueOrThrow({ where: { liveOrganizationId: accountId }, select: { id: true } });
  return twin.id;
}

/** Copies the live profile onto the twin, in the caller's transaction. */
export async function syncTestTwin(tx: Tx, accountId: string): Promise<void> {
  const live = await tx.organization.findUniqueOrThrow({ where: { id: accountId }, select: PROFILE });
  await tx.organization.updateMany({ where: { liveOrganizationId: accountId }, data: live });
}
