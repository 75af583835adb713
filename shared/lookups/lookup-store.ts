/**
 * The indexer's record of scripts, datums, outputs and redeemers of the protocol-relevant transactions, and the
 * lookups of docs/api.md#lookups answered from it (snake_case DTOs, as Yaci Store / Blockfrost answer them).
 *
 * Staged like the fact log (shared/indexer/fact-log.ts): `stageBlock` keeps a block's documents in memory and
 * `flush` writes every staged block with one read and one write per collection, in the indexer's batch write
 * before the checkpoint moves. Rollback-safe: every document carries the slot where it was (first) seen;
 * `rollback` deletes everything after a slot — a rollback, or (called by the indexer's repair) what an
 * interrupted write left after the checkpoint. Writes are serialised.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import { detailedDataJson } from "../csl/plutus-data";
import type { Hash32, ScriptHash, TxHash } from "../domain/hex";
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";
import { scriptHashOfAddress, transactionLookupData, type RedeemerTag, type ScriptType } from "./transaction-scripts";

type ScriptDoc = StoredDocument & { type: ScriptType; cbor: string; json: unknown; slot: number };
type DatumDoc = StoredDocument & { cbor: string; slot: number };
type OutputDoc = StoredDocument & { address: string; datumHash: string | null; datum: string | null; slot: number };
type LookupData = ReturnType<typeof transactionLookupData>;
type RedeemerDoc = StoredDocument & {
  txHash: string;
  slot: number;
  tag: RedeemerTag;
  index: number;
  data: string;
  dataHash: string;
  mem: string;
  steps: string;
  scriptHash: string | null;
  datumHash: string | null;
  datum: string | null;
};

export interface ScriptDto {
  script_hash: string;
  type: ScriptType;
  serialised_size: number | null;
}
export interface ScriptDetailDto {
  script_hash: string;
  script_type: ScriptType;
  content: unknown;
}
export interface TxContractDetails {
  tx_hash: string;
  script_hash: string | null;
  script_content: string | null;
  type: string | null;
  redeemer: { tag: RedeemerTag; index: number; data: string; ex_units: { mem: number; steps: number } };
  datum: string | null;
  datum_hash: string | null;
}
export interface TxRedeemerDto {
  tx_index: number;
  purpose: RedeemerTag;
  script_hash: string | null;
  datum_hash: string;
  redeemer_data_hash: string;
  unit_mem: string;
  unit_steps: string;
}

const CONTRACT_TYPES: Record<ScriptType, string> = {
  timelock: "TIMELOCK",
  plutusV1: "PLUTUS_V1",
  plutusV2: "PLUTUS_V2",
  plutusV3: "PLUTUS_V3",
};

/** Script and datum hashes remembered as recorded. */
const KNOWN_IDS = 10_000;

/** The documents of the staged blocks, in chain order (first sightings of scripts, datums and outputs). */
interface Staged {
  scripts: Map<string, ScriptDoc>;
  datums: Map<string, DatumDoc>;
  outputs: Map<string, OutputDoc>;
  redeemers: { txId: string; slot: number; r: LookupData["redeemers"][number] }[];
}

const nothingStaged = (): Staged => ({ scripts: new Map(), datums: new Map(), outputs: new Map(), redeemers: [] });

export class LookupStore {
  private queue: Promise<unknown> = Promise.resolve();
  private staged: Staged = nothingStaged();
  /**
   * Script and datum hashes known to be recorded (scripts and datums repeat from block to block), so a repeat
   * costs no store read. Bounded (cleared when full) and cleared by every deletion.
   */
  private readonly known = new Set<string>();

  private constructor(
    private readonly scripts: Collection<ScriptDoc>,
    private readonly datums: Collection<DatumDoc>,
    private readonly outputs: Collection<OutputDoc>,
    private readonly redeemers: Collection<RedeemerDoc>,
  ) {}

  static async open(store: Store): Promise<LookupStore> {
    const s = new LookupStore(
      store.collection<ScriptDoc>("lookup_scripts"),
      store.collection<DatumDoc>("lookup_datums"),
      store.collection<OutputDoc>("lookup_outputs"),
      store.collection<RedeemerDoc>("lookup_redeemers"),
    );
    for (const c of [s.scripts, s.datums, s.outputs] as Collection<StoredDocument & { slot: number }>[])
      await c.ensureIndexes([{ fields: { slot: 1 } }]);
    await s.redeemers.ensureIndexes([{ fields: { slot: 1 } }, { fields: { txHash: 1, tag: 1, index: 1 } }]);
    return s;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Stages the scripts, datums, outputs and redeemers of the given transactions of the block at `slot` for the next
   * `flush` (blocks in chain order). @returns the number of transactions staged
   */
  stageBlock(slot: number, transactions: readonly Transaction[]): number {
    const staged = this.staged;
    for (const tx of transactions) {
      // A transaction whose scripts failed only moved its collateral: it ran nothing worth answering.
      if (tx.spends === "collaterals") continue;
      const data = transactionLookupData(tx);
      for (const s of data.scripts)
        if (!staged.scripts.has(s.hash)) staged.scripts.set(s.hash, { _id: s.hash, type: s.type, cbor: s.cbor, json: s.json, slot });
      for (const d of data.datums) if (!staged.datums.has(d.hash)) staged.datums.set(d.hash, { _id: d.hash, cbor: d.cbor, slot });
      for (const o of data.outputs)
        if (!staged.outputs.has(o.ref))
          staged.outputs.set(o.ref, { _id: o.ref, address: o.address, datumHash: o.datumHash, datum: o.datum, slot });
      for (const r of data.redeemers) staged.redeemers.push({ txId: tx.id, slot, r });
    }
    return transactions.length;
  }

  /**
   * Writes the staged blocks: one read and one write per collection (a write per document, then per block, made
   * the store the cost of a replay). @throws StoreError; what was staged is then dropped (processed again).
   */
  flush(): Promise<void> {
    const staged = this.staged;
    this.staged = nothingStaged();
    if (staged.scripts.size + staged.datums.size + staged.outputs.size + staged.redeemers.length === 0) return Promise.resolve();
    return this.serial(() => this.write(staged));
  }

  /** Forgets what was staged (the blocks are processed again). */
  discard(): void {
    this.staged = nothingStaged();
  }

  /** Records the given transactions of the block at `slot` now (stage + flush). @returns the number of transactions */
  async recordBlock(slot: number, transactions: readonly Transaction[]): Promise<number> {
    const n = this.stageBlock(slot, transactions);
    await this.flush();
    return n;
  }

  /** Forgets everything seen after `slot` (-1 = everything), staged or stored. */
  rollback(slot: number): Promise<void> {
    const s = this.staged;
    const keep = <T extends { slot: number }>(m: Map<string, T>) => {
      for (const [id, doc] of m) if (doc.slot > slot) m.delete(id);
    };
    keep(s.scripts);
    keep(s.datums);
    keep(s.outputs);
    s.redeemers = s.redeemers.filter((r) => r.slot <= slot);
    return this.serial(() => this.deleteFrom(slot));
  }

  private async deleteFrom(slot: number): Promise<void> {
    this.known.clear();
    const after = { slot: { $gt: slot } };
    await this.scripts.deleteMany(after);
    await this.datums.deleteMany(after);
    await this.outputs.deleteMany(after);
    await this.redeemers.deleteMany(after);
  }

  /**
   * Inserts the documents not yet present, in one write: the first sighting (lowest slot) is the one a rollback
   * must keep. `repeating`: documents often recorded before (scripts, datums): the ids known or found present are
   * left out first, so a repeat costs no failed write.
   */
  private async insertNew<T extends StoredDocument>(c: Collection<T>, docs: Map<string, T>, repeating: boolean): Promise<void> {
    if (repeating) {
      for (const id of docs.keys()) if (this.known.has(id)) docs.delete(id);
      if (docs.size > 0)
        for (const present of await c.findProjected({ _id: { $in: [...docs.keys()] } }, { slot: 1 })) {
          docs.delete(present._id!);
          this.remember(present._id!);
        }
    }
    if (docs.size === 0) return;
    try {
      await c.insertMany([...docs.values()]);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // One is present (all-or-none: nothing of this batch was written): one at a time, keeping the present ones.
      for (const doc of docs.values()) {
        try {
          await c.insertOne(doc);
        } catch (e) {
          if (!isDuplicateKeyError(e)) throw e;
        }
      }
    }
    if (repeating) for (const id of docs.keys()) this.remember(id);
  }

  private remember(id: string): void {
    if (this.known.size >= KNOWN_IDS) this.known.clear();
    this.known.add(id);
  }

  /** Writes staged blocks: scripts, datums, outputs, then redeemers (each with its spent output's datum). */
  private async write({ scripts, datums, outputs, redeemers }: Staged): Promise<void> {
    // A redeemer's spent output and its datum: from the staged blocks (an earlier transaction) or from the store.
    const blockOutputs = new Map(outputs);
    const blockDatums = new Map(datums);
    await this.insertNew(this.scripts, scripts, true);
    await this.insertNew(this.datums, datums, true);
    await this.insertNew(this.outputs, outputs, false);
    if (redeemers.length === 0) return;

    const wanted = [...new Set(redeemers.flatMap(({ r }) => (r.spentRef !== null && !blockOutputs.has(r.spentRef) ? [r.spentRef] : [])))];
    if (wanted.length > 0) for (const o of await this.outputs.find({ _id: { $in: wanted } })) blockOutputs.set(o._id, o);
    const datumHashes = [
      ...new Set(
        redeemers.flatMap(({ r }) => {
          const spent = r.spentRef !== null ? blockOutputs.get(r.spentRef) : undefined;
          return spent && (spent.datum ?? null) === null && spent.datumHash && !blockDatums.has(spent.datumHash) ? [spent.datumHash] : [];
        }),
      ),
    ];
    if (datumHashes.length > 0) for (const d of await this.datums.find({ _id: { $in: datumHashes } })) blockDatums.set(d._id, d);

    const docs = new Map<string, RedeemerDoc>();
    for (const { txId, slot, r } of redeemers) {
      const spent = r.spentRef !== null ? blockOutputs.get(r.spentRef) : undefined;
      const datum = spent?.datum ?? (spent?.datumHash ? (blockDatums.get(spent.datumHash)?.cbor ?? null) : null);
      docs.set(`${txId}:${r.tag}:${r.index}`, {
        _id: `${txId}:${r.tag}:${r.index}`,
        txHash: txId,
        slot,
        tag: r.tag,
        index: r.index,
        data: r.data,
        dataHash: r.dataHash,
        mem: r.mem.toString(),
        steps: r.steps.toString(),
        scriptHash: r.scriptHash ?? (spent ? scriptHashOfAddress(spent.address) : null),
        datumHash: spent?.datumHash ?? null,
        datum,
      });
    }
    try {
      await this.redeemers.insertMany([...docs.values()]);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // One is recorded already (the same transaction seen again; nothing of this batch was written): the newest
      // sighting replaces it.
      for (const { _id, ...fields } of docs.values()) await this.redeemers.updateOne({ _id }, { $set: fields }, { upsert: true });
    }
  }

  // ---- lookups ----------------------------------------------------------------------------------------------------

  async script(hash: ScriptHash): Promise<ScriptDto | undefined> {
    const s = await this.scripts.findOne({ _id: hash });
    return s ? { script_hash: s._id, type: s.type, serialised_size: s.type === "timelock" ? null : s.cbor.length / 2 } : undefined;
  }

  async scriptJson(hash: ScriptHash): Promise<{ json: unknown } | undefined> {
    const s = await this.scripts.findOne({ _id: hash });
    return s ? { json: s.type === "timelock" ? s.json : null } : undefined;
  }

  async scriptCbor(hash: ScriptHash): Promise<{ cbor: string | null } | undefined> {
    const s = await this.scripts.findOne({ _id: hash });
    return s ? { cbor: s.type === "timelock" ? null : s.cbor } : undefined;
  }

  async scriptDetails(hash: ScriptHash): Promise<ScriptDetailDto | undefined> {
    const s = await this.scripts.findOne({ _id: hash });
    return s ? { script_hash: s._id, script_type: s.type, content: s.type === "timelock" ? s.json : s.cbor } : undefined;
  }

  async datum(hash: Hash32): Promise<{ json_value: unknown } | undefined> {
    const d = await this.datums.findOne({ _id: hash });
    return d ? { json_value: detailedDataJson(d.cbor) } : undefined;
  }

  async datumCbor(hash: Hash32): Promise<{ cbor: string } | undefined> {
    const d = await this.datums.findOne({ _id: hash });
    return d ? { cbor: d.cbor } : undefined;
  }

  private async redeemersOf(txHash: TxHash): Promise<RedeemerDoc[]> {
    return this.redeemers.find({ txHash }, { sort: { tag: 1, index: 1 } });
  }

  async txScripts(txHash: TxHash): Promise<TxContractDetails[]> {
    const out: TxContractDetails[] = [];
    for (const r of await this.redeemersOf(txHash)) {
      const script = r.scriptHash !== null ? await this.scripts.findOne({ _id: r.scriptHash }) : undefined;
      out.push({
        tx_hash: r.txHash,
        script_hash: r.scriptHash,
        script_content: script?.cbor ?? null,
        type: script ? CONTRACT_TYPES[script.type] : null,
        redeemer: { tag: r.tag, index: r.index, data: r.data, ex_units: { mem: Number(r.mem), steps: Number(r.steps) } },
        datum: r.datum,
        datum_hash: r.datumHash,
      });
    }
    return out;
  }

  async txRedeemers(txHash: TxHash): Promise<TxRedeemerDto[]> {
    return (await this.redeemersOf(txHash)).map((r) => ({
      tx_index: r.index,
      purpose: r.tag,
      script_hash: r.scriptHash,
      // Blockfrost's (deprecated) `datum_hash` of a redeemer is its data hash, like `redeemer_data_hash`.
      datum_hash: r.dataHash,
      redeemer_data_hash: r.dataHash,
      unit_mem: r.mem,
      unit_steps: r.steps,
    }));
  }
}
