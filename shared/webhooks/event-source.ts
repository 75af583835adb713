/**
 * The port through which the webhook engine reads the public event log (shared/events/): the engine depends on this
 * shape only, and event-log-source.ts joins it to the real log.
 *
 * Event ids are decimal sequence numbers (no leading zeros), strictly increasing in log order. They are compared
 * as numbers of any length (`compareEventIds`), and stored as fixed-width keys (`eventKey`) where the store sorts.
 */
import { webhookError } from "./errors";

export interface EventBlock {
  slot: number;
  id: string;
  height: number;
}

/** One event of the public log. */
export interface LogEvent {
  /** Decimal sequence number, strictly increasing. */
  id: string;
  /** Full-stop delimited, e.g. `certificate.anchored`. */
  type: string;
  /** ISO 8601: when the event happened (not when it is delivered). */
  timestamp: string;
  block: EventBlock | null;
  /** What the event is about: `address:<bech32>`, `hash:<hex>`, `transaction:<hex>`, `request:<id>`, `list:<policyId>`, `state:<id>`, `endpoint:<id>`. */
  subjects: readonly string[];
  data: Readonly<Record<string, unknown>>;
}

/** A narrowing the source may apply; the engine matches every event it gets again, so a source may ignore it. */
export interface EventFilterHint {
  subjects?: readonly string[];
  types?: readonly string[];
}

export interface EventSource {
  /**
   * Events with id greater than `cursor` (from the first when undefined), in id order, at most `limit`. Fewer than
   * `limit` (with a hint: none) means the log holds nothing more for now.
   */
  after(cursor: string | undefined, limit: number, hint?: EventFilterHint): Promise<readonly LogEvent[]>;
  /** The id of the newest event, undefined while the log is empty: where a newly registered endpoint starts. */
  latest(): Promise<string | undefined>;
  /** The id of the oldest event the log keeps (older ones were deleted by retention), undefined while it is empty. */
  oldest?(): Promise<string | undefined>;
}

const EVENT_ID = /^(0|[1-9][0-9]{0,19})$/;

/** Widest id stored: 20 digits holds every unsigned 64-bit sequence number. */
export const EVENT_KEY_WIDTH = 20;

/** True for a decimal sequence number of at most 20 digits without leading zeros. */
export function isEventId(value: unknown): value is string {
  return typeof value === "string" && EVENT_ID.test(value);
}

/** @throws WebhookError `INVALID_EVENT_ID` */
export function expectEventId(value: unknown): string {
  if (!isEventId(value)) webhookError("INVALID_EVENT_ID", "An event id is a decimal sequence number (at most 20 digits).", { value });
  return value;
}

/** Negative, zero or positive as `a` comes before, equals or follows `b` in the log. */
export function compareEventIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** The id as a fixed-width key: sorts in log order as a string. */
export function eventKey(id: string): string {
  return id.padStart(EVENT_KEY_WIDTH, "0");
}

/** The cursor just before `id` (reading `after` it starts at `id`); undefined before the first possible id. */
export function cursorBefore(id: string): string | undefined {
  const previous = BigInt(id) - 1n;
  return previous < 0n ? undefined : previous.toString();
}
