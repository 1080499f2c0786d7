// Events read back over REST: what the webhooks delivered (or would have), for a receiver catching up.
import { EventIdParam, EventList, EventObject, ListEventsQuery } from "@/lib/schemas/events";
import { getEvent, listEvents } from "@/server/events/service";
import { operation } from "./operation";

const tag = "Events";

export const eventOperations = [
  // GET /api/v1/events
  operation({
    name: "events.list",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    input: ListEventsQuery,
    output: EventList,
    rest: {
      method: "GET",
      path: "/events",
      operationId: "listEvents",
      summary: "List events",
      description:
        "The organization's events of the last 30 days (a test key: test mode's), newest first — each exactly the body its webhook delivery carries, so a receiver that was down can catch up. Filters: `type`, `from` and `to` (dates or date-times).",
      tag,
      query: ListEventsQuery,
    },
    handler: ({ actor, input }) => listEvents(actor, input),
  }),
  // GET /api/v1/events/{id}
  operation({
    name: "events.get",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    output: EventObject,
    rest: {
      method: "GET",
      path: "/events/{id}",
      operationId: "getEvent",
      summary: "Get an event",
      description: "One event of the last 30 days, as its webhook delivery's body (another organization's, or older: 404).",
      tag,
      params: EventIdParam,
    },
    handler: ({ actor, input }) => getEvent(actor, input.id),
  }),
] as const;
