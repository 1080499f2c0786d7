import { z } from "@/lib/messages";
import { IdParam } from "@/lib/schemas/ids";
import { PageQuery } from "@/server/pagination";
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
import { orgProcedure, router } from "../init";

export const webhooksRouter = router({
  list: orgProcedure
    .input(PageQuery)
    .output(WebhookList)
    .query(({ ctx, input }) => listWebhooks(ctx.actor, input)),
  create: orgProcedure
    .input(CreateWebhookInput)
    .output(WebhookWithSecret)
    .mutation(({ ctx, input }) => createWebhook(ctx.actor, input)),
  delete: orgProcedure
    .input(IdParam)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteWebhook(ctx.actor, input.id)),
  setStatus: orgProcedure
    .input(IdParam.extend({ status: z.enum(["enabled", "disabled"]) }))
    .output(Webhook)
    .mutation(({ ctx, input }) => setWebhookStatus(ctx.actor, input.id, input.status)),
  test: orgProcedure
    .input(IdParam)
    .output(WebhookDelivery)
    .mutation(({ ctx, input }) => sendTestEvent(ctx.actor, input.id)),
  deliveries: orgProcedure
    .input(ListDeliveriesQuery)
    .output(WebhookDeliveryList)
    .query(({ ctx, input }) => listDeliveries(ctx.actor, input)),
  delivery: orgProcedure
    .input(IdParam)
    .output(WebhookDeliveryDetail)
    .query(({ ctx, input }) => getDelivery(ctx.actor, input.id)),
  retry: orgProcedure
    .input(IdParam)
    .output(WebhookDelivery)
    .mutation(({ ctx, input }) => retryDelivery(ctx.actor, input.id)),
});
