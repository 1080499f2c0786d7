// Reading the audit log: the owner and admins of an organization see its
// entries (both modes: the live organization's and its test twin's), newest
// first, filtered, a page at a time. A key's label is its current name and
// prefix, read for the page in one query.
import type { Prisma } from "@/generated/prisma/client";
import type { AuditLogEntry, ListAuditLogsQuery } from "@/lib/schemas/audit";
import { accountOf, assertCan, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { pageArgs, toPage, type Page } from "@/server/pagination";

import { endOf as end, startOf as start } from "@/lib/schemas/when";

export async function listAuditLogs(actor: Actor, query: ListAuditLogsQuery): Promise<Page<AuditLogEntry>> {
  assertCan(actor, "admin-read");
  const accountId = accountOf(actor);
  const twin = await db.organization.findUnique({ where: { liveOrganizationId: accountId }, select: { id: true } });
  const orgs = twin ? [accountId, twin.id] : [accountId];
  const page = pageArgs(query);
  const where: Prisma.AuditLogWhereInput = {
    organizationId: { in: orgs },
    ...(query.action ? (query.action.endsWith(".") ? { action: { startsWith: query.action } } : { action: query.action }) : {}),
    ...(query.actorType ? { actorType: query.actorType } : {}),
    ...(query.actorId ? { actorId: query.actorId } : {}),
    ...(query.resourceType ? { resourceType: query.resourceType } : {}),
    ...(query.resourceId ? { resourceId: query.resourceId } : {}),
    ...(query.from || query.to
      ? { createdAt: { ...(query.from ? { gte: start(query.from) } : {}), ...(query.to ? { lt: end(query.to) } : {}) } }
      : {}),
    ...page.where,
  };
  const rows = await db.auditLog.findMany({ where, orderBy: page.orderBy, take: page.take });
  const keyIds = [...new Set(rows.filter((r) => r.actorType === "api_key").map((r) => r.actorId))];
  const keys = keyIds.length
    ? await db.apiKey.findMany({ where: { id: { in: keyIds }, organizationId: accountId }, select: { id: true, name: true, prefix: true } })
    : [];
  const keyLabel = new Map(keys.map((k) => [k.id, `${k.name} (${k.prefix}…)`]));
  return toPage(rows, query, (r) => ({
    id: r.id,
    action: r.action,
    actor: {
      type: r.actorType as AuditLogEntry["actor"]["type"],
      id: r.actorId,
      label: (r.actorType === "api_key" ? keyLabel.get(r.actorId) : undefined) ?? r.actorLabel,
    },
    resource: { type: r.resourceType, id: r.resourceId },
    details: (r.details ?? {}) as Record<string, unknown>,
    ipAddress: r.ipAddress,
    requestId: r.requestId,
    livemode: r.organizationId === accountId,
    createdAt: r.createdAt.toISOString(),
  }));
}
