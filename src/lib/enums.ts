// The domain's value lists — the one source for the server's schemas and the
// dashboard's filters, selects and checkboxes. They live here, free of any
// import, so client code can use them without pulling a server module into
// the browser (zod and every schema it reaches, or Node's `crypto` polyfill
// behind the outbox).

export const POLICY_TYPES = ["auto", "home", "health", "life", "travel", "property", "liability", "business", "other"] as const;
export const POLICY_DURATIONS = ["monthly", "quarterly", "yearly"] as const;
export const CLAIM_TYPES = ["accident", "theft", "fire", "flood", "medical", "liability", "other"] as const;
export const CLAIM_STATUSES = ["submitted", "under_review", "approved", "rejected", "paid"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
/** The review moves: submitted → under_review → approved / rejected; approved → paid. */
export const CLAIM_MOVES: Record<ClaimStatus, ClaimStatus[]> = {
  submitted: ["under_review"],
  under_review: ["approved", "rejected"],
  approved: ["paid"],
  rejected: [],
  paid: [],
};
/** The most files one claim can hold as evidence, however they were added (API, dashboard, portal). */
export const MAX_CLAIM_ATTACHMENTS = 5;
export const PAYMENT_STATUSES = ["pending", "success", "failed"] as const;
/** The events a webhook endpoint can subscribe to. */
export const EVENT_TYPES = [
  "policy.purchased",
  "policy.renewed",
  "claim.submitted",
  "payment.completed",
  "coverage.expiring",
  "coverage.expired",
  "claim.updated",
  "claim.paid",
  "payment.refunded",
  "coverage.cancelled",
  "payment.failed",
  "coverage.updated",
] as const;
