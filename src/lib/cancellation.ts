// The rule of a cancellation quote in words, for the business (dashboard) and
// the policyholder (portal) alike.
import type { CancellationQuote } from "@/lib/schemas/coverages";

export function ruleSentence(q: CancellationQuote): string {
  switch (q.rule) {
    case "cooling_off":
      return `Cancelled within ${q.coolingOffDays} days of the period's start: the whole premium of the period is refunded.`;
    case "pro_rata":
      return `${q.periodDays - q.usedDays} of the period's ${q.periodDays} days are unused: that share of the premium is refunded.`;
    case "claim_on_cover":
      return "A claim on this cover was approved or paid in this period, so nothing is refunded.";
  }
}
