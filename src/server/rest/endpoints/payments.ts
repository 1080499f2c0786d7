import { certificateResponse, coverageCertificate } from "@/server/coverages/certificate";
import { CoverageList, ListCoveragesQuery } from "@/lib/schemas/coverages";
import { listCoverages } from "@/server/coverages/service";
import {
  InitializePaymentInput,
  ListPaymentsQuery,
  Payment,
  PaymentList,
  ReferenceParam,
  VerifiedPayment,
} from "@/lib/schemas/payments";
import { initializePayment, listPayments, verifyPayment } from "@/server/payments/service";
import { endpoint, IdParam } from "../endpoint";

export const paymentEndpoints = [
  // GET /api/v1/payments — payments, newest first
  endpoint({
    method: "GET",
    path: "/payments",
    operationId: "listPayments",
    summary: "List payments",
    tag: "Payments",
    permission: "read",
    query: ListPaymentsQuery,
    response: PaymentList,
    handler: ({ actor, query }) => listPayments(actor, query),
  }),
  // POST /api/v1/payments/initialize — a payment for a policy, paid on the hosted checkout
  endpoint({
    method: "POST",
    path: "/payments/initialize",
    operationId: "initializePayment",
    summary: "Initialize a payment",
    description:
      "Creates a pending payment for a policy and answers its `authorizationUrl`: send the customer there to pay. `amount` must equal the policy's price (422 `amount_mismatch`); an inactive policy answers 409 `policy_inactive`.",
    tag: "Payments",
    permission: "write",
    body: InitializePaymentInput,
    response: Payment,
    status: 201,
    errors: ["policy_inactive"],
    handler: ({ actor, body }) => initializePayment(actor, body),
  }),
  // GET /api/v1/payments/verify/{reference} — the payment, with the coverage once paid
  endpoint({
    method: "GET",
    path: "/payments/verify/{reference}",
    operationId: "verifyPayment",
    summary: "Verify a payment",
    tag: "Payments",
    permission: "read",
    params: ReferenceParam,
    response: VerifiedPayment,
    handler: ({ actor, params }) => verifyPayment(actor, params.reference),
  }),
  // GET /api/v1/business/coverages — customers' coverages
  endpoint({
    method: "GET",
    path: "/business/coverages",
    operationId: "listCoverages",
    summary: "List customers' coverages",
    description: "One per (policy, customer email): created by the first successful payment, extended by each renewal.",
    tag: "Coverages",
    permission: "read",
    query: ListCoveragesQuery,
    response: CoverageList,
    handler: ({ actor, query }) => listCoverages(actor, query),
  }),
  // GET /api/v1/business/coverages/{id}/certificate — the coverage's certificate of insurance (PDF)
  endpoint({
    method: "GET",
    path: "/business/coverages/{id}/certificate",
    operationId: "getCoverageCertificate",
    summary: "Download a certificate of insurance",
    description:
      "The coverage's certificate of insurance as a PDF (`Content-Disposition: attachment`), made now from the coverage as it stands: the business, the policy with what it covers and excludes, the policyholder, the coverage and certificate numbers, the period, renewals, and the URL where anyone can check it (`/verify/{certificateNumber}`). A test-mode certificate says it is not valid cover.",
    tag: "Coverages",
    permission: "read",
    params: IdParam,
    file: { contentTypes: ["application/pdf"], description: "The certificate, as an attachment" },
    handler: async ({ actor, params }) => certificateResponse(await coverageCertificate(actor, params.id)),
  }),
];
