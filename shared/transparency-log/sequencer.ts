/**
 * The log's sequencer (docs/transparency-log.md#sequencing): every `intervalMs`, one replica at a time (a lease in
 * the store) takes the submissions waiting, appends them to the log and signs a new checkpoint. A round:
 * 1. finishes every round an interrupted sequencer left (their records, tiles, checkpoint and marks follow from the
 *    round document alone, so finishing is the same work again);
 * 2. claims the next indices by inserting the round document at the log's size (a duplicate means another
 *    sequencer took them: this one stops);
 * 3. writes the records, the tiles, signs the checkpoint of the new size and moves the log's state to it (compare
 *    and set), then tells the source which positions went where.
 * The root of a size follows from the rounds below it, which are written once: the log never signs two roots for
 * one size, and an entry in a signed checkpoint is in the store before the checkpoint is.
 */
import { randomBytes } from "node:crypto";
import { isDuplicateKeyError, type LeaseTable } from "../store";
import { formatCheckpoint } from "../tlog/checkpoint";
import { signNote, type NoteSigner } from "../tlog/note";
import { leafOfRecord, recordAt, RECORD_BYTES } from "./log-entries";
import { roundId, type LogState, type LogStore, type RoundDocument } from "./log-store";
import { addLeavesToTiles, rootAt } from "./log-tree";

/** Where the entries come from (the calendar's requests): positions of a request, in order. */
export interface LogSource {
  /** Whether any record waits (cheap: asked every round). */
  anyWaiting(): Promise<boolean>;
  /** Up to `max` waiting records (nonce ‖ hash, packed), oldest first, and the request positions they are. */
  waiting(max: number): Promise<{ parts: RoundDocument["parts"]; records: Buffer }>;
  /** The records of these positions (to finish a round an interrupted sequencer claimed). */
  recordsOf(parts: RoundDocument["parts"]): Promise<Buffer>;
  /** These positions are the indices from `start` on; idempotent. */
  markLogged(parts: RoundDocument["parts"], start: number): Promise<void>;
}

export interface SequencerSettings {
  origin: string;
  intervalMs: number;
  maxEntriesPerRound: number;
}

export type RoundOutcome =
  { kind: "integrated"; size: number; added: number } | { kind: "idle" } | { kind: "busy" } | { kind: "failed"; message: string };

const LEASE_KEY = "tlog-sequencer";
/** Entries hashed between two turns of the event loop: about 10 ms of work. */
export const YIELD_EVERY = 4096;
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Sequencer {
  private running: Promise<RoundOutcome> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly holder = randomBytes(8).toString("hex");

  constructor(
    private readonly log: LogStore,
    private readonly source: LogSource,
    private readonly lease: LeaseTable,
    private readonly signer: NoteSigner,
    private readonly settings: SequencerSettings,
    private readonly now: () => number,
    private readonly onRound: (outcome: RoundOutcome) => void = () => undefined,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.round(), this.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.lease.release(this.holder).catch(() => undefined);
  }

  /** One round (joins a round running in this process). */
  round(): Promise<RoundOutcome> {
    this.running ??= this.runRound()
      .catch((err: unknown): RoundOutcome => ({ kind: "failed", message: err instanceof Error ? err.message : String(err) }))
      .then((outcome) => {
        this.onRound(outcome);
        return outcome;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async runRound(): Promise<RoundOutcome> {
    // an idle log costs a few indexed reads a round, no write (not even the lease's)
    if (!(await this.hasWork())) return { kind: "idle" };
    // held across rounds and renewed, so a replica that dies is replaced after the lease's time
    const ttl = Math.max(5_000, this.settings.intervalMs * 5);
    const renewed = await this.lease.renew([LEASE_KEY], this.holder, ttl);
    if (renewed === 0 && !(await this.lease.acquire([LEASE_KEY], this.holder, ttl)).acquired) return { kind: "busy" };
    const state = await this.finishInterrupted();
    const size = state?.size ?? 0;
    const { parts, records } = await this.source.waiting(this.settings.maxEntriesPerRound);
    if (parts.length === 0) {
      // a new log publishes the checkpoint of its empty tree
      if (state === undefined) await this.sign(0, 0);
      return { kind: "idle" };
    }
    const round: RoundDocument = { _id: roundId(size), start: size, count: records.length / RECORD_BYTES, parts, done: false };
    try {
      await this.log.rounds.insertOne(round);
    } catch (err) {
      if (isDuplicateKeyError(err)) return { kind: "busy" };
      throw err;
    }
    await this.complete(round, records, size);
    return { kind: "integrated", size: round.start + round.count, added: round.count };
  }

  /** Is there anything to do: a first checkpoint to sign, a round to finish, hashes waiting? */
  private async hasWork(): Promise<boolean> {
    return (
      (await this.log.latest()) === undefined || (await this.log.rounds.count({ done: false })) > 0 || (await this.source.anyWaiting())
    );
  }

  /** Finishes the rounds left undone, oldest first; the log's state after them. */
  private async finishInterrupted(): Promise<LogState | undefined> {
    let state = await this.log.latest();
    for (const round of await this.log.rounds.find({ done: false }, { sort: { start: 1 } })) {
      const size = state?.size ?? 0;
      if (round.start > size) break; // cannot happen: rounds are claimed at the log's size
      await this.complete(round, round.start < size ? null : await this.source.recordsOf(round.parts), size);
      state = await this.log.latest();
    }
    return state;
  }

  /** Records, tiles, checkpoint, marks; `records` null when the checkpoint already covers the round. */
  private async complete(round: RoundDocument, records: Buffer | null, size: number): Promise<void> {
    if (records !== null) {
      await this.log.saveRecords(round.start, records);
      const leaves: Uint8Array[] = [];
      for (let i = 0; i < round.count; i++) {
        leaves.push(leafOfRecord(recordAt(records, i)));
        // a large round leaves the event loop to the requests now and then (the store's calls do not)
        if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToEventLoop();
      }
      await addLeavesToTiles(this.log, round.start, leaves);
      await this.sign(size, round.start + round.count);
    }
    await this.source.markLogged(round.parts, round.start);
    await this.log.rounds.updateOne({ _id: round._id }, { $set: { done: true } });
  }

  /** Signs the checkpoint of size `next` and moves the log's state from `size` to it (unless another sequencer did). */
  private async sign(size: number, next: number): Promise<void> {
    const root = await rootAt(this.log, next);
    const checkpoint = signNote(formatCheckpoint({ origin: this.settings.origin, size: next, rootHash: root, extensions: [] }), [
      this.signer,
    ]);
    await this.log.advance(size, { size: next, root: Buffer.from(root).toString("base64"), checkpoint, at: this.now() });
  }
}
