/**
 * What crosses into the event log from outside it, checked once: a stream's filter as a client wrote it (the
 * gateway's `GET /events`, the `events.after` action), and the events other services append (`events.append`).
 */
import { DomainError } from "../domain/errors";
import { EVENT_ID, EVENT_TYPES, isEventType, parseSubject, type EventType, type NewEvent } from "./event-types";

/** Subjects one stream or read may name. */
export const MAX_SUBJECTS = 50;

export interface EventFilter {
  /** canonical (lowercase), no duplicates; empty: every event */
  subjects: string[];
  /** no duplicates; empty: every type */
  types: EventType[];
  /** the id to read after; undefined: from the log's latest on */
  after?: string;
}

/** Values of a repeated query parameter, each possibly comma-separated. */
const valuesOf = (raw: string | readonly string[] | undefined): string[] =>
  (raw === undefined ? [] : typeof raw === "string" ? [raw] : [...raw]).flatMap((v) => v.split(",")).filter((v) => v !== "");

/**
 * A filter as a client wrote it, or the problem with it in words. `lastEventId` (the SSE header) wins over `after`.
 */
export function parseEventFilter(raw: {
  subject?: string | readonly string[];
  type?: string | readonly string[];
  after?: string | readonly string[];
  lastEventId?: string;
}): { ok: true; filter: EventFilter } | { ok: false; problem: string } {
  const subjects = new Set<string>();
  for (const value of valuesOf(raw.subject)) {
    const parsed = parseSubject(value);
    if (!parsed.ok) return { ok: false, problem: parsed.problem };
    subjects.add(parsed.subject);
  }
  if (subjects.size > MAX_SUBJECTS) return { ok: false, problem: `at most ${MAX_SUBJECTS} subjects per stream (got ${subjects.size})` };
  const types = new Set<EventType>();
  for (const value of valuesOf(raw.type)) {
    if (!isEventType(value))
      return { ok: false, problem: `type ${JSON.stringify(value.slice(0, 80))} is none of ${EVENT_TYPES.join(", ")}` };
    types.add(value);
  }
  const afters = valuesOf(raw.after);
  if (afters.length > 1) return { ok: false, problem: "after is given more than once" };
  const after = raw.lastEventId?.trim() || afters[0];
  if (after !== undefined && !EVENT_ID.test(after))
    return { ok: false, problem: `event id ${JSON.stringify(after.slice(0, 40))} is not a decimal event id (0 for the first event on)` };
  return { ok: true, filter: { subjects: [...subjects], types: [...types], ...(after !== undefined ? { after } : {}) } };
}

/**
 * A resume id older than the log keeps (EVENTS_RETENTION_DAYS): the events between it and the oldest kept are gone,
 * so reading on would skip them unseen.
 */
export function eventsExpired(after: string, oldestId: string, retentionDays: number): DomainError {
  return new DomainError(
    "EVENTS_EXPIRED",
    `Events after ${after} are no longer kept: the log keeps ${retentionDays} days of events (EVENTS_RETENTION_DAYS) and its oldest is ` +
      `${oldestId}. Read what you need again (GET /verify, /transaction/confirm, receipts), then resume after ${Number(oldestId) - 1} or later.`,
    { after, oldestId, retentionDays },
  );
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A block reference, as an event names it. */
const isBlockRef = (v: unknown): boolean =>
  isPlainObject(v) &&
  Number.isSafeInteger(v["slot"]) &&
  Number.isSafeInteger(v["height"]) &&
  typeof v["id"] === "string" &&
  /^[0-9a-f]{64}$/.test(v["id"]);

/**
 * The events another service hands in (`events.append`): each of a known type, with a key, an ISO timestamp, a block
 * or null, canonical subjects and an object of data.
 * @throws DomainError BAD_REQUEST naming the first event that is none
 */
export function expectNewEvents(raw: readonly unknown[]): NewEvent[] {
  return raw.map((e, i) => {
    const problem = problemOf(e);
    if (problem !== undefined) throw new DomainError("BAD_REQUEST", `event ${i}: ${problem}`, { index: i });
    return e as NewEvent;
  });
}

function problemOf(e: unknown): string | undefined {
  if (!isPlainObject(e)) return "not an object";
  if (typeof e["type"] !== "string" || !isEventType(e["type"])) return `type ${JSON.stringify(e["type"])} is not an event type`;
  if (typeof e["key"] !== "string" || e["key"].length === 0 || e["key"].length > 512) return "key is not a string of 1 to 512 characters";
  if (typeof e["timestamp"] !== "string" || Number.isNaN(Date.parse(e["timestamp"]))) return "timestamp is not an ISO date";
  if (e["block"] !== null && !isBlockRef(e["block"])) return "block is neither null nor { slot, id, height }";
  if (!Array.isArray(e["subjects"])) return "subjects is not a list";
  for (const s of e["subjects"] as unknown[]) {
    const parsed = typeof s === "string" ? parseSubject(s) : undefined;
    if (!parsed?.ok || parsed.subject !== s) return `subject ${JSON.stringify(s)} is not a canonical subject`;
  }
  if (!isPlainObject(e["data"])) return "data is not an object";
  return undefined;
}
