// What the dashboard shows of the lifecycle: a customer's renewal reminders
// with the state of their mail, and the test clock that moves a test-mode
// coverage's end (like Stripe's test clocks) so integrators and specs can see
// coverage.expiring and coverage.expired without waiting for them.
import { assertCan, isLive, type Actor } from "@/server/actor";
import { db } from "@/server/db/client";
import { AppError, notFound } from "@/server/errors";
import { MAIL_MAX_ATTEMPTS } from "@/server/mail/kinds";
import type { CustomerReminder, SimulateEndInput } from "@/lib/schemas/coverage-reminders";
import { scheduleCoverage } from "./schedule";
import { coverageStatus } from "./status";
import type { Coverage } from "@/lib/schemas/coverages";
import { toCoverage } from "./service";

/** At most this many reminders are listed on a customer's page (newest first). */
const RECENT = 100;
const DAY_MS = 86_400_000;

/** The renewal reminders of a customer's coverages, newest first, with their mail's state. */
export async function listCustomerReminders(actor: Actor, customerId: string): Promise<CustomerReminder[]> {
  assertCan(actor, "read");
  const customer = await db.customer.findFirst({ where: { id: customerId, organizationId: actor.organizationId } });
  if (!customer) throw notFound("Customer");
  const reminders = await db.coverageReminder.findMany({
    where: { organizationId: actor.organizationId, coverage: { customerEmail: customer.email } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: RECENT,
    include: { coverage: { select: { policyId: true, policy: { select: { name: true } } } } },
  });
  const tasks = reminders.length
    ? await db.mailTask.findMany({
        where: {
          organizationId: actor.organizationId,
          kind: "renewal_reminder",
          sourceId: { in: reminders.map((r) => r.id) },
        },
        select: { sourceId: true, sentAt: true, attempts: true, lastError: true },
      })
    : [];
  const taskOf = new Map(tasks.map((t) => [t.sourceId, t]));
  return reminders.map((r) => {
    const task = taskOf.get(r.id);
    // Sent mail tasks are swept after 30 days (src/server/housekeeping.ts); unsent ones are kept.
    const status = !task || task.sentAt ? "sent" : task.attempts >= MAIL_MAX_ATTEMPTS ? "failed" : "queued";
    return {
      id: r.id,
      coverageId: r.coverageId,
      policyId: r.coverage.policyId,
      policyName: r.coverage.policy.name,
      daysBefore: r.daysBefore,
      periodEndsAt: r.periodEndsAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      mail: { status, sentAt: task?.sentAt?.toISOString() ?? null, error: task && !task.sentAt ? task.lastError : null },
    };
  });
}

/**
 * Test mode only: the coverage now ends `endsInDays` days from now (its start
 * moved back too if it would come after), and its period is scheduled again —
 * the next job runner pass sends the reminders due, charges an auto-renewing
 * cover's renewal and, at or after the end (or its grace period's), writes
 * coverage.expired. A past_due cover's grace period ends now instead.
 */
export async function simulateCoverageEnd(actor: Actor, input: SimulateEndInput, now = new Date()): Promise<Coverage> {
  assertCan(actor, "manage");
  const endsAt = new Date(now.getTime() + input.endsInDays * DAY_MS);
  return db.$transaction(async (tx) => {
    const [found] = await tx.$queryRaw<{ id: string; endsAt: Date; graceEndsAt: Date | null; cancelledAt: Date | null }[]>`
      SELECT id, "endsAt", "graceEndsAt", "cancelledAt" FROM coverage
      WHERE id = ${input.coverageId} AND "organizationId" = ${actor.organizationId} FOR UPDATE`;
    // Another organization's coverage is not found (404) before the mode is judged (409).
    if (!found) throw notFound("Coverage");
    if (isLive(actor)) {
      throw new AppError(
        "test_mode_only",
        "Simulating the end of cover works on test data only: use a test key (cd_test_…), or the dashboard's test mode, on a test coverage",
      );
    }
    if (input.endsInDays <= 0 && coverageStatus(found, now) === "past_due") {
      // Past due (its renewal declined): the grace period ends now — no more tries — and the next pass expires it.
      await tx.$executeRaw`
        UPDATE coverage SET "graceEndsAt" = ${now}::timestamp, "lapseAt" = ${now}::timestamp, "renewAt" = NULL,
          "cardNoticeAt" = NULL, "updatedAt" = ${now}::timestamp
        WHERE id = ${found.id}`;
      return toCoverage(await tx.coverage.findUniqueOrThrow({ where: { id: found.id } }), now);
    }
    await tx.$executeRaw`
      UPDATE coverage SET "endsAt" = ${endsAt}::timestamp, "startsAt" = LEAST("startsAt", ${endsAt}::timestamp), "updatedAt" = ${now}::timestamp
      WHERE id = ${found.id}`;
    await scheduleCoverage(tx, found);
    return toCoverage(await tx.coverage.findUniqueOrThrow({ where: { id: found.id } }), now);
  });
}
