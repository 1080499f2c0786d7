// Reading events back: a receiver that missed deliveries (down, misconfigured)
// catches up with `GET /events`, newest first, each event exactly the body its
// webhook delivery carries. The organization's (or in test mode its twin's)
// events of the webhook types, of the last EVENT_RETENTION_DAYS; the internal
// ones (emails' triggers) are never shown.
import { EVENT_TYPES } from "@/lib/enums";
import { EVENT_RETENTION_DAYS, type EventObject, type ListEventsQuery } from "@/lib/schemas/events";
import { endOf, startOf } from "@/lib/schemas/when";
import type { Prisma } from "@/generated/prisma/client";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import { pageArgs, toPage, type Page } from "@/server/pagination";

const PUBLIC_TYPES: readonly string[] = EVENT_TYPES;
const retainedSince = () => new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000);

function toEventObject(row: { id: string; type: string; createdAt: Date; data: Prisma.JsonValue }, livemode: boolean): EventObject {
  return {
    id: row.id,
    type: row.type as EventObject["type"],
    createdAt: row.createdAt.toISOString(),
    livemode,
    data: (row.data ?? {}) as Record<string, unknown>,
  };
}

export async function listEvents(actor: Actor, query: ListEventsQuery): Promise<Page<EventObject>> {
  assertCan(actor, "read");
  const since = retainedSince();
  const from = query.from ? startOf(query.from) : since;
  const page = pageArgs(query);
  const rows = await db.event.findMany({
    where: {
      organizationId: actor.organizationId,
      type: query.type ?? { in: [...PUBLIC_TYPES] },
      createdAt: { gte: from > since ? from : since, ...(query.to ? { lt: endOf(query.to) } : {}) },
      ...page.where,
    },
    orderBy: page.orderBy,
    take: page.take,
    select: { id: true, type: true, createdAt: true, data: true },
  });
  return toPage(rows, query, (r) => toEventObject(r, isLive(actor)));
}

export async function getEvent(actor: Actor, id: string): Promise<EventObject> {
  assertCan(actor, "read");
  const row = await db.event.findFirst({
    where: { id, organizationId: actor.organizationId, type: { in: [...PUBLIC_TYPES] }, createdAt: { gte: retainedSince() } },
    select: { id: true, type: true, createdAt: true, data: true },
  });
  if (!row) throw notFound("Event");
  return toEventObject(row, isLive(actor));
}
