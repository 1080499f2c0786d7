import { PageQuery } from "@/server/pagination";
import {
  CreateWebhookInput,
  ListDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookWithSecret,
} from "@/lib/schemas/webhooks";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  sendTestEvent,
} from "@/server/webhooks/service";
import { endpoint, IdParam } from "../endpoint";

const tag = "Webhooks";

export const webhookEndpoints = [
  // POST /api/v1/business/webhooks — register an endpoint; its secret is in this response only
  endpoint({
    method: "POST",
    path: "/business/webhooks",
    operationId: "createWebhook",
    summary: "Register a webhook endpoint",
    description:
      "Events are POSTed as JSON, signed with `X-Coverdesk-Signature` (hex HMAC-SHA256 of the raw body with the secret) and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`. Failed deliveries are retried for about 3 days; a 410 answer disables the webhook.",
    tag,
    permission: "write",
    body: CreateWebhookInput,
    response: WebhookWithSecret,
    status: 201,
    handler: ({ actor, body }) => createWebhook(actor, body),
  }),
  // GET /api/v1/business/webhooks
  endpoint({
    method: "GET",
    path: "/business/webhooks",
    operationId: "listWebhooks",
    summary: "List webhook endpoints",
    tag,
    permission: "read",
    query: PageQuery,
    response: WebhookList,
    handler: ({ actor, query }) => listWebhooks(actor, query),
  }),
  // DELETE /api/v1/business/webhooks/{id} — 204
  endpoint({
    method: "DELETE",
    path: "/business/webhooks/{id}",
    operationId: "deleteWebhook",
    summary: "Delete a webhook endpoint",
    tag,
    permission: "write",
    params: IdParam,
    status: 204,
    handler: ({ actor, params }) => deleteWebhook(actor, params.id),
  }),
  // POST /api/v1/business/webhooks/{id}/test — a signed `ping`, sent now
  endpoint({
    method: "POST",
    path: "/business/webhooks/{id}/test",
    operationId: "testWebhook",
    summary: "Send a test event",
    description: "Sends a signed `ping` event to the endpoint now and answers the logged attempt.",
    tag,
    permission: "write",
    params: IdParam,
    response: WebhookDelivery,
    handler: ({ actor, params }) => sendTestEvent(actor, params.id),
  }),
  // GET /api/v1/business/webhooks/logs — one row per attempt
  endpoint({
    method: "GET",
    path: "/business/webhooks/logs",
    operationId: "listWebhookDeliveries",
    summary: "Webhook delivery logs",
    description: "One row per attempt, newest first. Filter with `webhookId`, `event` and `status` (succeeded, failed).",
    tag,
    permission: "read",
    query: ListDeliveriesQuery,
    response: WebhookDeliveryList,
    handler: ({ actor, query }) => listDeliveries(actor, query),
  }),
  // POST /api/v1/business/webhooks/deliveries/{id}/retry — send one delivery again
  endpoint({
    method: "POST",
    path: "/business/webhooks/deliveries/{id}/retry",
    operationId: "retryWebhookDelivery",
    summary: "Retry a delivery",
    description: "Sends the delivery's event to its webhook again, now, as a new attempt.",
    tag,
    permission: "write",
    params: IdParam,
    response: WebhookDelivery,
    handler: ({ actor, params }) => retryDelivery(actor, params.id),
  }),
];
