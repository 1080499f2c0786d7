// The claims list's filters, read from the page's address: the same on the
// server (the page loads the first page of claims with the HTML) and in the
// browser (ClaimsView), so both ask for the same query.
import { CLAIM_STATUSES, CLAIM_TYPES } from "@/lib/enums";

export const CLAIM_FILTERS = ["q", "status", "type", "policyId"] as const;

const pick = <T extends string>(values: readonly T[], v: string) => ((values as readonly string[]).includes(v) ? (v as T) : undefined);

export function claimFilters(f: Record<(typeof CLAIM_FILTERS)[number], string>) {
  return {
    q: f.q || undefined,
    status: pick(CLAIM_STATUSES, f.status),
    type: pick(CLAIM_TYPES, f.type),
    policyId: f.policyId || undefined,
  };
}
