// Payment links (SPEC §11): reusable public pages to buy one policy. The REST
// API and the dashboard call the same services; the public page itself is
// src/app/buy/[slug]/route.ts.
import { IdParam } from "@/lib/schemas/ids";
import {
  CreatePaymentLinkInput,
  ListPaymentLinksQuery,
  PaymentLink,
  PaymentLinkList,
  UpdatePaymentLinkInput,
} from "@/lib/schemas/payment-links";
import { createPaymentLink, getPaymentLink, listPaymentLinks, updatePaymentLink } from "@/server/payment-links/service";
import { operation } from "./operation";

const tag = "Payment links";

export const paymentLinkOperations = [
  // GET /api/v1/business/payment-links — newest first, with their figures
  operation({
    name: "paymentLinks.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListPaymentLinksQuery,
    output: PaymentLinkList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/payment-links",
      operationId: "listPaymentLinks",
      summary: "List payment links",
      description:
        "Newest first; filter with `policyId` and `active`. Each carries its figures: `views` of its page, payments `started` from it, successful `payments` and their `revenue`.",
      tag,
      query: ListPaymentLinksQuery,
    },
    handler: ({ actor, input }) => listPaymentLinks(actor, input),
  }),
  // POST /api/v1/business/payment-links — a new link to a policy
  operation({
    name: "paymentLinks.create",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: CreatePaymentLinkInput,
    output: PaymentLink,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/payment-links",
      operationId: "createPaymentLink",
      summary: "Create a payment link",
      description:
        "A public page (`url`, `<APP_URL>/buy/<slug>`) anyone can open to buy the policy: it shows the policy in your branding, asks the customer's name, email and (with `collectPhone`) phone, and starts a payment through the hosted checkout. Make as many per policy as you like (one per campaign or agent). A test-mode link takes test cards only. A link whose policy is not on sale answers 410 on its page.",
      tag,
      body: CreatePaymentLinkInput,
      status: 201,
    },
    handler: ({ actor, input }) => createPaymentLink(actor, input),
  }),
  // GET /api/v1/business/payment-links/{id}
  operation({
    name: "paymentLinks.get",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: PaymentLink,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/payment-links/{id}",
      operationId: "getPaymentLink",
      summary: "Get a payment link",
      tag,
      params: IdParam,
    },
    handler: ({ actor, input }) => getPaymentLink(actor, input.id),
  }),
  // PATCH /api/v1/business/payment-links/{id} — turn off or on, rename, change what it asks
  operation({
    name: "paymentLinks.update",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam.extend({ data: UpdatePaymentLinkInput }),
    output: PaymentLink,
    dashboard: true,
    rest: {
      method: "PATCH",
      path: "/business/payment-links/{id}",
      operationId: "updatePaymentLink",
      summary: "Update a payment link",
      description: "`active: false` turns the link off: its page then says the cover is no longer available there (410).",
      tag,
      params: IdParam,
      body: UpdatePaymentLinkInput,
      input: ({ params, body }) => ({ id: params.id, data: body }),
    },
    handler: ({ actor, input }) => updatePaymentLink(actor, input.id, input.data),
  }),
];
