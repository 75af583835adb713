/**
 * The confirmations the chain producer follows (`events_tracked`, docs/events.md#the-chain): each confirmed
 * transaction with how deep it is and what it carries. Each later block makes those not yet final one deeper (one
 * `transaction.confirmed` per transaction and block, up to the finality depth); they are kept until they are deeper
 * than any rollback reaches, so a rollback marker can announce what its blocks held (rollback-events.ts). A
 * confirmation that anchored a calendar checkpoint remembers the receipts it anchored.
 */
import type { Collection, Store, StoredDocument, Value } from "../store";
import { depthAt, transactionConfirmed, type ChainBlock, type Confirmation } from "./chain-events";
import type { NewEvent } from "./event-types";

/** Confirmations are kept this many blocks deep: Cardano never rolls back further (k). */
export const ROLLBACK_HORIZON = 2160;

export interface TrackedDoc extends StoredDocument, Omit<Confirmation, "transactionHash"> {
  /**
   * The fact sequence it was derived at (its first fact's): a rollback marker undoes only what was derived before it,
   * so deriving the log again from an older cursor never rolls back what came after the marker.
   */
  seq: number;
  final: boolean;
  /** the id of its first confirmation in the log: rollbacks go newest first */
  order: number;
  /** carries no protocol fact: it was awaited as submitted, and is awaited again after a rollback */
  submittedOnly: boolean;
  /** the log indexes of the receipts it anchored, [from, to) */
  receipts?: { from: number; to: number };
}

export const confirmationOf = (t: TrackedDoc): Confirmation => ({
  transactionHash: t._id,
  includedIn: t.includedIn,
  epoch: t.epoch,
  depth: t.depth,
  subjects: t.subjects,
  certificates: t.certificates,
});

/** A tracked confirmation's fields, as an update sets them. */
const withoutId = (doc: TrackedDoc): Record<string, Value> => {
  const { _id, ...rest } = doc;
  return rest as unknown as Record<string, Value>;
};

/** The depth updates a block brings, and the write of the new depths (once the events are appended). */
export interface Deepening {
  events: NewEvent<"transaction.confirmed">[];
  save(): Promise<void>;
}

export class TrackedConfirmations {
  private constructor(
    private readonly tracked: Collection<TrackedDoc>,
    private readonly finalityDepth: number,
  ) {}

  static async open(store: Store, finalityDepth: number): Promise<TrackedConfirmations> {
    const tracked = store.collection<TrackedDoc>("events_tracked");
    await tracked.ensureIndexes([
      { fields: { final: 1 } },
      { fields: { "includedIn.slot": 1 } },
      { fields: { "includedIn.height": 1 } },
      { fields: { seq: 1 } },
      { fields: { "receipts.to": 1 }, sparse: true },
    ]);
    return new TrackedConfirmations(tracked, finalityDepth);
  }

  /** The confirmations of these transactions that are followed, by transaction. */
  async byTransaction(ids: readonly string[]): Promise<Map<string, TrackedDoc>> {
    return new Map((await this.tracked.find({ _id: { $in: [...ids] } })).map((t) => [t._id, t]));
  }

  async has(id: string): Promise<boolean> {
    return Boolean(await this.tracked.findOne({ _id: id }));
  }

  async save(doc: TrackedDoc): Promise<void> {
    await this.tracked.updateOne({ _id: doc._id }, { $set: withoutId(doc) }, { upsert: true });
  }

  /** The confirmations that `block` makes deeper (all but those of `except`), and the write of their new depth. */
  async deepen(block: ChainBlock, except: readonly string[] = []): Promise<Deepening> {
    const finality = this.finalityDepth;
    const open = (await this.tracked.find({ final: false }, { sort: { order: 1 } })).filter(
      (t) => !except.includes(t._id) && t.includedIn.height < block.height,
    );
    const changed = open.flatMap((t) => {
      const depth = depthAt(t.includedIn.height, block.height, finality);
      return depth > t.depth ? [{ t, depth }] : [];
    });
    return {
      events: changed.map(({ t, depth }) => transactionConfirmed(confirmationOf(t), depth, block, finality)),
      save: async () => {
        for (const { t, depth } of changed) await this.tracked.updateOne({ _id: t._id }, { $set: { depth, final: depth >= finality } });
      },
    };
  }

  /** What a rollback to slot `rollbackTo` undoes of what was derived before its marker `seq`, newest first. */
  undoneBy(rollbackTo: number, seq: number): Promise<TrackedDoc[]> {
    return this.tracked.find(undoneFilter(rollbackTo, seq), { sort: { order: -1 } });
  }

  /** Forgets what `undoneBy` names, once its rollback is announced. */
  async forgetUndone(rollbackTo: number, seq: number): Promise<void> {
    await this.tracked.deleteMany(undoneFilter(rollbackTo, seq));
  }

  /**
   * The checkpoint size whose receipts were anchored by a final confirmation deeper than any rollback (tip at
   * `tipHeight`), when beyond `settledLogSize`: what `forgetSettled` is about to forget.
   */
  async settledLogSize(tipHeight: number, settledLogSize: number): Promise<number | undefined> {
    const [settled] = await this.tracked.find(
      { ...settledFilter(tipHeight), "receipts.to": { $gt: settledLogSize } },
      { sort: { "receipts.to": -1 }, limit: 1 },
    );
    return settled?.receipts?.to;
  }

  /** Forgets the final confirmations deeper than any rollback. */
  async forgetSettled(tipHeight: number): Promise<void> {
    await this.tracked.deleteMany(settledFilter(tipHeight));
  }

  /** The checkpoint size whose receipts are announced anchored by a confirmation still on chain, or settled. */
  async anchoredLogSize(settledLogSize: number): Promise<number> {
    const [newest] = await this.tracked.find({ "receipts.to": { $gt: 0 } }, { sort: { "receipts.to": -1 }, limit: 1 });
    return Math.max(settledLogSize, newest?.receipts?.to ?? 0);
  }
}

const undoneFilter = (rollbackTo: number, seq: number) => ({ "includedIn.slot": { $gt: rollbackTo }, seq: { $lt: seq } });
const settledFilter = (tipHeight: number) => ({ final: true, "includedIn.height": { $lt: tipHeight - ROLLBACK_HORIZON } });
