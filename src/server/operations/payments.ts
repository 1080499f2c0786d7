// Payments, coverages and customers: the REST API and the dashboard call the same services.
import { CustomerReminderList, SimulateEndBody, SimulateEndInput } from "@/lib/schemas/coverage-reminders";
import { Coverage, CoverageList, ListCoveragesQuery, UpdateCoverageBody, UpdateCoverageInput } from "@/lib/schemas/coverages";
import { ListRenewalsQuery, RenewalList, RenewalSummary } from "@/lib/schemas/renewals";
import { listRenewals, renewalSummary, setAutoRenew } from "@/server/renewals/service";
import { Customer, CustomerDetail, CustomerList, ListCustomersQuery } from "@/lib/schemas/customers";
import { IdParam } from "@/lib/schemas/ids";
import {
  InitializePaymentInput,
  ListPaymentsQuery,
  Payment,
  PaymentDetail,
  PaymentFilters,
  PaymentList,
  PaymentRowList,
  PaymentTotals,
  ReferenceParam,
  SearchPaymentsQuery,
  VerifiedPayment,
} from "@/lib/schemas/payments";
import { certificateResponse, coverageCertificate } from "@/server/coverages/certificate";
import { listCustomerReminders, simulateCoverageEnd } from "@/server/coverages/reminders";
import { listCoverages } from "@/server/coverages/service";
import { getCustomer, getCustomerSummary, listCustomers } from "@/server/customers/service";
import { getPaymentDetail, paymentTotals, searchPayments } from "@/server/payments/search";
import { initializePayment, listPayments, verifyPayment } from "@/server/payments/service";
import { operation } from "./operation";

export const paymentOperations = [
  // GET /api/v1/payments — payments, newest first
  operation({
    name: "payments.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListPaymentsQuery,
    output: PaymentList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/payments",
      operationId: "listPayments",
      summary: "List payments",
      tag: "Payments",
      query: ListPaymentsQuery,
    },
    handler: ({ actor, input }) => listPayments(actor, input),
  }),
  // POST /api/v1/payments/initialize — a payment for a policy, paid on the hosted checkout
  operation({
    name: "payments.initialize",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: InitializePaymentInput,
    output: Payment,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/payments/initialize",
      operationId: "initializePayment",
      summary: "Initialize a payment",
      description:
        "Creates a pending payment for a policy and answers its `authorizationUrl`: send the customer there to pay. `amount` must equal the policy's price (422 `amount_mismatch`); an inactive policy answers 409 `policy_inactive`.",
      tag: "Payments",
      body: InitializePaymentInput,
      status: 201,
      errors: ["policy_inactive"],
    },
    handler: ({ actor, input }) => initializePayment(actor, input),
  }),
  // GET /api/v1/payments/verify/{reference} — the payment, with the coverage once paid
  operation({
    name: "payments.verify",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ReferenceParam,
    output: VerifiedPayment,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/payments/verify/{reference}",
      operationId: "verifyPayment",
      summary: "Verify a payment",
      tag: "Payments",
      params: ReferenceParam,
    },
    handler: ({ actor, input }) => verifyPayment(actor, input.reference),
  }),
  // GET /api/v1/business/coverages — customers' coverages
  operation({
    name: "coverages.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListCoveragesQuery,
    output: CoverageList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/coverages",
      operationId: "listCoverages",
      summary: "List customers' coverages",
      description: "One per (policy, customer email): created by the first successful payment, extended by each renewal.",
      tag: "Coverages",
      query: ListCoveragesQuery,
    },
    handler: ({ actor, input }) => listCoverages(actor, input),
  }),
  // GET /api/v1/business/coverages/{id}/certificate — the coverage's certificate of insurance (PDF);
  // the dashboard downloads it at GET /api/coverages/{id}/certificate, as the signed-in member in their
  // active organization and mode (a coverage of another organization or the other mode: 404). A plain GET
  // so that the browser downloads the file itself; a cross-site page can start that download but never read it.
  operation({
    name: "coverages.certificate",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    rest: {
      method: "GET",
      path: "/business/coverages/{id}/certificate",
      operationId: "getCoverageCertificate",
      summary: "Download a certificate of insurance",
      description:
        "The coverage's certificate of insurance as a PDF (`Content-Disposition: attachment`), made now from the coverage as it stands: the business, the policy with what it covers and excludes, the policyholder, the coverage and certificate numbers, the period, renewals, and the URL where anyone can check it (`/verify/{certificateNumber}`). A test-mode certificate says it is not valid cover.",
      tag: "Coverages",
      params: IdParam,
      file: { contentTypes: ["application/pdf"], description: "The certificate, as an attachment" },
    },
    http: {
      method: "GET",
      path: "/api/coverages/{id}/certificate",
      auth: ["session"],
      params: IdParam,
      headers: { "Cache-Control": "private, no-store", "Cross-Origin-Resource-Policy": "same-origin" },
    },
    handler: async ({ actor, input }) => certificateResponse(await coverageCertificate(actor, input.id)),
  }),
  // PATCH /api/v1/business/coverages/{id} — auto-renew on or off
  operation({
    name: "coverages.update",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: UpdateCoverageInput,
    output: Coverage,
    dashboard: true,
    rest: {
      method: "PATCH",
      path: "/business/coverages/{id}",
      operationId: "updateCoverage",
      summary: "Switch a coverage's automatic renewal",
      description:
        "`autoRenew: false` stops the renewal charges: the cover ends at `endsAt` (during a `past_due` grace period: now). `autoRenew: true` needs the policyholder's saved card (they agreed at the checkout) and valid cover, else 409 `invalid_state`. Writes `coverage.updated`; the same value again changes nothing.",
      tag: "Coverages",
      params: IdParam,
      body: UpdateCoverageBody,
      errors: ["invalid_state"],
      input: ({ params, body }) => ({ id: params.id, autoRenew: body.autoRenew }),
    },
    handler: ({ actor, input }) => setAutoRenew(actor, input),
  }),
  // GET /api/v1/business/renewals — the Renewals view
  operation({
    name: "renewals.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListRenewalsQuery,
    output: RenewalList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/renewals",
      operationId: "listRenewals",
      summary: "List renewals",
      description:
        "Auto-renewing covers by `view`: `due` (period ends in the next 7 days, soonest first), `past_due` (renewal declined, in the grace period, soonest lapse first, with the attempts so far, the next try and the last decline's reason) or `recovered` (renewals paid after a decline, latest first).",
      tag: "Coverages",
      query: ListRenewalsQuery,
    },
    handler: ({ actor, input }) => listRenewals(actor, input),
  }),
  // GET /api/v1/business/renewals/summary — recurring premium and the renewal figures
  operation({
    name: "renewals.summary",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    output: RenewalSummary,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/renewals/summary",
      operationId: "getRenewalSummary",
      summary: "Recurring premium and renewal figures",
      description:
        "The recurring premium per month of valid auto-renewing covers (monthly premiums, quarterly / 3, yearly / 12), how many renew in the next 7 days, are past due, or recovered in the last 30 days, and the renewal charges paid per month over the last 6 months.",
      tag: "Coverages",
    },
    handler: ({ actor }) => renewalSummary(actor),
  }),
  /** Test mode only (409 test_mode_only live): the coverage ends in N days; the worker, woken by the mutation, does the rest. */
  operation({
    name: "coverages.simulateEnd",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: SimulateEndInput,
    output: Coverage,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/coverages/{id}/simulate-end",
      operationId: "simulateCoverageEnd",
      summary: "Simulate the end of a coverage (test mode)",
      description:
        "A test clock: the coverage's current period now ends `endsInDays` days from now (0, the default: now), and the next worker pass runs what is due — renewal reminders at their days before the end, `coverage.expiring`, an auto-renewing cover's renewal charge (sandbox card 4242… renews, `policy.renewed`; 4000 0000 0000 0341 declines, `payment.failed`, the cover is `past_due`), and `coverage.expired` once it has ended. On a `past_due` cover (its renewal declined) with `endsInDays` 0 or less, the grace period ends now instead: no more tries, and the next pass writes `coverage.expired`. Test keys only: a live key → 409 `test_mode_only` (another organization's coverage → 404 first).",
      tag: "Coverages",
      params: IdParam,
      // No body at all ends the period now.
      body: SimulateEndBody.optional(),
      errors: ["test_mode_only"],
      input: ({ params, body }) => ({ coverageId: params.id, endsInDays: body?.endsInDays ?? 0 }),
    },
    handler: ({ actor, input }) => simulateCoverageEnd(actor, input),
  }),

  // The dashboard's Payments page: filters, search, policy names, fee and net.
  operation({
    name: "payments.search",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: SearchPaymentsQuery,
    output: PaymentRowList,
    dashboard: true,
    handler: ({ actor, input }) => searchPayments(actor, input),
  }),
  operation({
    name: "payments.totals",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: PaymentFilters,
    output: PaymentTotals,
    dashboard: true,
    handler: ({ actor, input }) => paymentTotals(actor, input),
  }),
  operation({
    name: "payments.detail",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: ReferenceParam,
    output: PaymentDetail,
    dashboard: true,
    handler: ({ actor, input }) => getPaymentDetail(actor, input.reference),
  }),
  // GET /api/v1/business/customers
  operation({
    name: "customers.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListCustomersQuery,
    output: CustomerList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/customers",
      operationId: "listCustomers",
      summary: "List customers",
      description:
        "The people who paid for a policy, one per email, newest first: their successful payments, `totalPaid` net of refunds, and the coverages they hold. `q` searches the email and name (case-insensitive).",
      tag: "Customers",
      query: ListCustomersQuery,
    },
    handler: ({ actor, input }) => listCustomers(actor, input),
  }),
  // GET /api/v1/business/customers/{id}
  operation({
    name: "customers.getCustomer",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: Customer,
    rest: {
      method: "GET",
      path: "/business/customers/{id}",
      operationId: "getCustomer",
      summary: "Get a customer",
      description: "One customer's totals (another organization's: 404).",
      tag: "Customers",
      params: IdParam,
    },
    handler: ({ actor, input }) => getCustomerSummary(actor, input.id),
  }),
  operation({
    name: "customers.get",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: CustomerDetail,
    dashboard: true,
    handler: ({ actor, input }) => getCustomer(actor, input.id),
  }),
  /** The renewal reminders of the customer's coverages, with their mail's state. */
  operation({
    name: "customers.reminders",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: CustomerReminderList,
    dashboard: true,
    handler: ({ actor, input }) => listCustomerReminders(actor, input.id),
  }),
] as const;
