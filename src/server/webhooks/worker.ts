// The delivery worker. It fans each outbox event out to the organization's
// enabled, subscribed webhooks (one task per pair), then runs due tasks.
// Rows are claimed with FOR UPDATE SKIP LOCKED and a lease (lockedUntil), so
// several workers never run one attempt twice and a crashed worker's task
// comes back; nothing is lost between the commit of an event and its delivery.
import { runCoverageLifecycle } from "@/server/coverages/lifecycle";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { sweepOrphanFiles } from "@/server/files/orphans";
import { sweepExpiredRows } from "@/server/housekeeping";
import { logger } from "@/server/logger";
import { planMailTasks } from "@/server/mail/plan";
import { runDueMail } from "@/server/mail/sender";
import { runDuePayouts } from "@/server/payouts/job";
import { logAttempt, sendOnce } from "./deliver";

const BATCH = 20;

/** Creates the delivery tasks of undispatched events. Returns how many events it handled. */
export async function dispatchEvents(): Promise<number> {
  return db.$transaction(async (tx) => {
    const events = await tx.$queryRaw<{ id: string; organizationId: string; type: string; data: unknown }[]>`
      SELECT id, "organizationId", type, data FROM event
      WHERE "dispatchedAt" IS NULL ORDER BY "createdAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return 0;
    const orgs = [...new Set(events.map((e) => e.organizationId))];
    const hooks = await tx.webhook.findMany({
      where: { organizationId: { in: orgs }, status: "enabled" },
      select: { id: true, organizationId: true, events: true },
    });
    const tasks = events.flatMap((e) =>
      hooks
        .filter((h) => h.organizationId === e.organizationId && h.events.includes(e.type))
        .map((h) => ({ organizationId: e.organizationId, webhookId: h.id, eventId: e.id })),
    );
    if (tasks.length) await tx.webhookTask.createMany({ data: tasks, skipDuplicates: true });
    // Mail is planned here, after the business transaction committed, and commits with "dispatched".
    await planMailTasks(tx, events);
    await tx.event.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { dispatchedAt: new Date() } });
    return events.length;
  });
}

/** When the next attempt after `attempt` failures is due, or null when there is none. */
export function nextRetryAt(attempt: number, retryAfterS: number | null, now = Date.now()): Date | null {
  const delay = env.WEBHOOK_RETRY_SCHEDULE[attempt - 1];
  if (delay === undefined) return null;
  return new Date(now + Math.max(delay, retryAfterS ?? 0) * 1000);
}

/** Runs the tasks that are due. Returns how many attempts it made. */
export async function runDueTasks(): Promise<number> {
  const leaseMs = env.WEBHOOK_TIMEOUT_MS + 30_000;
  const ids = await db.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM webhook_task
      WHERE "runAt" <= now() AND ("lockedUntil" IS NULL OR "lockedUntil" < now())
      ORDER BY "runAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
    if (due.length) {
      await tx.webhookTask.updateMany({
        where: { id: { in: due.map((d) => d.id) } },
        data: { lockedUntil: new Date(Date.now() + leaseMs) },
      });
    }
    return due.map((d) => d.id);
  });
  if (ids.length === 0) return 0;
  const tasks = await db.webhookTask.findMany({
    where: { id: { in: ids } },
    include: { webhook: { include: { organization: { select: { livemode: true } } } } },
  });
  const events = await db.event.findMany({ where: { id: { in: tasks.map((t) => t.eventId) } } });
  const byId = new Map(events.map((e) => [e.id, e]));

  await Promise.all(
    tasks.map(async (task) => {
      const event = byId.get(task.eventId);
      if (!event || task.webhook.status !== "enabled") {
        await db.webhookTask.deleteMany({ where: { id: task.id } });
        return;
      }
      const outcome = await sendOnce(task.webhook, event, { livemode: task.webhook.organization.livemode });
      const retryAt = outcome.ok || outcome.gone ? null : nextRetryAt(task.nextAttempt, outcome.retryAfterS);
      await db.$transaction(async (tx) => {
        await logAttempt(tx, task.webhook, event, task.nextAttempt, outcome, retryAt);
        if (outcome.gone) {
          await tx.webhook.update({
            where: { id: task.webhook.id },
            data: { status: "disabled", disabledReason: "The receiver answered 410 Gone" },
          });
        }
        if (retryAt) {
          await tx.webhookTask.update({
            where: { id: task.id },
            data: { nextAttempt: task.nextAttempt + 1, runAt: retryAt, lockedUntil: null },
          });
        } else {
          await tx.webhookTask.delete({ where: { id: task.id } });
        }
      });
    }),
  );
  return tasks.length;
}

/** One pass of the worker: payouts and coverage reminders and expiries, then fan out, deliver webhooks and mail, until nothing is left that is due. */
export async function workOnce(): Promise<void> {
  // First: a payout's events (and its owner mail) are then dispatched in this same pass.
  while ((await runDuePayouts()) > 0);
  // Likewise the coverage.expiring / coverage.expired events and the reminder mails (two index reads when nothing is due).
  await runCoverageLifecycle();
  while ((await dispatchEvents()) > 0);
  while ((await runDueTasks()) > 0);
  while ((await runDueMail()) > 0);
}

interface Worker {
  stop(): Promise<void>;
}

const SWEEP_EVERY_MS = 10 * 60_000;

const gw = globalThis as unknown as { __coverdeskWakeWorker?: () => void };

/**
 * Asks this process's worker for a pass now rather than at its next poll:
 * called once a request that may have recorded events has answered (its
 * transaction committed), so the first delivery attempt follows at once.
 * Events committed by other instances wait for the poll.
 */
export function wakeWorker(): void {
  gw.__coverdeskWakeWorker?.();
}

/** Polls every second (and sweeps expired rows every 10 minutes); `stop` lets the attempt under way finish. */
export function startWebhookWorker(intervalMs = 1000): Worker {
  let stopped = false;
  let running = false;
  let again = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = 0;
  const pass = async () => {
    await workOnce();
    if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = Date.now();
      await sweepExpiredRows();
      await sweepOrphanFiles();
    }
  };
  const tick = () => {
    if (stopped) return;
    clearTimeout(timer);
    running = true;
    again = false;
    current = pass()
      .catch((err) => logger.error({ err }, "webhook worker pass failed"))
      .finally(() => {
        running = false;
        if (!stopped) timer = setTimeout(tick, again ? 0 : intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  gw.__coverdeskWakeWorker = () => {
    if (stopped) return;
    if (running) again = true;
    else {
      clearTimeout(timer);
      timer = setTimeout(tick, 0);
    }
  };
  return {
    async stop() {
      stopped = true;
      gw.__coverdeskWakeWorker = undefined;
      clearTimeout(timer);
      await current;
    },
  };
}
