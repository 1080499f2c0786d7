// Webhooks as jobs of the runner (src/server/jobs): the fan-out of each
// outbox event to the organization's enabled, subscribed webhooks (one task
// per pair), then the delivery of due tasks, one attempt each, retried on
// WEBHOOK_RETRY_SCHEDULE. Nothing is lost between the commit of an event and
// its delivery: the fan-out commits with the event's "dispatched" mark, and a
// task stays until its last attempt is logged.
import type { Event, Organization, Webhook, WebhookTask } from "@/generated/prisma/client";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { newId } from "@/server/ids";
import { passJob, rowJob, runRowJob } from "@/server/jobs/kind";
import { scheduleOf } from "@/server/jobs/retry";
import { planMailTasks } from "@/server/mail/plan";
import { disableGone, noteOutcome, logAttempt, sendOnce, type Outcome } from "./deliver";

const BATCH = 20;

/** Creates the delivery tasks (and mail tasks) of undispatched events. Returns how many events it handled. */
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
        .map((h) => ({ id: newId(), organizationId: e.organizationId, webhookId: h.id, eventId: e.id })),
    );
    if (tasks.length) await tx.webhookTask.createMany({ data: tasks, skipDuplicates: true });
    // Mail is planned here, after the business transaction committed, and commits with "dispatched".
    await planMailTasks(tx, events);
    await tx.event.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { dispatchedAt: new Date() } });
    return events.length;
  });
}

// One lane with the delivery: an event's tasks are sent in the pass that made them.
export const webhookDispatchJob = passJob({
  kind: "webhook.dispatch",
  lane: "webhooks",
  run: dispatchEvents,
  drain: true,
  wakeOn: ["event"],
});

type Task = WebhookTask & { webhook: Webhook & { organization: Pick<Organization, "livemode"> }; event: Event | null };
/** null: nothing to send any more (the event is gone or the webhook was disabled). */
type Sent = Outcome | null;

/** The task is done with: its row goes (the delivery log keeps every attempt). */
const dropTask = (task: Task) => db.webhookTask.deleteMany({ where: { id: task.id } });

/** Logs the attempt and, in the same transaction, moves or removes the task. */
async function record(task: Task, outcome: Outcome, attempt: number, retryAt: Date | null) {
  await db.$transaction(async (tx) => {
    await logAttempt(tx, task.webhook, task.event!, attempt, outcome, retryAt);
    if (outcome.gone) await disableGone(tx, task.webhook.id);
    else await noteOutcome(tx, task.webhook.id, outcome.ok);
    if (retryAt) {
      await tx.webhookTask.update({
        where: { id: task.id },
        data: { nextAttempt: attempt + 1, runAt: retryAt, lockedUntil: null },
      });
    } else {
      await tx.webhookTask.deleteMany({ where: { id: task.id } });
    }
  });
}

export const webhookDeliveryJob = rowJob<Task, Sent>({
  kind: "webhook.delivery",
  lane: "webhooks",
  table: "webhook_task",
  batch: BATCH,
  // Outlasts one attempt (the receiver's timeout) by far, so a live runner keeps its task.
  leaseMs: () => env.WEBHOOK_TIMEOUT_MS + 30_000,
  retry: {
    ...scheduleOf(() => env.WEBHOOK_RETRY_SCHEDULE),
    honourRetryAfter: true,
    whenExhausted:
      "the task is deleted; the delivery log keeps the last attempt (nextRetryAt null); 410 Gone also disables the webhook",
    exhausted: async (task, outcome, attempt) => (outcome ? record(task, outcome, attempt, null) : void (await dropTask(task))),
  },
  async load(ids) {
    const tasks = await db.webhookTask.findMany({
      where: { id: { in: ids } },
      include: { webhook: { include: { organization: { select: { livemode: true } } } } },
    });
    const events = await db.event.findMany({ where: { id: { in: tasks.map((t) => t.eventId) } } });
    const byId = new Map(events.map((e) => [e.id, e]));
    return tasks.map((t) => ({ ...t, event: byId.get(t.eventId) ?? null }));
  },
  failures: (task) => task.nextAttempt - 1,
  async attempt(task) {
    if (!task.event || task.webhook.status !== "enabled") return null;
    return sendOnce(task.webhook, task.event, { livemode: task.webhook.organization.livemode });
  },
  failureOf: (outcome) => (!outcome || outcome.ok ? null : { retryAfterS: outcome.retryAfterS, final: outcome.gone }),
  succeeded: async (task, outcome, attempt) => (outcome ? record(task, outcome, attempt, null) : void (await dropTask(task))),
  retrying: (task, outcome, attempt, retryAt) => record(task, outcome!, attempt, retryAt),
});

/** Runs the delivery tasks that are due (one batch). Returns how many it claimed. */
export const runDueTasks = () => runRowJob(webhookDeliveryJob);
