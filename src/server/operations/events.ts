// Events read back over REST: what the webhooks delivered (or would have), for a receiver catching up.
import { z } from "@/lib/messages";
import { EventIdParam, EventList, EventObject, ListEventsQuery } from "@/lib/schemas/events";
import { getEvent, listEvents } from "@/server/events/service";
import { eventStream } from "@/server/events/stream";
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
  // GET /api/v1/events/stream — Server-Sent Events (npm run listen)
  operation({
    name: "events.stream",
    auth: ["apiKey"],
    permission: "read",
    kind: "query",
    rest: {
      method: "GET",
      path: "/events/stream",
      operationId: "streamEvents",
      summary: "Stream events (Server-Sent Events)",
      description:
        "The organization's events (a test key: test mode's) as they happen: each message's `id` is the event's id, `event` its type and `data` exactly the body its webhook delivery carries. Reconnect with `Last-Event-ID` to get every event after that one, in order, none twice; without it the stream starts now. A comment line every 15 s keeps the connection alive; a revoked key's stream ends. At most 5 streams per key at once (429). `npm run listen` forwards this stream to a local URL.",
      tag,
      file: { contentTypes: ["text/event-stream"], description: "A stream of events" },
      // No parameters: an unknown one is refused (400) rather than ignored.
      query: z.strictObject({}),
      errors: ["rate_limited"],
    },
    handler: ({ key, request }) => eventStream(request!, key),
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
