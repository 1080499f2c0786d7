import { EVENT_TYPES } from "@/lib/enums";
import { z } from "@/lib/messages";
import { pageOf, PageQuery } from "@/lib/schemas/pagination";
import { When } from "@/lib/schemas/when";

/** How long events can be read back (`GET /events`): a receiver that was down catches up within it. */
export const EVENT_RETENTION_DAYS = 30;

export const ListEventsQuery = PageQuery.extend({
  type: z.enum(EVENT_TYPES).optional().describe("Only events of this type"),
  from: When.optional().describe("Events at or after this day or instant"),
  to: When.optional().describe("Events before the end of this day, or before this instant"),
});
export type ListEventsQuery = z.output<typeof ListEventsQuery>;

export const EventIdParam = z.object({ id: z.string().min(1).max(100) });

/** An event exactly as its webhook delivery's body carries it. */
export const EventObject = z
  .object({
    id: z.string().describe("evt_…; the webhook delivery's `webhook-id`"),
    type: z.enum(EVENT_TYPES),
    createdAt: z.iso.datetime(),
    livemode: z.boolean().describe("false for the events of test mode (test keys)"),
    data: z.record(z.string(), z.unknown()).describe("The resource the event is about, as the webhook delivers it"),
  })
  .meta({ id: "Event" });
export type EventObject = z.infer<typeof EventObject>;
export const EventList = pageOf(EventObject, "EventList");
