// A withdrawal's reference is its transfer reference at the provider, and the
// reference of its ledger entries. A retry (src/server/admin/payouts.ts) needs
// a NEW one — Paystack refuses a transfer reference it has seen — so it gets
// `${base}-r${n}`: wd_…, then wd_…-r1, wd_…-r2, …
//
// For the ledger check: a withdrawal whose reference is R-rN owns the entries
// of R, R-r1, …, R-rN. Group entries by baseReference(entry.reference) and
// match them to baseReference(withdrawal.reference): debits = retries + 1,
// reversals = failures (debits − 1, or debits when it is failed now).
const RETRY_SUFFIX = /-r(\d+)$/;

/** The withdrawal's first reference, before any retry. */
export const baseReference = (reference: string) => reference.replace(RETRY_SUFFIX, "");

/** The reference of the next retry: R → R-r1 → R-r2 … */
export function retryReference(reference: string): string {
  const n = Number(RETRY_SUFFIX.exec(reference)?.[1] ?? 0) + 1;
  return `${baseReference(reference)}-r${n}`;
}
