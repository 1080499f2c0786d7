import { M, z } from "@/lib/messages";
import { EVENT_TYPES } from "@/lib/enums";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";

const WebhookUrl = z
  .url({ protocol: /^https?$/, error: M.url })
  .max(2000)
  // Credentials in a URL would be stored and shown in clear, and sent on every delivery.
  .refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u), "Remove the user name and password from the address")
  .describe("Receives a POST per event");

const WebhookEvents = z
  .array(z.enum(EVENT_TYPES), "Choose at least one event")
  .min(1, "Choose at least one event")
  .refine((e) => new Set(e).size === e.length, M.noRepeats("event"))
  .describe(
    "The events to receive: `payment.completed` (data: the Payment), `policy.purchased` and `policy.renewed` ({coverage, policy, payment}), `claim.submitted` (the Claim, with the `attachments` filed with it), `coverage.expiring` (the Coverage, when the first renewal reminder of its period goes to the policyholder — once per period) and `coverage.expired` (the Coverage, status expired, once its end passed without a renewal — once per period), `claim.updated` (the Claim with `previousStatus`), `claim.paid` (the Claim), `payment.refunded` (the Refund, once processed) `coverage.cancelled` (the Coverage, status cancelled, with the `refund` it made or null), `payment.failed` (the Payment with its `failureReason`: a declined card, a declined renewal charge — the cover is then past_due while it is retried) and `coverage.updated` (the Coverage, when auto-renew is switched or its saved card removed)",
  );

export const CreateWebhookInput = z
  .strictObject({
    url: WebhookUrl,
    events: WebhookEvents,
    secret: z.string().min(16).max(200).optional().describe("Your own signing secret; we generate a `whsec_…` one when absent"),
  })
  .meta({ id: "CreateWebhookInput" });
export type CreateWebhookInput = z.output<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: WebhookEvents.optional(),
    status: z.enum(["enabled", "disabled"]).optional().describe("`disabled` stops deliveries; `enabled` resumes them"),
  })
  .refine((v) => Object.keys(v).length > 0, M.atLeastOneField)
  .meta({ id: "UpdateWebhookInput" });
export type UpdateWebhookInput = z.output<typeof UpdateWebhookInput>;

export const RollWebhookSecretInput = z
  .strictObject({
    expiresInHours: z
      .number()
      .int()
      .min(0)
      .max(72)
      .default(24)
      .describe("How long the old secret still signs deliveries beside the new one (0: it stops now)"),
  })
  .meta({ id: "RollWebhookSecretInput" });

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    status: z.enum(["enabled", "disabled"]),
    disabledReason: z.string().nullable(),
    failingSince: z.iso
      .datetime()
      .nullable()
      .describe("Every delivery has failed since then (null: the last one was delivered); after 3 days the endpoint is disabled"),
    previousSecretExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe("After a secret roll: until then deliveries are signed with the old secret too; null otherwise"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Webhook" });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookList = pageOf(Webhook, "WebhookList");

export const WebhookWithSecret = Webhook.extend({
  secret: z.string().describe("The signing secret. Shown only in this response."),
}).meta({ id: "WebhookWithSecret" });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const WebhookDelivery = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string(),
    event: z.string(),
    attempt: z.number().int(),
    status: z.enum(["succeeded", "failed"]),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable(),
    nextRetryAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = pageOf(WebhookDelivery, "WebhookDeliveryList");

export const ListDeliveriesQuery = PageQuery.extend({
  webhookId: z.string().max(100).optional(),
  event: z.enum([...EVENT_TYPES, "ping"]).optional(),
  status: z.enum(["succeeded", "failed"]).optional(),
});
export type ListDeliveriesQuery = z.output<typeof ListDeliveriesQuery>;

/**
 * The delivery log by event, for the dashboard: one entry per event and
 * endpoint, its latest attempt and its attempts (oldest first; at most the
 * latest MAX_GROUP_ATTEMPTS of them, `attemptCount` counts all).
 */
export const WebhookDeliveryGroup = z.object({
  webhookId: z.string(),
  eventId: z.string(),
  event: z.string(),
  url: z.string(),
  attemptCount: z.number().int(),
  latest: WebhookDelivery,
  attempts: z.array(WebhookDelivery),
});
export type WebhookDeliveryGroup = z.infer<typeof WebhookDeliveryGroup>;

export const WebhookDeliveryGroupList = pageOf(WebhookDeliveryGroup, "WebhookDeliveryGroupList");

/** The most attempts of one event shown in its group (the latest ones). */
export const MAX_GROUP_ATTEMPTS = 50;

/** The full attempt, for the dashboard's detail drawer, with every attempt at the same event. */
export const WebhookDeliveryDetail = WebhookDelivery.extend({
  url: z.string(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseExcerpt: z.string().nullable(),
  attempts: z.array(WebhookDelivery),
});
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

/** Each endpoint's attempts over the last 7 days, for its error rate on the Webhooks page. */
export const WebhookStats = z.array(
  z.object({ webhookId: z.string(), attempts: z.number().int(), failed: z.number().int() }),
);
export type WebhookStats = z.infer<typeof WebhookStats>;
