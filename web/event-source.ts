/**
 * Following the service's public events from a page (docs/events.md#server-sent-events): one `EventSource` on
 * `/api/v1/events` of the page's own origin (the pages' `connect-src 'self'` allows it), filtered by subjects and
 * types, each event handed over parsed.
 *
 * A stream opened without a resume id starts at the log's end, and the browser reconnects by itself — resuming after
 * the last id it received, or at the log's end again when it received none. So `opened` is called at each (re)opening:
 * what happened before it is not in the stream, and a page that must not miss it reads the current state then.
 */
import type { EventType, PublicEvent } from "../shared/events/event-types";

export type { PublicEvent };

/** Failures in a row (no event received between them) after which the stream is given up. */
const MAX_ERRORS = 3;

export interface EventFollower {
  /** The stream is open; events from here on come through it. Called again after each reconnection. */
  opened?(): void;
  event(e: PublicEvent): void;
  /**
   * The stream is given up, for good: the browser has no EventSource, the answer was no stream (429 too many streams,
   * 503 without the events service, …; the browser does not retry those), or it failed `MAX_ERRORS` times in a row.
   */
  failed?(why: string): void;
}

export interface EventFollowing {
  close(): void;
}

/** Opens the stream of the events naming one of `subjects` whose type is one of `types`. */
export function followEvents(subjects: readonly string[], types: readonly EventType[], follower: EventFollower): EventFollowing {
  if (typeof EventSource !== "function") {
    let closed = false;
    queueMicrotask(() => {
      if (!closed) follower.failed?.("this browser has no EventSource");
    });
    return { close: () => void (closed = true) };
  }
  const query = new URLSearchParams([...subjects.map((s) => ["subject", s]), ...types.map((t) => ["type", t])]);
  const source = new EventSource(`/api/v1/events?${query.toString()}`);
  let closed = false;
  let errors = 0;
  const close = () => {
    closed = true;
    source.close();
  };
  const giveUp = (why: string) => {
    if (closed) return;
    close();
    follower.failed?.(why);
  };
  source.addEventListener("open", () => {
    if (!closed) follower.opened?.();
  });
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) return giveUp("the service answered no event stream");
    errors += 1;
    if (errors >= MAX_ERRORS) giveUp(`the event stream failed ${errors} times in a row`);
  });
  for (const type of types)
    source.addEventListener(type, (message) => {
      if (closed) return;
      errors = 0;
      let event: PublicEvent;
      try {
        event = JSON.parse((message as MessageEvent<string>).data) as PublicEvent;
      } catch {
        return;
      }
      follower.event(event);
    });
  return { close };
}
