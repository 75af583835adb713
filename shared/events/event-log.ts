/**
 * The public event log (docs/events.md), append-only in the store (`events_log`), shared by every producer and every
 * process on one store.
 *
 * Invariant: ids are dense and strictly increasing in the order events become readable. An append claims the next
 * id by inserting the document with `_id` = that id, zero-padded (as the transparency log claims its rounds); a
 * duplicate `_id` means another appender took it, so this one moves on. Id n is only ever tried once n − 1 is
 * stored (it was read as the latest, or this appender stored it, or its insert failed as a duplicate), so a reader
 * that has seen id n has every id below it: reading after an id misses nothing and never sees an event twice.
 *
 * Producers give each event a deterministic `key` (unique index): appending an event whose key the log holds is a
 * no-op that answers the stored event, so a producer that died mid-batch derives and appends the batch again.
 *
 * Retention (EVENTS_RETENTION_DAYS): `prune` deletes the oldest events, by when they were stored, as a prefix of ids,
 * so the log stays dense from its oldest id to its newest; the newest is never deleted (the next id is read from it).
 * A reader resuming from an id below the oldest retained one would miss events: `expiredBefore` says so.
 */
import { isDuplicateKeyError, type Collection, type Filter, type Store, type StoredDocument, type Value } from "../store";
import type { BlockRef, EventType, NewEvent, PublicEvent } from "./event-types";

export const EVENTS_LOG = "events_log";

/** Digits of a stored id: ids sort as strings. */
const ID_DIGITS = 16;
/** Appends tried per event before giving up (each failure means another appender took the id). */
const CLAIM_ATTEMPTS = 50;
/** Events a filtered read looks through per call, at most: a rare subject never makes one read scan the whole log. */
export const SCAN_WINDOW = 5_000;

interface StoredEvent extends StoredDocument {
  key: string;
  type: EventType;
  timestamp: string;
  block: BlockRef | null;
  subjects: string[];
  data: { readonly [field: string]: Value };
  /** receipt.checkpointed only: the log index of its first position (to find the receipts a checkpoint holds) */
  logIndex?: number;
  /** Unix ms it was stored (what retention goes by; events stored before retention existed go by `timestamp`) */
  storedAt?: number;
}

/** Events looked at per step of a prune. */
const PRUNE_PAGE = 1_000;

const storedId = (n: number): string => String(n).padStart(ID_DIGITS, "0");

function toPublic(doc: StoredEvent): PublicEvent {
  return {
    id: String(Number(doc._id)),
    type: doc.type,
    timestamp: doc.timestamp,
    block: doc.block,
    subjects: doc.subjects,
    data: doc.data as unknown as PublicEvent["data"],
  };
}

export interface AfterQuery {
  /** OR-matched: an event naming any of them; all events when absent or empty */
  subjects?: readonly string[];
  /** OR-matched; all types when absent or empty */
  types?: readonly EventType[];
  limit: number;
}

export interface AfterPage {
  /** in id order */
  events: PublicEvent[];
  /** read on from here: every event up to it was looked at (the last event's id, or further when the rest did not match) */
  next: string;
}

export class EventLog {
  /** the id this process tries next; undefined: read the latest first */
  private nextId: number | undefined;
  /** appends of this process, one at a time (they would only take each other's ids) */
  private appending: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly events: Collection<StoredEvent>,
    private readonly scanWindow: number,
    private readonly onStored: (event: PublicEvent) => void,
    private readonly now: () => number,
  ) {}

  /**
   * @param opts.scanWindow ids one filtered read looks through at most (default SCAN_WINDOW)
   * @param opts.onStored told each event this process stores, right after it is stored (not an event whose key the
   *   log held already); must not throw
   * @param opts.now Unix ms, the time an event is stored at (default Date.now)
   */
  static async open(
    store: Store,
    opts: { scanWindow?: number; onStored?: (event: PublicEvent) => void; now?: () => number } = {},
  ): Promise<EventLog> {
    const events = store.collection<StoredEvent>(EVENTS_LOG);
    await events.ensureIndexes([
      { fields: { key: 1 }, unique: true },
      { fields: { type: 1 } },
      { fields: { subjects: 1 } },
      { fields: { logIndex: 1 }, sparse: true },
    ]);
    return new EventLog(events, opts.scanWindow ?? SCAN_WINDOW, opts.onStored ?? (() => undefined), opts.now ?? Date.now);
  }

  /**
   * Appends events in order, each with the next id; one whose key the log holds already is not appended again.
   * @returns each event as the log holds it (with its id), in the order given
   * @throws StoreError; the events before the failing one are appended
   */
  append(events: readonly NewEvent[]): Promise<PublicEvent[]> {
    const run = this.appending.then(async () => {
      const out: PublicEvent[] = [];
      for (const e of events) out.push(await this.appendOne(e));
      return out;
    });
    this.appending = run.catch(() => undefined);
    return run;
  }

  private async appendOne(e: NewEvent): Promise<PublicEvent> {
    const doc: Omit<StoredEvent, "_id"> = {
      key: e.key,
      type: e.type,
      timestamp: e.timestamp,
      block: e.block,
      subjects: e.subjects,
      data: e.data as unknown as StoredEvent["data"],
      ...(e.type === "receipt.checkpointed" ? { logIndex: (e.data as PublicEvent<"receipt.checkpointed">["data"]).firstIndex } : {}),
      storedAt: this.now(),
    };
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const id = (this.nextId ??= (await this.latest()) + 1);
      try {
        await this.events.insertOne({ _id: storedId(id), ...doc });
        this.nextId = id + 1;
        const stored = toPublic({ _id: storedId(id), ...doc });
        this.onStored(stored);
        return stored;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const known = await this.events.findOne({ key: e.key });
        if (known) return toPublic(known);
        // another appender took the id: read the latest again
        this.nextId = undefined;
      }
    }
    throw new Error(`Could not append event ${e.key}: ${CLAIM_ATTEMPTS} ids in a row were taken by other appenders.`);
  }

  /**
   * Events after `after` (0 or undefined: from the start), in id order, at most `limit`, looking through at most
   * `scanWindow` ids; `next` says where to read on.
   */
  async after(after: string | undefined, query: AfterQuery): Promise<AfterPage> {
    const from = Number(after ?? "0");
    // the latest first: every id up to it is stored (see the invariant), so the read below misses none of them
    const latest = await this.latest();
    const until = Math.min(from + this.scanWindow, latest);
    if (until <= from) return { events: [], next: String(Math.max(from, 0)) };
    const filter: Filter = { _id: { $gt: storedId(from), $lte: storedId(until) } };
    if (query.subjects && query.subjects.length > 0) filter["subjects"] = { $in: [...query.subjects] };
    if (query.types && query.types.length > 0) filter["type"] = { $in: [...query.types] };
    const docs = await this.events.find(filter, { sort: { _id: 1 }, limit: query.limit });
    const events = docs.map(toPublic);
    const full = events.length === query.limit;
    return { events, next: full ? events[events.length - 1]!.id : String(until) };
  }

  /** The latest id, "0" for an empty log. */
  async latestId(): Promise<string> {
    return String(await this.latest());
  }

  /**
   * The receipt.checkpointed events whose first index is in [fromIndex, toIndex), by index, at most `limit`: the
   * receipts a checkpoint of size `toIndex` holds beyond one of size `fromIndex`.
   */
  async checkpointedBetween(fromIndex: number, toIndex: number, limit: number): Promise<PublicEvent<"receipt.checkpointed">[]> {
    const docs = await this.events.find({ logIndex: { $gte: fromIndex, $lt: toIndex } }, { sort: { logIndex: 1 }, limit });
    return docs.filter((d) => d.type === "receipt.checkpointed").map((d) => toPublic(d) as PublicEvent<"receipt.checkpointed">);
  }

  /**
   * Deletes the events stored before `cutoff` (Unix ms) from the oldest on, up to the first stored later, and never
   * the newest event.
   * @returns how many were deleted
   */
  async prune(cutoff: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const latest = await this.latest();
      const oldest = await this.events.findProjected({}, { _id: 1, storedAt: 1, timestamp: 1 }, { sort: { _id: 1 }, limit: PRUNE_PAGE });
      let through: string | undefined;
      for (const e of oldest) {
        if (Number(e._id) >= latest || (e.storedAt ?? Date.parse(String(e.timestamp))) >= cutoff) break;
        through = e._id;
      }
      if (through === undefined) return deleted;
      deleted += await this.events.deleteMany({ _id: { $lte: through } });
    }
  }

  /** The oldest id the log holds, "0" for an empty log. */
  async oldestId(): Promise<string> {
    const [first] = await this.events.findProjected({}, { _id: 1 }, { sort: { _id: 1 }, limit: 1 });
    return first?._id === undefined ? "0" : String(Number(first._id));
  }

  /**
   * Whether a reader that wants every event from id `first` on would miss some that retention deleted: the oldest
   * retained id when it would, undefined when not.
   */
  async expiredBefore(first: number): Promise<string | undefined> {
    const oldest = await this.oldestId();
    return first < Number(oldest) ? oldest : undefined;
  }

  private async latest(): Promise<number> {
    const [last] = await this.events.findProjected({}, { _id: 1 }, { sort: { _id: -1 }, limit: 1 });
    return last?._id === undefined ? 0 : Number(last._id);
  }
}
