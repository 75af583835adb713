/**
 * The block points the fact log keeps in `indexer_blocks` (point, height, time): where a restarted indexer looks for
 * an intersection with the chain. Only the newest `RECENT_BLOCKS_KEPT` are needed (no rollback goes deeper), so
 * older ones are pruned as the log grows and are not stored at all when a long sync stages them from far behind.
 */
import type { Collection, Store, StoredDocument } from "../store";

export interface BlockPoint {
  slot: number;
  id: string;
}

export interface BlockRecord extends StoredDocument {
  slot: number;
  height: number;
  time: number;
}

/** Block points kept as intersection candidates (the security parameter k of mainnet): rollbacks go no deeper. */
export const RECENT_BLOCKS_KEPT = 2160;

export class BlockPoints {
  /** Blocks written since the stored points were last pruned. */
  private blocksSincePrune = 0;

  private constructor(
    private readonly blocks: Collection<BlockRecord>,
    /** Points kept below the newest. */
    private readonly keep: number,
  ) {}

  static async open(store: Store, keep: number): Promise<BlockPoints> {
    const blocks = store.collection<BlockRecord>("indexer_blocks");
    await blocks.ensureIndexes([{ fields: { slot: 1 } }, { fields: { height: -1 } }]);
    return new BlockPoints(blocks, keep);
  }

  /** The most recent block points, newest first. */
  async recent(n: number): Promise<BlockPoint[]> {
    const recent = await this.blocks.find({}, { sort: { slot: -1 }, limit: n });
    return recent.map((b) => ({ slot: b.slot, id: b._id }));
  }

  /**
   * Adds a block's point to those staged for the next write. A point deeper than the rollback horizon below the tip
   * can never be rolled back to: only the newest staged block (the checkpoint, where a restart intersects) is
   * stored from that far behind.
   */
  stage(staged: BlockRecord[], point: BlockRecord, tipHeight: number | undefined): void {
    const previous = staged.at(-1);
    if (previous && tipHeight !== undefined && previous.height <= tipHeight - this.keep) staged.pop();
    staged.push(point);
  }

  async insert(staged: readonly BlockRecord[]): Promise<void> {
    if (staged.length > 0) await this.blocks.insertMany(staged);
  }

  /** After `count` blocks were written up to `height`: forgets the points beyond the horizon, every `keep / 2` blocks (at least 100). */
  async written(count: number, height: number): Promise<void> {
    this.blocksSincePrune += count;
    if (this.blocksSincePrune < Math.max(100, this.keep / 2)) return;
    this.blocksSincePrune = 0;
    await this.blocks.deleteMany({ height: { $lte: height - this.keep } });
  }

  /** Deletes the points after `slot` (-1: all). */
  async deleteAfter(slot: number): Promise<void> {
    await this.blocks.deleteMany({ slot: { $gt: slot } });
  }

  /** Forgets block points older than the newest `keep` (they are only intersection candidates). */
  async pruneKeeping(keep: number): Promise<number> {
    const [oldestKept] = await this.blocks.find({}, { sort: { slot: -1 }, skip: keep - 1, limit: 1 });
    return oldestKept ? this.blocks.deleteMany({ slot: { $lt: oldestKept.slot } }) : 0;
  }

  /** The slot of a recorded block (undefined when unknown or pruned). */
  async slotOf(blockId: string): Promise<number | undefined> {
    return (await this.blocks.findOne({ _id: blockId }))?.slot;
  }

  /** The height of a recorded block (0 when unknown or pruned). */
  async heightOf(blockId: string): Promise<number> {
    return (await this.blocks.findOne({ _id: blockId }))?.height ?? 0;
  }
}
