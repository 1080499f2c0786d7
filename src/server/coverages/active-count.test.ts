// The valid-cover count from the day rollup (coverage_valid_daily, kept by a
// trigger at each coverage's commit) is the count of the rows themselves —
// through purchases, renewals that move the end, a grace period opened and
// closed, cancellations and reinstatements, deletions, several changes in one
// transaction and one rolled back — at every moment around the ends (1 ms
// before, at, after) and across UTC midnight; and the ledger check finds a
// rollup that no longer agrees.
import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { checkLedger } from "@/server/ledger/check";
import { ownerWithOrganization, unique } from "@/test/fixtures";
import { countValidCoverages } from "./active-count";
import { validAt } from "./status";

const DAY = 86_400_000;

async function setup() {
  const { actor } = await ownerWithOrganization();
  const policy = await db.policy.create({
    data: {
      organizationId: actor.organizationId,
      name: `Cover ${unique()}`,
      type: "property",
      duration: "monthly",
      priceMinor: 1000n,
      currency: "NGN",
    },
  });
  const organizationId = actor.organizationId;
  const add = (endsAt: Date, extra: { graceEndsAt?: Date | null; cancelledAt?: Date | null } = {}) =>
    db.coverage.create({
      data: {
        organizationId,
        policyId: policy.id,
        customerEmail: `c-${unique()}@example.test`,
        startsAt: new Date(endsAt.getTime() - 30 * DAY),
        periodStartsAt: new Date(endsAt.getTime() - 30 * DAY),
        endsAt,
        ...extra,
      },
    });
  return { organizationId, add };
}

/** The rollup's count and the rows' own count at `now`: they must be equal. */
async function both(organizationId: string, now: Date) {
  return [
    await countValidCoverages(organizationId, now),
    await db.coverage.count({ where: { organizationId, ...validAt(now) } }),
  ];
}

/** Checks the two counts agree at each moment, and returns the rollup's counts. */
async function agreeAt(organizationId: string, moments: Date[]): Promise<number[]> {
  const counts: number[] = [];
  for (const m of moments) {
    const [rollup, rows] = await both(organizationId, m);
    expect(rollup, `at ${m.toISOString()}`).toBe(rows);
    counts.push(rollup!);
  }
  return counts;
}

describe("the valid-cover count from coverage_valid_daily", () => {
  it("equals the rows' count through every kind of change, at and around each end and across midnight", async () => {
    const { organizationId, add } = await setup();
    const midnight = new Date(Math.ceil(Date.now() / DAY) * DAY + 10 * DAY); // a UTC midnight ten days on
    const noon = new Date(midnight.getTime() + 12 * 3_600_000);
    const a = await add(midnight); // ends exactly at midnight
    const b = await add(noon); // ends at noon the same day
    const c = await add(new Date(midnight.getTime() - 1)); // 1 ms before midnight: the day before
    await add(new Date(Date.now() - DAY)); // already ended
    await add(new Date(Date.now() + 40 * DAY), { cancelledAt: new Date() }); // cancelled: never counted
    const around = (t: Date) => [new Date(t.getTime() - 1), t, new Date(t.getTime() + 1)];
    const moments = () => [new Date(), ...around(midnight), ...around(noon), ...around(new Date(midnight.getTime() - 1))];
    expect(await agreeAt(organizationId, [new Date(), ...around(midnight), ...around(noon)])).toEqual([3, 2, 1, 1, 1, 0, 0]);

    // A renewal moves the end a month on; a grace period keeps an ended cover valid, then closes.
    await db.coverage.update({ where: { id: a.id }, data: { endsAt: new Date(midnight.getTime() + 30 * DAY) } });
    await db.coverage.update({ where: { id: b.id }, data: { graceEndsAt: new Date(noon.getTime() + 7 * DAY) } });
    await agreeAt(organizationId, [...moments(), new Date(noon.getTime() + 7 * DAY - 1), new Date(noon.getTime() + 7 * DAY)]);
    await db.coverage.update({ where: { id: b.id }, data: { graceEndsAt: null } });
    await agreeAt(organizationId, moments());

    // Cancelled, then bought again (cancelledAt cleared, a new end); then deleted.
    await db.coverage.update({ where: { id: c.id }, data: { cancelledAt: new Date() } });
    expect((await both(organizationId, new Date()))[0]).toBe(2);
    await db.coverage.update({
      where: { id: c.id },
      data: { cancelledAt: null, endsAt: new Date(midnight.getTime() + 5 * DAY) },
    });
    await agreeAt(organizationId, moments());
    await db.coverage.delete({ where: { id: b.id } });
    await agreeAt(organizationId, moments());

    // Several changes to one row in one transaction count once; a rolled-back one not at all.
    await db.$transaction(async (tx) => {
      await tx.coverage.update({ where: { id: a.id }, data: { endsAt: new Date(midnight.getTime() + 60 * DAY) } });
      await tx.coverage.update({ where: { id: a.id }, data: { graceEndsAt: new Date(midnight.getTime() + 67 * DAY) } });
      await tx.coverage.update({ where: { id: a.id }, data: { endsAt: new Date(midnight.getTime() + 90 * DAY) } });
    });
    await expect(
      db.$transaction(async (tx) => {
        await tx.coverage.update({ where: { id: c.id }, data: { cancelledAt: new Date() } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await agreeAt(organizationId, moments())).toEqual(Array(moments().length).fill(2));
    // (The purchase rollups keep the deleted row's purchase, as they keep history: only this rollup is asked about.)
    const problems = (await checkLedger(organizationId)).problems.map((p) => p.message);
    expect(problems.filter((m) => m.startsWith("coverage_valid_daily"))).toEqual([]);
  });

  it("the ledger check names a day whose rollup no longer agrees with the coverages", async () => {
    const { organizationId, add } = await setup();
    const end = new Date(Math.ceil(Date.now() / DAY) * DAY + 3 * DAY + 5_000);
    await add(end);
    expect((await checkLedger(organizationId)).problems).toEqual([]);
    await db.$executeRaw`UPDATE coverage_valid_daily SET coverages = coverages + 2 WHERE "organizationId" = ${organizationId}`;
    expect((await checkLedger(organizationId)).problems.map((p) => p.message)).toEqual([
      `coverage_valid_daily ${end.toISOString().slice(0, 10)}: 3 coverages ≠ the 1 whose cover ends that day`,
    ]);
  });
});
