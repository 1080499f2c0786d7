/** The platform's fee on an amount: basis points, rounded half-up to the minor unit. */
export function platformFee(amountMinor: bigint, bps: number): bigint {
  return (amountMinor * BigInt(bps) + 5_000n) / 10_000n;
}
