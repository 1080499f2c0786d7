// What a renewal charges (the README: Recurring premiums).

/**
 * What a period's renewal costs: the premium of the period it renews — or a
 * new price the policyholder was told of at least 14 days before this
 * period begins (announced by src/server/renewals/service.ts announcePrice) —
 * else the policy's price.
 */
export function renewalAmount(row: {
  endsAt: Date;
  premiumMinor: bigint | null;
  nextPremiumMinor: bigint | null;
  nextPremiumFrom: Date | null;
  priceMinor: bigint;
}) {
  if (row.nextPremiumMinor !== null && row.nextPremiumFrom !== null && row.nextPremiumFrom <= row.endsAt)
    return row.nextPremiumMinor;
  return row.premiumMinor ?? row.priceMinor;
}
