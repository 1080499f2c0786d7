// Webhooks: the REST API and the dashboard call the same services.
import { z } from "@/lib/messages";
import { IdParam } from "@/lib/schemas/ids";
import {
  CreateWebhookInput,
  ListDeliveriesQuery,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookList,
  WebhookWithSecret,
} from "@/lib/schemas/webhooks";
import { PageQuery } from "@/server/pagination";
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  sendTestEvent,
  setWebhookStatus,
} from "@/server/webhooks/service";
import { operation } from "./operation";

const tag = "Webhooks";

export const webhookOperations = [
  // POST /api/v1/business/webhooks — register an endpoint; its secret is in this response only
  operation({
    name: "webhooks.create",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: CreateWebhookInput,
    output: WebhookWithSecret,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/webhooks",
      operationId: "createWebhook",
      summary: "Register a webhook endpoint",
      description:
        "Events are POSTed as JSON, signed with `X-Coverdesk-Signature` (hex HMAC-SHA256 of the raw body with the secret) and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`. Failed deliveries are retried for about 3 days; a 410 answer disables the webhook.",
      tag,
      body: CreateWebhookInput,
      status: 201,
    },
    handler: ({ actor, input }) => createWebhook(actor, input),
  }),
  // GET /api/v1/business/webhooks
  operation({
    name: "webhooks.list",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: PageQuery,
    output: WebhookList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/webhooks",
      operationId: "listWebhooks",
      summary: "List webhook endpoints",
      tag,
      query: PageQuery,
    },
    handler: ({ actor, input }) => listWebhooks(actor, input),
  }),
  // DELETE /api/v1/business/webhooks/{id} — 204
  operation({
    name: "webhooks.delete",
    auth: ["apiKey", "session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam,
    output: z.void(),
    dashboard: true,
    rest: {
      method: "DELETE",
      path: "/business/webhooks/{id}",
      operationId: "deleteWebhook",
      summary: "Delete a webhook endpoint",
      tag,
      params: IdParam,
      status: 204,
    },
    handler: ({ actor, input }) => deleteWebhook(actor, input.id),
  }),
  // POST /api/v1/business/webhooks/{id}/test — a signed `ping`, sent now
  operation({
    name: "webhooks.test",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: WebhookDelivery,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/webhooks/{id}/test",
      operationId: "testWebhook",
      summary: "Send a test event",
      description: "Sends a signed `ping` event to the endpoint now and answers the logged attempt.",
      tag,
      params: IdParam,
    },
    handler: ({ actor, input }) => sendTestEvent(actor, input.id),
  }),
  // GET /api/v1/business/webhooks/logs — one row per attempt
  operation({
    name: "webhooks.deliveries",
    auth: ["apiKey", "session"],
    permission: "read",
    kind: "query",
    input: ListDeliveriesQuery,
    output: WebhookDeliveryList,
    dashboard: true,
    rest: {
      method: "GET",
      path: "/business/webhooks/logs",
      operationId: "listWebhookDeliveries",
      summary: "Webhook delivery logs",
      description: "One row per attempt, newest first. Filter with `webhookId`, `event` and `status` (succeeded, failed).",
      tag,
      query: ListDeliveriesQuery,
    },
    handler: ({ actor, input }) => listDeliveries(actor, input),
  }),
  // POST /api/v1/business/webhooks/deliveries/{id}/retry — send one delivery again
  operation({
    name: "webhooks.retry",
    auth: ["apiKey", "session"],
    permission: "write",
    kind: "mutation",
    input: IdParam,
    output: WebhookDelivery,
    dashboard: true,
    rest: {
      method: "POST",
      path: "/business/webhooks/deliveries/{id}/retry",
      operationId: "retryWebhookDelivery",
      summary: "Retry a delivery",
      description: "Sends the delivery's event to its webhook again, now, as a new attempt.",
      tag,
      params: IdParam,
    },
    handler: ({ actor, input }) => retryDelivery(actor, input.id),
  }),
  operation({
    name: "webhooks.setStatus",
    auth: ["session"],
    permission: "write",
    recentAuth: true,
    kind: "mutation",
    input: IdParam.extend({ status: z.enum(["enabled", "disabled"]) }),
    output: Webhook,
    dashboard: true,
    handler: ({ actor, input }) => setWebhookStatus(actor, input.id, input.status),
  }),
  operation({
    name: "webhooks.delivery",
    auth: ["session"],
    permission: "read",
    kind: "query",
    input: IdParam,
    output: WebhookDeliveryDetail,
    dashboard: true,
    handler: ({ actor, input }) => getDelivery(actor, input.id),
  }),
] as const;
