/**
 * The indexer's persistent record of the chain, in the store:
 * - `indexer_blocks`: the newest blocks seen (`block-points.ts`) — intersection candidates after a restart;
 * - `indexer_transactions`: every transaction id seen, with its block, fee and validity — for confirmations and fees;
 * - `indexer_facts`: a sequence-numbered log of decoded protocol facts and rollback markers (`fact-records.ts`).
 *   Consumers (verifier, stats, credentials, …) keep their own cursor (`seq`) and read the log after it, so a
 *   consumer that was down, or missed an event, loses nothing. A rollback deletes the facts after the rollback point
 *   and appends a marker telling consumers which slot to roll back to. Certificate facts are read by data hash
 *   (`certificate-facts.ts`);
 * - `indexer_meta`: the checkpoint (the last block whose facts are all persisted).
 * Writes are staged per block and flushed in batches (`flush`): the plugins' staged records (`StagedRecords`),
 * transactions, facts, block points, then the checkpoint, so the checkpoint never names a block whose records are
 * not all stored. Whatever lies after the checkpoint (an interrupted write) is deleted by `repair`, which runs on
 * the first flush after opening or after a failure, and which the indexer also calls before it resumes.
 * Current protocol state (states, bootstraps, library entries, proxy pointer) is the latest fact per key, so a
 * rollback needs no undo logic: deleting the facts after the point is enough.
 */
import type { TransactionRecord } from "../records/protocol-records";
import type { Collection, Filter, Store, StoredDocument } from "../store";
import { BlockPoints, RECENT_BLOCKS_KEPT, type BlockPoint, type BlockRecord } from "./block-points";
import { CERTIFICATE_HASH_INDEX, CertificateFacts } from "./certificate-facts";
import { FACTS_COLLECTION, keyOf, restored, storedForm, type FactRecord } from "./fact-records";
import type { ProtocolFact } from "./protocol-decoder";

export { RECENT_BLOCKS_KEPT, type BlockPoint } from "./block-points";
export { CERTIFICATE_HASH_INDEX, CertificateFacts, type CertificateFact } from "./certificate-facts";
export type { FactRecord } from "./fact-records";

interface MetaRecord extends StoredDocument {
  slot?: number;
  id?: string;
  height?: number;
  deployment?: string;
}

export interface BlockFacts {
  point: BlockPoint;
  height: number;
  time: number;
  transactions: { id: string; fee: bigint; valid: boolean }[];
  /** each with the key of what it is about when its decoder gave one (an extension's fact) */
  facts: { txId: string; fact: ProtocolFact; key?: string | null }[];
}

/**
 * Records written with the log's batches: the indexer passes its plugin pipeline, whose staging plugins (the
 * lookups, the sorted lists) stage records per block. They share the log's crash-safety: written before the
 * checkpoint moves, deleted after it by a rollback and by `repair`.
 */
export interface StagedRecords {
  /** Writes what was staged since the last call, in chain order. */
  write(): Promise<void>;
  /** Forgets what was staged (the blocks are processed again). */
  discard(): void;
  /** Deletes the records of blocks after `slot` (-1: all). */
  deleteAfter(slot: number): Promise<void>;
}

/** What the next `flush` writes: whole blocks, in chain order. */
interface Staged {
  /** blocks staged (their points are in `blocks` only when within the rollback horizon of the tip, or the newest) */
  count: number;
  txs: TransactionRecord[];
  facts: FactRecord[];
  blocks: BlockRecord[];
  checkpoint?: { slot: number; id: string; height: number };
}

const nothingStaged = (): Staged => ({ count: 0, txs: [], facts: [], blocks: [] });

export class FactLog {
  private readonly txs: Collection<TransactionRecord>;
  private readonly facts: Collection<FactRecord>;
  private readonly meta: Collection<MetaRecord>;
  private nextSeq = 1;
  /**
   * After opening (or a failed write) the store may hold leftovers of an interrupted flush: records after the
   * checkpoint. Rollbacks delete everything after their point, so only the first flush pays the cleanup.
   */
  private mayHaveLeftovers = true;
  private staged: Staged = nothingStaged();

  private constructor(
    store: Store,
    private readonly points: BlockPoints,
    private readonly companion: StagedRecords | undefined,
  ) {
    this.txs = store.collection<TransactionRecord>("indexer_transactions");
    this.facts = store.collection<FactRecord>(FACTS_COLLECTION);
    this.meta = store.collection<MetaRecord>("indexer_meta");
  }

  /**
   * @param opts.keepBlocks block points kept as intersection candidates (default `RECENT_BLOCKS_KEPT`)
   * @param opts.staged records written with every batch, before the checkpoint (the plugins')
   */
  static async open(store: Store, opts: { keepBlocks?: number; staged?: StagedRecords } = {}): Promise<FactLog> {
    const log = new FactLog(store, await BlockPoints.open(store, opts.keepBlocks ?? RECENT_BLOCKS_KEPT), opts.staged);
    // Single-field indexes only, one per field a query names.
    await log.txs.ensureIndexes([{ fields: { slot: 1 } }, { fields: { blockId: 1 } }]);
    // Only fields a query names: `seq` (consumers, the next number), `slot` (rollbacks, leftovers), `key` and the
    // fact fields of `current`, `history` and `keysWhere`, and `fact.hash` (certificate reads, `CertificateFacts`).
    // Nothing looks facts up by block: `blockId` has no index (it would take ~90 B per fact).
    await log.facts.ensureIndexes([
      { fields: { seq: 1 }, unique: true },
      { fields: { slot: 1 } },
      { fields: { key: 1 } },
      { fields: { "fact.type": 1 } },
      { fields: { "fact.owner": 1 } },
      { fields: { "fact.batchId": 1 } },
      CERTIFICATE_HASH_INDEX,
    ]);
    const [last] = await log.facts.find({}, { sort: { seq: -1 }, limit: 1 });
    log.nextSeq = (last?.seq ?? 0) + 1;
    return log;
  }

  async checkpoint(): Promise<{ point: BlockPoint; height: number } | undefined> {
    const m = await this.meta.findOne({ _id: "checkpoint" });
    return m && m.slot !== undefined && m.id !== undefined ? { point: { slot: m.slot, id: m.id }, height: m.height ?? 0 } : undefined;
  }

  /** Which deployment the log was decoded for (see Indexer.create). */
  async deployment(): Promise<string | undefined> {
    return (await this.meta.findOne({ _id: "deployment" }))?.deployment;
  }

  async setDeployment(fingerprint: string): Promise<void> {
    await this.meta.updateOne({ _id: "deployment" }, { $set: { deployment: fingerprint } }, { upsert: true });
  }

  /** The most recent block points, newest first: where to look for an intersection after a restart. */
  async recentPoints(n: number): Promise<BlockPoint[]> {
    return this.points.recent(n);
  }

  /** Stages every transaction of a block (the confirmation index) for the next `flush`. */
  stageTransactions(b: Pick<BlockFacts, "point" | "height" | "time" | "transactions">): number {
    for (const t of b.transactions) {
      this.staged.txs.push({
        _id: t.id,
        slot: b.point.slot,
        blockId: b.point.id,
        height: b.height,
        time: b.time,
        fee: t.fee.toString(),
        valid: t.valid,
      });
    }
    return b.transactions.length;
  }

  /**
   * Stages one block's facts (with fresh sequence numbers), its point and the checkpoint moving to it, for the next
   * `flush`. Blocks are staged in chain order, each after its transactions.
   * @returns the facts as they will be stored, in order
   */
  stageBlock(b: BlockFacts, opts: { tipHeight?: number } = {}): FactRecord[] {
    const base = { slot: b.point.slot, blockId: b.point.id, height: b.height, time: b.time };
    const feeOf = new Map(b.transactions.map((t) => [t.id, t.fee.toString()]));
    const records: FactRecord[] = b.facts.map(({ txId, fact, key }, n) => ({
      _id: `${txId}:${n}`,
      seq: this.nextSeq + n,
      ...base,
      txId,
      kind: "fact",
      fact,
      key: key !== undefined ? key : keyOf(fact),
      txFee: feeOf.get(txId) ?? "0",
    }));
    this.nextSeq += records.length;
    this.staged.facts.push(...records.map(storedForm));
    this.points.stage(this.staged.blocks, { _id: b.point.id, slot: b.point.slot, height: b.height, time: b.time }, opts.tipHeight);
    this.staged.count += 1;
    this.staged.checkpoint = { slot: b.point.slot, id: b.point.id, height: b.height };
    return records;
  }

  /** How many blocks and facts wait for the next `flush`. */
  stagedCounts(): { blocks: number; facts: number; transactions: number } {
    return { blocks: this.staged.count, facts: this.staged.facts.length, transactions: this.staged.txs.length };
  }

  /**
   * Writes what was staged — transactions, facts, block points — then the checkpoint, so a crash part-way leaves
   * only records after the checkpoint, which the next flush after opening deletes (the blocks are processed again).
   * Stored block points beyond the newest `keepBlocks` are pruned as the log grows.
   * @throws StoreError; the staged blocks are then dropped and must be processed again (from the checkpoint).
   */
  async flush(): Promise<void> {
    const staged = this.staged;
    this.staged = nothingStaged();
    if (staged.checkpoint === undefined && staged.txs.length === 0) return;
    try {
      await this.repair();
      await this.companion?.write();
      if (staged.txs.length > 0) await this.txs.insertMany(staged.txs);
      if (staged.facts.length > 0) await this.facts.insertMany(staged.facts);
      await this.points.insert(staged.blocks);
      const cp = staged.checkpoint;
      if (cp) {
        await this.meta.updateOne({ _id: "checkpoint" }, { $set: { slot: cp.slot, id: cp.id, height: cp.height } }, { upsert: true });
        await this.points.written(staged.count, cp.height);
      }
    } catch (err) {
      this.discardStaged();
      throw err;
    }
  }

  /**
   * Forgets what was staged, the plugins' staged records too (the blocks will be processed again); the next flush
   * first clears leftovers. Sequence numbers are never reused (a consumer may have read a leftover), so this leaves
   * a gap.
   */
  discardStaged(): void {
    this.staged = nothingStaged();
    this.companion?.discard();
    this.mayHaveLeftovers = true;
  }

  /**
   * After opening, or after a failed write, the store may hold leftovers of an interrupted flush: records after the
   * checkpoint (transactions, facts, block points, the plugins' records). Deletes them; a no-op once done (rollbacks
   * delete everything after their point themselves).
   * @throws StoreError; leftovers may then remain, and the next call tries again
   */
  async repair(): Promise<void> {
    if (!this.mayHaveLeftovers) return;
    const slot = (await this.checkpoint())?.point.slot ?? -1;
    const after = { slot: { $gt: slot } };
    await this.txs.deleteMany(after);
    await this.facts.deleteMany(after);
    await this.points.deleteAfter(slot);
    await this.companion?.deleteAfter(slot);
    this.mayHaveLeftovers = false;
  }

  /** Records every transaction of a block now (stage + flush). */
  async recordTransactions(b: Pick<BlockFacts, "point" | "height" | "time" | "transactions">): Promise<number> {
    const n = this.stageTransactions(b);
    await this.flush();
    return n;
  }

  /**
   * Persists one block's facts (with fresh sequence numbers), then the checkpoint (stage + flush).
   * @returns the facts as stored, in order
   */
  async appendBlock(b: BlockFacts): Promise<FactRecord[]> {
    const records = this.stageBlock(b);
    await this.flush();
    return records;
  }

  /** Forgets block points older than the newest `keep` (they are only intersection candidates). */
  async pruneBlocks(keep: number): Promise<number> {
    return this.points.pruneKeeping(keep);
  }

  /**
   * Rolls back to `to` (origin = -1): removes blocks, transactions and facts after it, moves the checkpoint,
   * and appends a marker so consumers undo what they applied.
   * @returns the marker
   */
  async rollback(to: BlockPoint | "origin", height: number): Promise<FactRecord> {
    const slot = to === "origin" ? -1 : to.slot;
    await this.facts.deleteMany({ slot: { $gt: slot } });
    await this.txs.deleteMany({ slot: { $gt: slot } });
    await this.points.deleteAfter(slot);
    if (to === "origin") await this.meta.deleteOne({ _id: "checkpoint" });
    else await this.meta.updateOne({ _id: "checkpoint" }, { $set: { slot: to.slot, id: to.id, height } }, { upsert: true });
    const marker: FactRecord = {
      _id: `rollback:${this.nextSeq}`,
      seq: this.nextSeq,
      slot,
      blockId: to === "origin" ? "origin" : to.id,
      height,
      time: 0,
      txId: "",
      kind: "rollback",
      rollbackTo: slot,
    };
    await this.facts.insertOne(marker);
    this.nextSeq += 1;
    // After the checkpoint moved back: a failure here leaves plugin records after it, which `repair` deletes.
    try {
      await this.companion?.deleteAfter(slot);
    } catch (err) {
      this.mayHaveLeftovers = true;
      throw err;
    }
    return marker;
  }

  /** Facts and rollback markers after a consumer's cursor, in order. */
  async after(cursor: number, limit: number): Promise<FactRecord[]> {
    return (await this.facts.find({ seq: { $gt: cursor } }, { sort: { seq: 1 }, limit })).map(restored);
  }

  lastSeq(): number {
    return this.nextSeq - 1;
  }

  async transaction(id: string): Promise<TransactionRecord | undefined> {
    return this.txs.findOne({ _id: id });
  }

  /** The slot of a recorded block (undefined when unknown or pruned). */
  async slotOf(blockId: string): Promise<number | undefined> {
    return this.points.slotOf(blockId);
  }

  /** The height of a recorded block (0 when unknown or pruned). */
  async heightOf(blockId: string): Promise<number> {
    return this.points.heightOf(blockId);
  }

  /** The distinct keys of the facts matching `filter` (to narrow `current` to a few keys). */
  async keysWhere(filter: Filter): Promise<string[]> {
    const rows = await this.facts.findProjected(filter, { key: 1, _id: 0 });
    return [...new Set(rows.map((r) => r.key).filter((k): k is string => typeof k === "string"))];
  }

  /** Every fact of the given types, oldest first (e.g. the pointer's history). */
  async history(typeIn: ProtocolFact["type"][]): Promise<FactRecord[]> {
    return (await this.facts.find({ "fact.type": { $in: typeIn } }, { sort: { seq: 1 } })).map(restored);
  }

  /**
   * The certificate facts of the fact log in `store`, for a reader that shares the indexer's store but not its
   * `FactLog` (the verifier): reading only, the indexes are the log's (`FactLog.open`).
   */
  static certificatesIn(store: Store): CertificateFacts {
    return new CertificateFacts(store.collection<FactRecord>(FACTS_COLLECTION));
  }

  /** The latest fact of every key named, or of every key whose facts have one of the types. */
  async current(keys: { in: string[] } | { typeIn: ProtocolFact["type"][] }): Promise<FactRecord[]> {
    const filter = "in" in keys ? { key: { $in: keys.in } } : { "fact.type": { $in: keys.typeIn } };
    const rows = await this.facts.find(filter, { sort: { seq: -1 } });
    const latest = new Map<string, FactRecord>();
    for (const r of rows) if (r.key && !latest.has(r.key)) latest.set(r.key, restored(r));
    return [...latest.values()];
  }
}
