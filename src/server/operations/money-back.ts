// Money back to the insured: refunds of payments, cancellations of coverages,
// claim payouts, and the banks
// and account names a payout needs. The REST API and the dashboard call the
// same services; every one of them takes the organization's balance lock
// (src/server/ledger/balance.ts) with withdrawals.
import {
  BankList,
  ClaimPayout,
  ClaimPayoutList,
  PayClaimInput,
  ResolveAccountQuery,
  ResolvedAccount,
} from "@/lib/schemas/claim-payouts";
import { CancelCoverageInput, CancellationQuote, CancelledCoverage, Coverage } from "@/lib/schemas/coverages";
import { IdParam } from "@/lib/schemas/ids";
import { ReferenceParam } from "@/lib/schemas/payments";
import { ListRefundsQuery, Refund, RefundList, RefundPaymentInput } from "@/lib/schemas/refunds";
import { listBanks, listClaimPayouts, payClaim, resolveBankAccount } from "@/server/claim-payouts/service";
import { cancelCoverage, getCancellationQuote, getCoverage } from "@/server/coverages/cancel";
import { listRefunds, refundPayment } from "@/server/refunds/service";
import { operation } from "./operation";

export const moneyBackOperations = [
  // GET /api/v1/business/coverages/{id} — one coverage
  operation({
    name: "coverages.get",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: Coverage,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/coverages/{id}",
      operationId: "getCoverage",
      summary: "Get a coverage",
      tag: "Coverages",
      params: IdParam,
    },
    handler: ({ actor, input }) => getCoverage(actor, input.id),
  }),
  // GET /api/v1/business/coverages/{id}/cancellation-quote — what cancelling now would refund
  operation({
    name: "cancellations.quote",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: CancellationQuote,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/coverages/{id}/cancellation-quote",
      operationId: "getCancellationQuote",
      summary: "Quote a cancellation",
      description:
        "What cancelling the coverage now would refund, and by which rule: within the cooling-off days (`settings.coverage.coolingOffDays`, default 14) of the current period's start the whole premium of that period (`cooling_off`); later the period's unused whole days, pro rata, rounded down (`pro_rata`); nothing when a claim on this coverage was approved or paid in the period (`claim_on_cover`). A cancelled or ended coverage → 409 `invalid_state`.",
      tag: "Coverages",
      params: IdParam,
      errors: ["invalid_state"],
    },
    handler: ({ actor, input }) => getCancellationQuote(actor, input.id),
  }),
  // POST /api/v1/business/coverages/{id}/cancel — cancel, refunding by the rule (or not)
  operation({
    name: "cancellations.create",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam.extend({ data: CancelCoverageInput }),
    output: CancelledCoverage,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/coverages/{id}/cancel",
      operationId: "cancelCoverage",
      summary: "Cancel a coverage",
      description:
        'Cancels the coverage now and, with `refund: "auto"` (the default), refunds what the cancellation quote says to the payment that bought the period, in the same transaction (a Refund, as `POST /payments/{reference}/refund` makes). A cancelled coverage gets no reminders and no expiry event, cannot be renewed (409 `coverage_cancelled`), and its certificate and verification page say cancelled; a later purchase of the policy by the same email starts a new period. A cancelled or ended coverage → 409 `invalid_state`; a refund the available balance cannot cover → 409 `insufficient_funds` and nothing changes (cancel with `refund: "none"` instead). Event `coverage.cancelled`. Owner or admin only. Send an `Idempotency-Key` to retry safely.',
      tag: "Coverages",
      params: IdParam,
      body: CancelCoverageInput,
      errors: ["invalid_state", "insufficient_funds"],
      input: ({ params, body }) => ({ id: params.id, data: body }),
    },
    handler: ({ actor, input }) => cancelCoverage(actor, input.id, input.data),
  }),
  // POST /api/v1/payments/{reference}/refund — full (default) or partial
  operation({
    name: "refunds.create",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: ReferenceParam.extend({ data: RefundPaymentInput }),
    output: Refund,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/payments/{reference}/refund",
      operationId: "refundPayment",
      summary: "Refund a payment",
      description:
        "Gives money back to the customer through the provider that took the payment: `amount` defaults to what is left to refund. Checked in this order: the payment is `success` (else 409 `invalid_state`), `amount` ≤ what is left (else 422), `amount` ≤ the available balance (else 409 `insufficient_funds`). The amount leaves the balance at once (ledger `refund`); the platform fee is not returned. The refund is `pending`, then `processed` (event `payment.refunded`) or `failed` (the amount comes back, ledger `refund_reversal`). Owner or admin only. Send an `Idempotency-Key` to retry safely.",
      tag: "Payments",
      params: ReferenceParam,
      // No body at all refunds what is left.
      body: RefundPaymentInput.optional(),
      status: 201,
      errors: ["invalid_state", "insufficient_funds"],
      input: ({ params, body }) => ({ reference: params.reference, data: body ?? {} }),
    },
    handler: ({ actor, input }) => refundPayment(actor, input.reference, input.data),
  }),
  // GET /api/v1/business/refunds — newest first
  operation({
    name: "refunds.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListRefundsQuery,
    output: RefundList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/refunds",
      operationId: "listRefunds",
      summary: "List refunds",
      description: "The organization's refunds, newest first; filter by `status` or `paymentReference`.",
      tag: "Payments",
      query: ListRefundsQuery,
    },
    handler: ({ actor, input }) => listRefunds(actor, input),
  }),
  // POST /api/v1/claims/{id}/payout — pay an approved claim to the claimant's account
  operation({
    name: "claimPayouts.create",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam.extend({ data: PayClaimInput }),
    output: ClaimPayout,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/claims/{id}/payout",
      operationId: "payClaim",
      summary: "Pay a claim",
      description:
        "Sends an approved claim's money to the claimant's bank account (`bankCode` from `GET /business/payment-methods/banks`); the account holder's name is resolved at the bank first (unknown → 422). `amount` defaults to the approved amount. Checked in this order: the claim is `approved` (else 409 `invalid_state`), KYB approved in live mode (else 409 `kyb_not_approved`), no payout of the claim pending, processing or paid (else 409 `payout_exists`), `amount` ≤ the approved amount (else 422), `amount` ≤ the available balance (else 409 `insufficient_funds`). The amount leaves the balance at once (ledger `claim_payout`). `pending` → `processing` → `paid` (the claim becomes `paid`: events `claim.updated` and `claim.paid`) or `failed` (the amount comes back, ledger `claim_payout_reversal`; the claim stays `approved` and can be paid again). Owner or admin only.",
      tag: "Claims",
      params: IdParam,
      body: PayClaimInput,
      status: 201,
      errors: ["invalid_state", "kyb_not_approved", "payout_exists", "insufficient_funds", "provider_error"],
      input: ({ params, body }) => ({ id: params.id, data: body }),
    },
    handler: ({ actor, input }) => payClaim(actor, input.id, input.data),
  }),
  // GET /api/v1/claims/{id}/payouts — newest first
  operation({
    name: "claimPayouts.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: ClaimPayoutList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/claims/{id}/payouts",
      operationId: "listClaimPayouts",
      summary: "List a claim's payouts",
      description: "Every payout of the claim, newest first: a failed one and the one that paid it again.",
      tag: "Claims",
      params: IdParam,
    },
    handler: ({ actor, input }) => listClaimPayouts(actor, input.id),
  }),
  // GET /api/v1/business/payment-methods/banks — where money can be sent
  operation({
    name: "banks.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    output: BankList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/payment-methods/banks",
      operationId: "listBanks",
      summary: "List banks",
      description:
        "The banks a claim payout can be sent to, with the codes `bankCode` takes: the payout provider's list (Paystack's in live mode with Paystack; the sandbox lists Nigeria's main banks).",
      tag: "Payouts",
      errors: ["provider_error"],
    },
    handler: ({ actor }) => listBanks(actor),
  }),
  // GET /api/v1/business/payment-methods/resolve — the account holder's name
  operation({
    name: "banks.resolve",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ResolveAccountQuery,
    output: ResolvedAccount,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/payment-methods/resolve",
      operationId: "resolveAccount",
      summary: "Resolve an account name",
      description:
        "The name the bank holds for an account number, to show before paying it. An unknown bank or account → 422. The sandbox answers the same made-up name for the same account every time, and knows no account number ending in 0000.",
      tag: "Payouts",
      query: ResolveAccountQuery,
      queryError: "validation_failed",
      errors: ["provider_error"],
    },
    handler: ({ actor, input }) => resolveBankAccount(actor, input),
  }),
] as const;
