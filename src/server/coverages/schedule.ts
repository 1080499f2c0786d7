// When a coverage's next renewal reminder is due (`remindAt`) and whether its
// `coverage.expired` event is still to be written (`lapseAt`): set for every
// new period (purchase, renewal), read by the lifecycle job through indexes.
import type { Tx } from "@/server/db/client";

/**
 * The period ending at `coverage.endsAt` starts over: its first reminder is due
 * the largest of the business's reminder days before the end (none when it has
 * none), and its expiry event at the end.
 */
export async function scheduleCoverage(tx: Tx, coverage: { id: string }): Promise<void> {
  await tx.$executeRaw`
    UPDATE coverage c SET
      "lapseAt" = c."endsAt",
      "remindAt" = CASE WHEN cardinality(o."reminderDays") > 0
        THEN c."endsAt" - make_interval(days => (SELECT max(d) FROM unnest(o."reminderDays") AS d)) END
    FROM organization o
    WHERE c.id = ${coverage.id} AND o.id = c."organizationId"`;
}
