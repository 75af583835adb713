/**
 * The public event log (shared/events/event-log.ts) behind the engine's `EventSource` port. The log answers a read
 * a window of ids at a time (`SCAN_WINDOW`) and says where to read on; the port's callers take fewer events than
 * asked as the log's end (the dispatcher's replay does, hint or not), so a filtered read here goes on window after
 * window until it has `limit` events or reaches the log's end. An unfiltered read is one window: ids are dense, so a
 * window holds an event for every id in it.
 */
import type { EventLog } from "../events/event-log";
import type { EventType } from "../events/event-types";
import type { EventFilterHint, EventSource, LogEvent } from "./event-source";

/** The log's side of the adapter: what it reads of EventLog. */
export type EventLogReader = Pick<EventLog, "after" | "latestId" | "oldestId">;

export function eventLogSource(log: EventLogReader): EventSource {
  return {
    async after(cursor: string | undefined, limit: number, hint?: EventFilterHint): Promise<readonly LogEvent[]> {
      const query = {
        limit,
        ...(hint?.subjects && hint.subjects.length > 0 ? { subjects: hint.subjects } : {}),
        ...(hint?.types && hint.types.length > 0 ? { types: hint.types as readonly EventType[] } : {}),
      };
      const events: LogEvent[] = [];
      for (let from = cursor ?? "0"; ;) {
        const page = await log.after(from, { ...query, limit: limit - events.length });
        events.push(...page.events);
        if (events.length >= limit || page.next === from) return events;
        from = page.next; // the window held fewer of the hint's: read on
      }
    },
    async latest(): Promise<string | undefined> {
      const id = await log.latestId();
      return id === "0" ? undefined : id;
    },
    async oldest(): Promise<string | undefined> {
      const id = await log.oldestId();
      return id === "0" ? undefined : id;
    },
  };
}
