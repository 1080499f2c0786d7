import { z } from "zod";
import { IdParam } from "@/server/ids";
import { PageQuery } from "@/server/pagination";
import { CreateWebhookInput, ListDeliveriesQuery } from "@/server/webhooks/schemas";
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
  list: orgProcedure.input(PageQuery).query(({ ctx, input }) => listWebhooks(ctx.actor, input)),
  create: orgProcedure.input(CreateWebhookInput).mutation(({ ctx, input }) => createWebhook(ctx.actor, input)),
  delete: orgProcedure.input(IdParam).mutation(({ ctx, input }) => deleteWebhook(ctx.actor, input.id)),
  setStatus: orgProcedure
    .input(IdParam.extend({ status: z.enum(["enabled", "disabled"]) }))
    .mutation(({ ctx, input }) => setWebhookStatus(ctx.actor, input.id, input.status)),
  test: orgProcedure.input(IdParam).mutation(({ ctx, input }) => sendTestEvent(ctx.actor, input.id)),
  deliveries: orgProcedure.input(ListDeliveriesQuery).query(({ ctx, input }) => listDeliveries(ctx.actor, input)),
  delivery: orgProcedure.input(IdParam).query(({ ctx, input }) => getDelivery(ctx.actor, input.id)),
  retry: orgProcedure.input(IdParam).mutation(({ ctx, input }) => retryDelivery(ctx.actor, input.id)),
});
