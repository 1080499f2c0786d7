// How many coverages of an organization are valid cover at a moment (active
// or past due: src/server/coverages/status.ts, validAt), without counting
// them one by one. coverage_valid_daily holds, per UTC day, the coverages
// whose cover ends that day (the later of the period's end and the grace's
// end, not cancelled), kept at each coverage's commit by a trigger. The valid
// cover at `now` is then the days after today plus today's own rows still
// valid at `now` — an index range over two columns, a few rows. At 576 000
// coverages (250 000 of them valid) counting them took ~115 ms; this reads a
// few hundred day rows, whatever the size.
import { db, type Tx } from "@/server/db/client";

const DAY_MS = 86_400_000;

/** The number of the organization's coverages valid at `now` (the same as `coverage.count({ where: validAt(now) })`). */
export async function countValidCoverages(organizationId: string, now: Date, client: Tx | typeof db = db): Promise<number> {
  const today = now.toISOString().slice(0, 10);
  const tomorrow = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const [row] = await client.$queryRaw<{ n: bigint }[]>`
    SELECT (
      (SELECT coalesce(sum(coverages), 0) FROM coverage_valid_daily
        WHERE "organizationId" = ${organizationId} AND day > ${today}::date)
      + (SELECT count(*) FROM coverage
        WHERE "organizationId" = ${organizationId} AND "cancelledAt" IS NULL
          AND (("endsAt" > ${now}::timestamp AND "endsAt" < ${tomorrow}::timestamp)
            OR ("graceEndsAt" > ${now}::timestamp AND "graceEndsAt" < ${tomorrow}::timestamp))
          AND greatest("endsAt", coalesce("graceEndsAt", "endsAt")) > ${now}::timestamp
          AND greatest("endsAt", coalesce("graceEndsAt", "endsAt")) < ${tomorrow}::timestamp)
    )::bigint AS n`;
  return Number(row?.n ?? 0n);
}
