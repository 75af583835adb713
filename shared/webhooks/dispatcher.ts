/**
 * The dispatcher: reads the event log after its stored cursor, a page at a time, matches each event to the active
 * endpoints (a subject in common, and its type among the endpoint's types when it names some; only events after
 * the endpoint's own cursor) and enqueues one delivery per (endpoint, event) before it moves the cursor. A crash
 * between the two re-reads the page, and the deliveries' deterministic ids make the second write a no-op, so no
 * event is lost and none is enqueued twice. One dispatcher runs at a time across replicas (a lease); it runs
 * beside the indexer and the request path, never inside them: they only wake it.
 *
 * Ordering that keeps a new endpoint from missing events: a page is read before the endpoints are, and a new
 * endpoint's cursor is the log's newest id at registration, so an event is either in a page read after the
 * endpoint exists or at or before its cursor.
 *
 * Replay enqueues an endpoint's matching events again, from an event id through the dispatcher's cursor, as new
 * deliveries (`…:replay-<n>`) with the same `webhook-id` as the first delivery of each event.
 */
import { randomUUID } from "node:crypto";
import { CoalescedRun } from "../domain/coalesced-run";
import { createLeaseTable, openCollection, type Collection, type LeaseTable, type Store } from "../store";
import {
  DISPATCH_LEASE,
  DISPATCH_STATE,
  ENDPOINTS,
  type DeliveryDocument,
  type DispatchStateDocument,
  type EndpointDocument,
} from "./collections";
import { deliveryOf, DeliveryQueue } from "./delivery-queue";
import { webhookError } from "./errors";
import { compareEventIds, cursorBefore, expectEventId, type EventSource, type LogEvent } from "./event-source";
import type { WebhookSettings } from "./settings";
import { messageBody } from "./signature";

const STATE_ID = "dispatcher";
const LEASE_KEY = "dispatcher";
/** Pages one `catchUp` reads before it lets the next run go on (so a long backlog does not hold one run forever). */
const PAGES_PER_RUN = 50;
/** Endpoints matched per read of a page (on SQLite a read is one synchronous step: bounded, then the loop runs). */
const ENDPOINTS_PER_READ = 100;
/** Endpoint cursors moved per write. */
const CURSORS_PER_WRITE = 50;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface DispatcherOptions {
  source: EventSource;
  settings: WebhookSettings;
  /** Unix ms. */
  clock: () => number;
  /** This replica's name in the lease (default: a random one). */
  holder?: string;
  /** Called after deliveries were enqueued (wakes a deliverer): after each slice of a page's endpoints, and by a replay. */
  onEnqueued?: (count: number) => void;
}

export interface DispatchResult {
  /** False when another replica holds the dispatcher's lease (this one did nothing). */
  leased: boolean;
  events: number;
  enqueued: number;
  cursor?: string;
  /** True when the log may hold more (the run stopped after its page budget). */
  more: boolean;
}

export interface ReplayResult {
  /** The replay's number (in the deliveries' ids). */
  replay: number;
  enqueued: number;
  /** Events read. */
  scanned: number;
  /** Where to continue from when the replay stopped at `replayMaxEvents` before the dispatcher's cursor. */
  continueFrom?: string;
}

type Matchable = Pick<EndpointDocument, "_id" | "subjects" | "types" | "cursor">;

/** True when `endpoint` wants `event`. */
export function matches(endpoint: Pick<EndpointDocument, "subjects" | "types">, event: LogEvent): boolean {
  return (endpoint.types.length === 0 || endpoint.types.includes(event.type)) && event.subjects.some((s) => endpoint.subjects.includes(s));
}

export class WebhookDispatcher {
  private readonly holder: string;

  private constructor(
    private readonly endpoints: Collection<EndpointDocument>,
    private readonly state: Collection<DispatchStateDocument>,
    private readonly queue: DeliveryQueue,
    private readonly lease: LeaseTable,
    private readonly options: DispatcherOptions,
  ) {
    this.holder = options.holder ?? `dispatcher-${randomUUID()}`;
  }

  static async open(store: Store, options: DispatcherOptions): Promise<WebhookDispatcher> {
    return new WebhookDispatcher(
      await openCollection(store, ENDPOINTS),
      await openCollection(store, DISPATCH_STATE),
      await DeliveryQueue.open(store),
      await createLeaseTable(store.collection(DISPATCH_LEASE), options.clock),
      options,
    );
  }

  /** The last event id dispatched (undefined before the first). */
  async cursor(): Promise<string | undefined> {
    return (await this.state.findOne({ _id: STATE_ID }))?.cursor;
  }

  /**
   * Dispatches what the log holds after the cursor (up to a page budget). Concurrent calls share one run, and a call
   * during a run makes it go round once more, so a wake-up is never lost.
   */
  catchUp(): Promise<DispatchResult> {
    return this.runs.start();
  }

  /** Lets go of the lease (at shutdown), so another replica takes over at once. */
  async release(): Promise<void> {
    await this.lease.release(this.holder);
  }

  private readonly runs = new CoalescedRun<DispatchResult>(async (rounds) => {
    const result: DispatchResult = { leased: false, events: 0, enqueued: 0, more: false };
    await rounds(async () => {
      if (!(await this.holdLease())) return;
      result.leased = true;
      let cursor = await this.cursor();
      for (let page = 0; page < PAGES_PER_RUN; page++) {
        const events = await this.options.source.after(cursor, this.options.settings.dispatchPageSize);
        if (events.length === 0) {
          result.more = false;
          break;
        }
        for (const e of events) {
          expectEventId(e.id);
          if (cursor !== undefined && compareEventIds(e.id, cursor) <= 0)
            webhookError("INVALID_EVENT_ID", "The event source answered an event at or before the cursor.", { cursor, id: e.id });
          cursor = e.id;
        }
        const enqueued = await this.dispatchPage(events);
        await this.state.updateOne({ _id: STATE_ID }, { $set: { cursor: cursor!, updatedAt: this.options.clock() } }, { upsert: true });
        result.events += events.length;
        result.enqueued += enqueued;
        result.more = events.length >= this.options.settings.dispatchPageSize;
        if (!result.more || !(await this.holdLease())) break;
      }
      result.cursor = cursor;
    });
    return result;
  });

  private async holdLease(): Promise<boolean> {
    const ttl = this.options.settings.dispatchLeaseMs;
    if ((await this.lease.renew([LEASE_KEY], this.holder, ttl)) > 0) return true;
    return (await this.lease.acquire([LEASE_KEY], this.holder, ttl)).acquired;
  }

  /**
   * Enqueues the page's deliveries, then moves each matched endpoint's cursor. The endpoints are read a slice at a
   * time and the cursors moved by one write per slice of endpoints sharing their new cursor (after a page, nearly
   * all share the page's last matching event), the event loop let go between any two steps: a page of thousands of
   * deliveries holds it a few ms at a time, not for the whole page.
   * @returns deliveries new in the queue
   */
  private async dispatchPage(events: readonly LogEvent[]): Promise<number> {
    const subjects = [...new Set(events.flatMap((e) => e.subjects))];
    if (subjects.length === 0) return 0;
    const now = this.options.clock();
    const bodies = new Map<LogEvent, string>();
    const bodyOf = (event: LogEvent): string => bodies.get(event) ?? bodies.set(event, messageBody(event)).get(event)!;
    /** new cursor → the endpoints moving to it */
    const moves = new Map<string, string[]>();
    let added = 0;
    for (let after: string | undefined; ;) {
      const endpoints = (await this.endpoints.findProjected(
        { subjects: { $in: subjects }, status: "active", ...(after !== undefined ? { _id: { $gt: after } } : {}) },
        { subjects: 1, types: 1, cursor: 1 },
        { sort: { _id: 1 }, limit: ENDPOINTS_PER_READ },
      )) as Matchable[];
      const deliveries: DeliveryDocument[] = [];
      for (const endpoint of endpoints) {
        let last: string | undefined;
        for (const event of events) {
          if (endpoint.cursor !== undefined && compareEventIds(event.id, endpoint.cursor) <= 0) continue;
          if (!matches(endpoint, event)) continue;
          deliveries.push(deliveryOf(endpoint._id, event, now, { body: bodyOf(event) }));
          last = event.id;
        }
        if (last === undefined) continue;
        const moving = moves.get(last);
        if (moving === undefined) moves.set(last, [endpoint._id]);
        else moving.push(endpoint._id);
      }
      const enqueued = await this.queue.enqueue(deliveries);
      // queued deliveries may go before the page is done: the cursor moves only once all are written
      if (enqueued > 0) this.options.onEnqueued?.(enqueued);
      added += enqueued;
      if (endpoints.length < ENDPOINTS_PER_READ) break;
      after = endpoints[endpoints.length - 1]!._id;
      await yieldToEventLoop();
    }
    for (const [cursor, ids] of moves)
      for (let i = 0; i < ids.length; i += CURSORS_PER_WRITE) {
        await yieldToEventLoop();
        await this.endpoints.updateMany({ _id: { $in: ids.slice(i, i + CURSORS_PER_WRITE) } }, { $set: { cursor } });
      }
    return added;
  }

  /**
   * Enqueues again the events of `endpointId` (owned by `owner`) from `fromEventId` on, through the dispatcher's
   * cursor (later events are dispatched as usual), reading at most `replayMaxEvents`.
   * @throws WebhookError `WEBHOOK_ENDPOINT_NOT_FOUND`, `WEBHOOK_ENDPOINT_DISABLED`, `INVALID_EVENT_ID`
   */
  async replay(owner: string, endpointId: string, fromEventId: string): Promise<ReplayResult> {
    expectEventId(fromEventId);
    const endpoint = await this.endpoints.findOne({ _id: endpointId, owner });
    if (endpoint === undefined) webhookError("WEBHOOK_ENDPOINT_NOT_FOUND", "No such webhook endpoint.", { id: endpointId });
    if (endpoint.status !== "active")
      webhookError("WEBHOOK_ENDPOINT_DISABLED", "The endpoint is disabled: enable it, then replay.", { id: endpointId });
    const counted = await this.endpoints.findOneAndUpdate({ _id: endpointId }, { $inc: { replays: 1 } });
    const replay = counted?.replays ?? webhookError("WEBHOOK_ENDPOINT_NOT_FOUND", "No such webhook endpoint.", { id: endpointId });
    const through = await this.cursor();
    const result: ReplayResult = { replay, enqueued: 0, scanned: 0 };
    if (through === undefined || compareEventIds(fromEventId, through) > 0) return result;
    const max = this.options.settings.replayMaxEvents;
    const hint = { subjects: endpoint.subjects, ...(endpoint.types.length > 0 ? { types: endpoint.types } : {}) };
    let cursor = cursorBefore(fromEventId);
    while (result.scanned < max) {
      const limit = Math.min(this.options.settings.dispatchPageSize, max - result.scanned);
      const events = (await this.options.source.after(cursor, limit, hint)).filter((e) => compareEventIds(e.id, through) <= 0);
      if (events.length === 0) break;
      result.scanned += events.length;
      cursor = events[events.length - 1]!.id;
      const now = this.options.clock();
      result.enqueued += await this.queue.enqueue(
        events.filter((e) => matches(endpoint, e)).map((e) => deliveryOf(endpointId, e, now, { replay })),
      );
      if (events.length < limit || compareEventIds(cursor, through) >= 0) {
        cursor = through;
        break;
      }
    }
    if (cursor !== undefined && compareEventIds(cursor, through) < 0) result.continueFrom = (BigInt(cursor) + 1n).toString();
    if (result.enqueued > 0) this.options.onEnqueued?.(result.enqueued);
    return result;
  }
}
