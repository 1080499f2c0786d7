// What the coverage jobs (the lifecycle, the renewals) share: the tests'
// organization scope over `coverage c`, and running a batch until a short one.
import { Prisma } from "@/generated/prisma/client";

export interface CoverageJobOptions {
  /** Only these organizations' coverages (the tests' own, on a database other tests share). */
  organizationIds?: string[];
}

/** `AND c."organizationId" IN (…)` when the run is limited to some organizations (none: nothing). */
export const coverageScope = (opts: CoverageJobOptions) =>
  opts.organizationIds
    ? opts.organizationIds.length
      ? Prisma.sql`AND c."organizationId" IN (${Prisma.join(opts.organizationIds)})`
      : Prisma.sql`AND false`
    : Prisma.empty;

/** Runs `batch` until one claims fewer than `size` rows; returns the sum of what they did. */
export async function untilShort(size: number, batch: () => Promise<{ claimed: number; done: number }>): Promise<number> {
  let done = 0;
  for (;;) {
    const b = await batch();
    done += b.done;
    if (b.claimed < size) return done;
  }
}
