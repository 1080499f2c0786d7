// The hosted checkout's own routes: no API key (the payment reference is the
// capability), the REST API's body rules (API_MAX_BODY_BYTES, JSON only) and
// its problem+json errors.
import { CheckoutInput, ReferenceParam } from "@/lib/schemas/payments";
import { payWithCard, retryPayment } from "@/server/payments/checkout";
import { operation } from "./operation";

export const checkoutOperations = [
  // POST /api/checkout/{reference} — the card form pays a sandbox payment
  operation({
    name: "checkout.pay",
    auth: ["payment"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/checkout/{reference}",
      params: ReferenceParam,
      body: CheckoutInput,
      bodyRequired: true,
      sameOrigin: false,
      headers: { "Cache-Control": "no-store" },
    },
    handler: ({ input: { reference, ...card } }) => payWithCard(reference, card),
  }),
  // POST /api/checkout/{reference}/retry — a new payment, with the same provider, after a failed one
  operation({
    name: "checkout.retry",
    auth: ["payment"],
    permission: "write",
    kind: "mutation",
    http: {
      method: "POST",
      path: "/api/checkout/{reference}/retry",
      params: ReferenceParam,
      sameOrigin: false,
      headers: { "Cache-Control": "no-store" },
    },
    handler: ({ input }) => retryPayment(input.reference),
  }),
] as const;
