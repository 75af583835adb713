/**
 * The delivery queue (`webhook_deliveries`): one document per (endpoint, event), written by the dispatcher and
 * replays, claimed and settled by deliverers. Invariants:
 * - ids are deterministic (`<endpointId>:<eventId>`, replays `…:replay-<n>`), and `enqueue` skips an id already
 *   there, so writing the same deliveries twice (a dispatcher re-running a page after a crash) duplicates nothing;
 * - a pending delivery is claimed by one deliverer at a time: the claim is a compare-and-set on the document
 *   (due, pending) that moves `nextAttemptAt` to the claim's expiry and sets a fresh token. A deliverer that dies
 *   leaves the delivery due again when the claim lapses; one whose claim lapsed cannot settle it (every settling
 *   write names the token);
 * - reading is bounded: claims take at most the free slots, the dead-letter view a page.
 */
import { randomUUID } from "node:crypto";
import { isDuplicateKeyError, openCollection, type Collection, type Filter, type Store } from "../store";
import { DELIVERIES, type DeliveryDocument } from "./collections";
import { eventKey, type LogEvent } from "./event-source";
import { messageBody, messageIdOf } from "./signature";

/** Deliveries inserted per write; the queue lets the event loop run between two (one write is a few ms on SQLite). */
const INSERT_CHUNK = 100;

/** Due deliveries a claim reads at least (kept for the next claims). */
const CANDIDATES_READ = 32;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A dead delivery as its owner sees it. */
export interface DeadLetter {
  id: string;
  eventId: string;
  eventType: string;
  messageId: string;
  attempts: number;
  failedAt?: number;
  lastAttemptAt?: number;
  lastStatus?: number;
  lastFailure?: string;
  lastMessage?: string;
  lastResponse?: string;
  replay?: number;
}

export interface DeadLetterPage {
  items: DeadLetter[];
  /** Pass as `after` for the next page; absent on the last page. */
  next?: string;
}

/** How an attempt ended, as recorded on the delivery. */
export interface AttemptRecord {
  status?: number;
  failure?: string;
  message?: string;
  response?: string;
}

/**
 * The delivery of `event` to an endpoint (`replay` numbers a replay's copy; `body`, the event's `messageBody` when
 * the caller made it already, for one event going to many endpoints).
 */
export function deliveryOf(
  endpointId: string,
  event: LogEvent,
  now: number,
  { replay, body = messageBody(event) }: { replay?: number; body?: string } = {},
): DeliveryDocument {
  return {
    _id: `${endpointId}:${event.id}${replay === undefined ? "" : `:replay-${replay}`}`,
    endpointId,
    eventId: event.id,
    eventKey: eventKey(event.id),
    eventType: event.type,
    messageId: messageIdOf(event.id),
    body,
    status: "pending",
    attempts: 0,
    nextAttemptAt: now,
    ...(replay !== undefined ? { replay } : {}),
    createdAt: now,
  };
}

const recordOf = (r: AttemptRecord) => ({
  ...(r.status !== undefined ? { lastStatus: r.status } : {}),
  ...(r.failure !== undefined ? { lastFailure: r.failure } : {}),
  ...(r.message !== undefined ? { lastMessage: r.message } : {}),
  ...(r.response !== undefined ? { lastResponse: r.response } : {}),
});

const unsetRecord = (r: AttemptRecord) => ({
  ...(r.status === undefined ? { lastStatus: true as const } : {}),
  ...(r.failure === undefined ? { lastFailure: true as const } : {}),
  ...(r.message === undefined ? { lastMessage: true as const } : {}),
  ...(r.response === undefined ? { lastResponse: true as const } : {}),
});

export class DeliveryQueue {
  /**
   * Due deliveries read by an earlier claim and not taken yet, oldest first: the next claims try them before reading
   * again (reading decodes each candidate whole, body included; a deliverer claims one at a time as its attempts end).
   * A stale one (claimed by another deliverer, settled, deleted) fails its compare-and-set and is dropped.
   */
  private candidates: Partial<DeliveryDocument>[] = [];

  private constructor(private readonly deliveries: Collection<DeliveryDocument>) {}

  static async open(store: Store): Promise<DeliveryQueue> {
    return new DeliveryQueue(await openCollection(store, DELIVERIES));
  }

  /** Inserts the deliveries whose ids are not there yet, a chunk per write. @returns how many were new */
  async enqueue(docs: readonly DeliveryDocument[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < docs.length; i += INSERT_CHUNK) {
      if (i > 0) await yieldToEventLoop();
      const chunk = docs.slice(i, i + INSERT_CHUNK);
      try {
        await this.deliveries.insertMany(chunk);
        added += chunk.length;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        // some were written before (a page dispatched again after a crash): insert the others one by one
        for (const doc of chunk) {
          try {
            await this.deliveries.insertOne(doc);
            added += 1;
          } catch (e) {
            if (!isDuplicateKeyError(e)) throw e;
          }
        }
      }
    }
    return added;
  }

  /**
   * Claims up to `count` due deliveries for `holder` until `now + ttlMs`, oldest due first, then in log order (so
   * the deliveries of one event to many endpoints come before the next event's, rather than one endpoint's in a
   * row), at most `room(endpointId)` more of any one endpoint (0 leaves it out).
   * @returns the claimed deliveries, `attempts` already counting the attempt about to be made
   */
  async claim(
    count: number,
    holder: string,
    now: number,
    ttlMs: number,
    room: (endpointId: string) => number,
  ): Promise<DeliveryDocument[]> {
    if (count <= 0) return [];
    const due: Filter = { status: "pending", nextAttemptAt: { $lte: now } };
    if (this.candidates.length < count)
      this.candidates = await this.deliveries.findProjected(
        due,
        { endpointId: 1 },
        { sort: { nextAttemptAt: 1, eventKey: 1 }, limit: Math.min(Math.max(count * 4, CANDIDATES_READ), 400) },
      );
    const taken = new Map<string, number>();
    const claimed: DeliveryDocument[] = [];
    const left: Partial<DeliveryDocument>[] = [];
    for (const c of this.candidates) {
      const endpointId = c.endpointId!;
      if (claimed.length >= count || (taken.get(endpointId) ?? 0) >= room(endpointId)) {
        left.push(c);
        continue;
      }
      const doc = await this.deliveries.findOneAndUpdate(
        { _id: c._id!, ...due },
        { $set: { claimToken: randomUUID(), claimedBy: holder, nextAttemptAt: now + ttlMs, lastAttemptAt: now }, $inc: { attempts: 1 } },
      );
      if (doc === undefined) continue; // another deliverer took it, or it is no longer due
      taken.set(endpointId, (taken.get(endpointId) ?? 0) + 1);
      claimed.push(doc);
    }
    this.candidates = left;
    return claimed;
  }

  /** Records a 2xx. @returns false when the claim had lapsed (another deliverer owns the delivery now) */
  async delivered(claim: DeliveryDocument, now: number, record: AttemptRecord): Promise<boolean> {
    return this.settle(claim, { status: "delivered", deliveredAt: now, ...recordOf(record) }, unsetRecord(record));
  }

  /** Schedules the next attempt. @returns false when the claim had lapsed */
  async retryAt(claim: DeliveryDocument, nextAttemptAt: number, record: AttemptRecord): Promise<boolean> {
    return this.settle(claim, { nextAttemptAt, ...recordOf(record) }, unsetRecord(record));
  }

  /** Moves it to the dead letters. @returns false when the claim had lapsed */
  async failed(claim: DeliveryDocument, now: number, record: AttemptRecord): Promise<boolean> {
    return this.settle(claim, { status: "failed", failedAt: now, ...recordOf(record) }, unsetRecord(record));
  }

  /** Drops a claimed delivery whose endpoint is gone. */
  async drop(claim: DeliveryDocument): Promise<void> {
    await this.deliveries.deleteOne({ _id: claim._id, claimToken: claim.claimToken! });
  }

  /** Moves every pending delivery of an endpoint to the dead letters (the endpoint was disabled). @returns how many */
  async failPendingOf(endpointId: string, now: number, failure: string, message: string): Promise<number> {
    const r = await this.deliveries.updateMany(
      { endpointId, status: "pending" },
      { $set: { status: "failed", failedAt: now, lastFailure: failure, lastMessage: message } },
    );
    return r.modifiedCount;
  }

  /** An endpoint's dead letters in log order, a page of at most `limit` after the dead letter `after`. */
  async deadLetters(endpointId: string, limit: number, after?: string): Promise<DeadLetterPage> {
    const cursor = after === undefined ? undefined : await this.deliveries.findOne({ _id: after, endpointId });
    const filter: Filter =
      cursor === undefined
        ? { endpointId, status: "failed" }
        : {
            endpointId,
            status: "failed",
            $or: [{ eventKey: { $gt: cursor.eventKey } }, { eventKey: cursor.eventKey, _id: { $gt: cursor._id } }],
          };
    const docs = await this.deliveries.findProjected(
      filter,
      { body: 0, claimToken: 0, claimedBy: 0 },
      { sort: { eventKey: 1 }, limit: limit + 1 },
    );
    const items = docs.slice(0, limit).map((d) => ({
      id: d._id!,
      eventId: d.eventId!,
      eventType: d.eventType!,
      messageId: d.messageId!,
      attempts: d.attempts!,
      ...(d.failedAt !== undefined ? { failedAt: d.failedAt } : {}),
      ...(d.lastAttemptAt !== undefined ? { lastAttemptAt: d.lastAttemptAt } : {}),
      ...(d.lastStatus !== undefined ? { lastStatus: d.lastStatus } : {}),
      ...(d.lastFailure !== undefined ? { lastFailure: d.lastFailure } : {}),
      ...(d.lastMessage !== undefined ? { lastMessage: d.lastMessage } : {}),
      ...(d.lastResponse !== undefined ? { lastResponse: d.lastResponse } : {}),
      ...(d.replay !== undefined ? { replay: d.replay } : {}),
    }));
    return docs.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
  }

  /** Deletes deliveries delivered before `before` (Unix ms). @returns how many */
  purgeDelivered(before: number): Promise<number> {
    return this.deliveries.deleteMany({ status: "delivered", deliveredAt: { $lt: before } });
  }

  private async settle(claim: DeliveryDocument, set: Record<string, string | number>, unset: Record<string, true>): Promise<boolean> {
    const r = await this.deliveries.updateOne(
      { _id: claim._id, claimToken: claim.claimToken! },
      { $set: set, $unset: { claimToken: true, claimedBy: true, ...unset } },
    );
    return r.matchedCount > 0;
  }
}
