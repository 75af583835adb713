/**
 * The public events (docs/events.md) as Server-Sent Events. The gateway answers this route itself, before the router
 * (../event-stream.ts): it streams what `events.after` reads, from the id the client resumes after, then each event as
 * the events service announces it.
 */
import type { RouteSpec } from "./route-spec";

export const EVENT_ROUTES = [
  {
    method: "GET",
    path: "/events",
    action: "events.after",
    tag: "events",
    summary: "The service's events as Server-Sent Events: those after an id, then each new one as it happens",
    response:
      "text/event-stream: per event `id:` (its id), `event:` (its type) and `data:` (the event as JSON: id, type, timestamp, block, subjects, data); a comment line every 15 s",
    responseType: "text/event-stream",
    query: [
      {
        name: "subject",
        required: false,
        repeated: true,
        description:
          "only events naming one of these: address:<bech32>, hash:<hex>, transaction:<64 hex>, request:<24 hex>, list:<policy id>, state:<64 hex> (up to 50; none: every event)",
      },
      { name: "type", required: false, repeated: true, description: "only events of these types (docs/events.md); none: every type" },
      { name: "after", required: false, description: "the id to resume after (0: from the first event); default: from now on" },
    ],
    requestHeaders: [
      {
        name: "Last-Event-ID",
        required: false,
        description: "the id to resume after, as a browser's EventSource sends it; wins over `after`",
      },
    ],
    errors: ["INVALID_EVENT_FILTER", "EVENTS_EXPIRED", "TOO_MANY_STREAMS"],
    statuses: {
      400: "a subject, type or id that is none (the message names it)",
      410: "EVENTS_EXPIRED: the id to resume after is older than the log keeps (EVENTS_RETENTION_DAYS); `data.oldestId` is the oldest kept",
      429: "too many streams open from this client (EVENTS_MAX_STREAMS_PER_CLIENT) or on this gateway (EVENTS_MAX_STREAMS)",
    },
    readBudget: true,
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
