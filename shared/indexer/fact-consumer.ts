/**
 * A consumer of the indexer's fact log: keeps its own cursor in the store and catches up from the indexer, so a
 * consumer that was down, or missed a bus notification, loses nothing (at-least-once). Projections must be
 * idempotent (deterministic ids, upserts), because a crash between applying and saving the cursor replays facts.
 * Rollback markers are applied in log order, between the facts around them.
 */
import type { Collection, Store, StoredDocument } from "../store";
import { CoalescedRun } from "../domain/coalesced-run";
import type { FactRecord } from "./fact-log";

export interface FactSource {
  /** Facts and rollback markers with seq > cursor, in order, at most `limit`. */
  after(cursor: number, limit: number): Promise<FactRecord[]>;
}

export interface Projection {
  /** Unique per projection: names the cursor. */
  readonly name: string;
  apply(facts: FactRecord[]): Promise<void>;
  /** Undo everything recorded for slots after `slot` (-1 = everything). */
  rollback(slot: number): Promise<void>;
}

interface CursorDoc extends StoredDocument {
  seq: number;
}

export class FactConsumer {
  private readonly cursors: Collection<CursorDoc>;
  private applied: number | undefined;

  constructor(
    store: Store,
    private readonly source: FactSource,
    private readonly projection: Projection,
    private readonly batchSize = 500,
  ) {
    this.cursors = store.collection<CursorDoc>("consumer_cursors");
  }

  async cursor(): Promise<number> {
    return (await this.cursors.findOne({ _id: this.projection.name }))?.seq ?? 0;
  }

  /**
   * The sequence number through which the projection holds every fact, as far as this process knows without a
   * store read (undefined before the first catch-up). Read it before reading the projection: what the projection
   * answers then reflects at least these facts.
   */
  appliedSeq(): number | undefined {
    return this.applied;
  }

  /**
   * Reads and applies everything after the cursor. Concurrent calls share one run; a call made while a run is in
   * progress makes that run go round once more, so a notification is never lost.
   * @returns the cursor after the run
   */
  catchUp(): Promise<number> {
    return this.runs.start();
  }

  private readonly runs = new CoalescedRun(async (rounds) => {
    let cursor = await this.cursor();
    this.applied = cursor;
    await rounds(async () => {
      for (;;) {
        const batch = await this.source.after(cursor, this.batchSize);
        if (batch.length === 0) break;
        let pending: FactRecord[] = [];
        for (const r of batch) {
          if (r.kind === "rollback") {
            if (pending.length > 0) await this.projection.apply(pending);
            pending = [];
            await this.projection.rollback(r.rollbackTo);
          } else pending.push(r);
        }
        if (pending.length > 0) await this.projection.apply(pending);
        cursor = batch[batch.length - 1]!.seq;
        await this.cursors.updateOne({ _id: this.projection.name }, { $set: { seq: cursor } }, { upsert: true });
        this.applied = cursor;
        if (batch.length < this.batchSize) break;
      }
    });
    return cursor;
  });
}
