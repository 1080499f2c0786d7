// Webhook endpoints of an organization, their delivery log, test pings and
// manual retries.
import { Prisma, type Webhook as WebhookRow, type WebhookDelivery as DeliveryRow } from "@/generated/prisma/client";
import { assertCan, isLive, type Actor } from "@/server/actor";
import { audit } from "@/server/audit/record";
import { db, type Tx } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { newEventId } from "@/server/events/record";
import { decodeCursor, pageArgs, toPage, type Page } from "@/server/pagination";
import { seal } from "@/server/seal";
import { disableGone, logAttempt, SECRET_PURPOSE, sendOnce, type EventPayload } from "./deliver";
import { changed, changesOf } from "@/server/audit/diff";
import {
  MAX_GROUP_ATTEMPTS,
  type UpdateWebhookInput,
  type WebhookStats,
  type CreateWebhookInput,
  type ListDeliveriesQuery,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryGroup,
  type WebhookWithSecret,
} from "@/lib/schemas/webhooks";
import { generateWebhookSecret } from "./signing";
import { unsafeUrlReason, type UrlCheckOptions } from "./url-safety";

export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  status: row.status,
  disabledReason: row.disabledReason,
  failingSince: row.failingSince?.toISOString() ?? null,
  previousSecretExpiresAt:
    row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt.toISOString() : null,
  createdAt: row.createdAt.toISOString(),
});

/** An attempt as listed: no request, no response. */
type AttemptRow = Pick<
  DeliveryRow,
  | "id"
  | "webhookId"
  | "eventId"
  | "event"
  | "attempt"
  | "status"
  | "responseStatus"
  | "durationMs"
  | "error"
  | "nextRetryAt"
  | "createdAt"
>;
/** Those fields, of the attempts aliased `d`. */
const ATTEMPT_COLUMNS = Prisma.sql`d.id, d."webhookId", d."eventId", d.event, d.attempt, d.status, d."responseStatus",
  d."durationMs", d.error, d."nextRetryAt", d."createdAt"`;

export const toDelivery = (row: AttemptRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhookId,
  eventId: row.eventId,
  event: row.event,
  attempt: row.attempt,
  status: row.status as WebhookDelivery["status"],
  responseStatus: row.responseStatus,
  durationMs: row.durationMs,
  error: row.error,
  nextRetryAt: row.nextRetryAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** `options`: internal callers only (the sample data accepts a host that does not resolve, see UrlCheckOptions). */
export async function createWebhook(
  actor: Actor,
  input: CreateWebhookInput,
  options: UrlCheckOptions = {},
): Promise<WebhookWithSecret> {
  assertCan(actor, "admin");
  const unsafe = await unsafeUrlReason(input.url, undefined, options);
  if (unsafe) throw new AppError("validation_failed", `url: ${unsafe}`, { errors: [{ path: "url", message: unsafe }] });
  const secret = input.secret ?? generateWebhookSecret();
  const row = await db.$transaction(async (tx) => {
    const created = await tx.webhook.create({
      data: {
        organizationId: actor.organizationId,
        url: input.url,
        events: input.events,
        secretSealed: seal(SECRET_PURPOSE, secret),
      },
    });
    // The secret never: only where deliveries go and what they carry.
    await audit(tx, actor.organizationId, {
      action: "webhook.created",
      resourceType: "webhook",
      resourceId: created.id,
      details: { url: created.url, events: created.events, secretGiven: input.secret !== undefined },
    });
    return created;
  });
  return { ...toWebhook(row), secret };
}

export async function listWebhooks(actor: Actor, page: { limit: number; cursor?: string }): Promise<Page<Webhook>> {
  assertCan(actor, "read");
  const args = pageArgs(page);
  const rows = await db.webhook.findMany({ ...args, where: { organizationId: actor.organizationId, ...args.where } });
  return toPage(rows, page, toWebhook);
}

async function findWebhook(actor: Actor, id: string): Promise<WebhookRow> {
  const row = await db.webhook.findFirst({ where: { id, organizationId: actor.organizationId } });
  if (!row) throw notFound("Webhook");
  return row;
}

export async function deleteWebhook(actor: Actor, id: string): Promise<void> {
  assertCan(actor, "admin");
  const row = await findWebhook(actor, id);
  // Of concurrent deletes one removes it; the others answer 404.
  const count = await db.$transaction(async (tx) => {
    const deleted = await tx.webhook.deleteMany({ where: { id: row.id, organizationId: actor.organizationId } });
    if (deleted.count > 0)
      await audit(tx, actor.organizationId, {
        action: "webhook.deleted",
        resourceType: "webhook",
        resourceId: row.id,
        details: { url: row.url, events: row.events },
      });
    return deleted.count;
  });
  if (count === 0) throw notFound("Webhook");
}

/** Enables or disables deliveries to a webhook (the business's own switch). */
export function setWebhookStatus(actor: Actor, id: string, status: "enabled" | "disabled"): Promise<Webhook> {
  return updateWebhook(actor, id, { status });
}

/**
 * Changes an endpoint's address (checked as at creation: no private address,
 * no credentials), its events or its status. Audited once per change: a status
 * alone as `webhook.enabled` / `webhook.disabled`, anything else as
 * `webhook.updated` with what changed.
 */
export async function updateWebhook(actor: Actor, id: string, input: UpdateWebhookInput): Promise<Webhook> {
  assertCan(actor, "admin");
  const row = await findWebhook(actor, id);
  if (input.url !== undefined && input.url !== row.url) {
    const unsafe = await unsafeUrlReason(input.url);
    if (unsafe) throw new AppError("validation_failed", `url: ${unsafe}`, { errors: [{ path: "url", message: unsafe }] });
  }
  const updated = await db.$transaction(async (tx) => {
    const [current] = await tx.webhook.findMany({ where: { id: row.id, organizationId: actor.organizationId } });
    if (!current) return null;
    const status = input.status ?? current.status;
    const [after] = await tx.webhook.updateManyAndReturn({
      where: { id: row.id, organizationId: actor.organizationId },
      data: {
        url: input.url,
        events: input.events,
        status: input.status,
        // The reason goes with the status: the business's own switch, or none once enabled again.
        ...(input.status !== undefined && input.status !== current.status
          ? { disabledReason: status === "disabled" ? "Disabled by the business" : null }
          : {}),
      },
    });
    if (!after) return null;
    const changes = changesOf(
      { url: current.url, events: current.events, status: current.status },
      { url: after.url, events: after.events, status: after.status },
    );
    if (changed(changes)) {
      const onlyStatus = Object.keys(changes.after).join() === "status";
      await audit(tx, actor.organizationId, {
        action: onlyStatus ? `webhook.${status}` : "webhook.updated",
        resourceType: "webhook",
        resourceId: row.id,
        details: onlyStatus ? { url: current.url, from: current.status, to: status } : { ...changes },
      });
    }
    return after;
  });
  if (!updated) throw notFound("Webhook"); // deleted meanwhile
  return toWebhook(updated);
}

/**
 * A new signing secret, shown once. The old one keeps signing deliveries
 * beside it for `expiresInHours` (0: not at all); a secret rolled before that
 * is dropped, so an endpoint never has more than two.
 */
export async function rollWebhookSecret(actor: Actor, id: string, expiresInHours: number): Promise<WebhookWithSecret> {
  assertCan(actor, "admin");
  const row = await findWebhook(actor, id);
  const secret = generateWebhookSecret();
  const updated = await db.$transaction(async (tx) => {
    // Locked: two rolls at once each keep the secret they replaced, never a third.
    const [current] = await tx.$queryRaw<{ secretSealed: string }[]>`
      SELECT "secretSealed" FROM webhook WHERE id = ${row.id} AND "organizationId" = ${actor.organizationId} FOR UPDATE`;
    if (!current) return null;
    const overlap = expiresInHours > 0;
    const [after] = await tx.webhook.updateManyAndReturn({
      where: { id: row.id, organizationId: actor.organizationId },
      data: {
        secretSealed: seal(SECRET_PURPOSE, secret),
        previousSecretSealed: overlap ? current.secretSealed : null,
        previousSecretExpiresAt: overlap ? new Date(Date.now() + expiresInHours * 3_600_000) : null,
      },
    });
    await audit(tx, actor.organizationId, {
      action: "webhook.secret_rolled",
      resourceType: "webhook",
      resourceId: row.id,
      details: { url: row.url, expiresInHours },
    });
    return after ?? null;
  });
  if (!updated) throw notFound("Webhook");
  return { ...toWebhook(updated), secret };
}

/** Attempts and failed attempts per endpoint over the last 7 days (one grouped read of the delivery log). */
export async function webhookStats(actor: Actor, now = new Date()): Promise<WebhookStats> {
  assertCan(actor, "read");
  const groups = await db.webhookDelivery.groupBy({
    by: ["webhookId", "status"],
    where: { organizationId: actor.organizationId, createdAt: { gte: new Date(now.getTime() - 7 * 86_400_000) } },
    _count: { _all: true },
  });
  const byHook = new Map<string, { webhookId: string; attempts: number; failed: number }>();
  for (const g of groups) {
    const s = byHook.get(g.webhookId) ?? { webhookId: g.webhookId, attempts: 0, failed: 0 };
    s.attempts += g._count._all;
    if (g.status === "failed") s.failed += g._count._all;
    byHook.set(g.webhookId, s);
  }
  return [...byHook.values()];
}

export async function listDeliveries(actor: Actor, query: ListDeliveriesQuery): Promise<Page<WebhookDelivery>> {
  assertCan(actor, "read");
  const args = pageArgs(query);
  const where: Prisma.WebhookDeliveryWhereInput = {
    organizationId: actor.organizationId,
    ...(query.webhookId ? { webhookId: query.webhookId } : {}),
    ...(query.event ? { event: query.event } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...args.where,
  };
  const rows = await db.webhookDelivery.findMany({ ...args, where });
  return toPage(rows, query, toDelivery);
}

/**
 * The delivery log by event, for the dashboard: one entry per event and
 * endpoint (eventId, webhookId), newest latest attempt first, paged by that
 * attempt's position. The filters are those of `listDeliveries`; the outcome
 * is the latest attempt's. One read pages over the latest attempts (an
 * attempt no later attempt of its group follows), a second reads the attempts
 * of the page's groups.
 */
export async function listDeliveryGroups(actor: Actor, query: ListDeliveriesQuery): Promise<Page<WebhookDeliveryGroup>> {
  assertCan(actor, "read");
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const org = actor.organizationId;
  const latest = await db.$queryRaw<(AttemptRow & { url: string; attemptCount: number })[]>`
    SELECT ${ATTEMPT_COLUMNS}, w.url,
      (SELECT count(*)::int FROM webhook_delivery c
        WHERE c."webhookId" = d."webhookId" AND c."eventId" = d."eventId" AND c."organizationId" = ${org}) AS "attemptCount"
    FROM webhook_delivery d
    JOIN webhook w ON w.id = d."webhookId"
    WHERE d."organizationId" = ${org}
      ${query.webhookId ? Prisma.sql`AND d."webhookId" = ${query.webhookId}` : Prisma.empty}
      ${query.event ? Prisma.sql`AND d.event = ${query.event}` : Prisma.empty}
      ${query.status ? Prisma.sql`AND d.status = ${query.status}` : Prisma.empty}
      ${
        after
          ? // The first condition bounds the index scan; the second is the position.
            Prisma.sql`AND d."createdAt" <= ${after.createdAt.toISOString()}::timestamp
              AND (d."createdAt" < ${after.createdAt.toISOString()}::timestamp
                OR (d."createdAt" = ${after.createdAt.toISOString()}::timestamp AND d.id < ${after.id}))`
          : Prisma.empty
      }
      AND NOT EXISTS (
        SELECT 1 FROM webhook_delivery l
        WHERE l."webhookId" = d."webhookId" AND l."eventId" = d."eventId"
          AND (l."createdAt" > d."createdAt" OR (l."createdAt" = d."createdAt" AND l.id > d.id)))
    ORDER BY d."createdAt" DESC, d.id DESC
    LIMIT ${query.limit + 1}`;
  const page = toPage(latest, query, (row) => row);
  if (page.data.length === 0) return { data: [], nextCursor: page.nextCursor };
  const attempts = await db.$queryRaw<AttemptRow[]>`
    SELECT ${ATTEMPT_COLUMNS} FROM (
      SELECT ${ATTEMPT_COLUMNS},
        row_number() OVER (PARTITION BY d."webhookId", d."eventId" ORDER BY d."createdAt" DESC, d.id DESC) AS n
      FROM webhook_delivery d
      WHERE d."organizationId" = ${org}
        AND (d."webhookId", d."eventId") IN (${Prisma.join(page.data.map((g) => Prisma.sql`(${g.webhookId}, ${g.eventId})`))})
    ) d
    WHERE d.n <= ${MAX_GROUP_ATTEMPTS}
    ORDER BY d.attempt, d."createdAt", d.id`;
  const byGroup = new Map<string, WebhookDelivery[]>();
  for (const a of attempts) {
    const key = `${a.webhookId} ${a.eventId}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), toDelivery(a)]);
  }
  return {
    data: page.data.map((row) => ({
      webhookId: row.webhookId,
      eventId: row.eventId,
      event: row.event,
      url: row.url,
      attemptCount: row.attemptCount,
      latest: toDelivery(row),
      attempts: byGroup.get(`${row.webhookId} ${row.eventId}`) ?? [],
    })),
    nextCursor: page.nextCursor,
  };
}

export async function getDelivery(actor: Actor, id: string): Promise<WebhookDeliveryDetail> {
  assertCan(actor, "read");
  const row = await db.webhookDelivery.findFirst({
    where: { id, organizationId: actor.organizationId },
    include: { webhook: { select: { url: true } } },
  });
  if (!row) throw notFound("Delivery");
  const attempts = await db.webhookDelivery.findMany({
    where: { organizationId: actor.organizationId, webhookId: row.webhookId, eventId: row.eventId },
    orderBy: [{ attempt: "asc" }, { createdAt: "asc" }],
    take: 50,
  });
  return {
    ...toDelivery(row),
    url: row.webhook.url,
    requestHeaders: row.requestHeaders as Record<string, string>,
    requestBody: row.requestBody,
    responseExcerpt: row.responseExcerpt,
    attempts: attempts.map(toDelivery),
  };
}

/** Sends a signed `ping` to one webhook now and answers the attempt. */
export async function sendTestEvent(actor: Actor, id: string): Promise<WebhookDelivery> {
  assertCan(actor, "admin");
  const webhook = await findWebhook(actor, id);
  const event = await db.event.create({
    data: {
      id: newEventId(),
      organizationId: actor.organizationId,
      type: "ping",
      data: { webhookId: webhook.id, message: "Test event from Coverdesk" },
      // delivered right here, never fanned out
      dispatchedAt: new Date(),
    },
  });
  const outcome = await sendOnce(webhook, event, { livemode: isLive(actor) });
  return toDelivery(
    await db.$transaction(async (tx) => {
      await assertStillThere(tx, webhook.id);
      if (outcome.gone) await disableGone(tx, webhook.id);
      return logAttempt(tx, webhook, event, 1, outcome, null);
    }),
  );
}

/**
 * The webhook, held until the attempt is logged: deleted while its request
 * was out (a concurrent DELETE) → 404, as if the call had come a moment later.
 */
async function assertStillThere(tx: Tx, webhookId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM webhook WHERE id = ${webhookId} FOR KEY SHARE`;
  if (rows.length === 0) throw notFound("Webhook");
}

/** Sends a logged delivery's event to its webhook again, now, as a new attempt. */
export async function retryDelivery(actor: Actor, deliveryId: string): Promise<WebhookDelivery> {
  assertCan(actor, "admin");
  const delivery = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, organizationId: actor.organizationId },
    include: { webhook: true },
  });
  if (!delivery) throw notFound("Delivery");
  const event = await db.event.findFirst({ where: { id: delivery.eventId, organizationId: actor.organizationId } });
  if (!event) throw notFound("Event");
  const outcome = await sendOnce(delivery.webhook, event as EventPayload, { livemode: isLive(actor) });
  return toDelivery(
    await db.$transaction(async (tx) => {
      await assertStillThere(tx, delivery.webhookId);
      const last = await tx.webhookDelivery.aggregate({
        where: { webhookId: delivery.webhookId, eventId: event.id },
        _max: { attempt: true },
      });
      const attempt = (last._max.attempt ?? 0) + 1;
      const task = { webhookId: delivery.webhookId, eventId: event.id };
      if (outcome.ok || outcome.gone) {
        // Delivered (or refused for good): the automatic retries of this event end here.
        await tx.webhookTask.deleteMany({ where: task });
      } else {
        // Keep the worker's numbering after this attempt.
        await tx.webhookTask.updateMany({
          where: { ...task, nextAttempt: { lte: attempt } },
          data: { nextAttempt: attempt + 1 },
        });
      }
      if (outcome.gone) await disableGone(tx, delivery.webhookId);
      return logAttempt(tx, delivery.webhook, event, attempt, outcome, null);
    }),
  );
}
