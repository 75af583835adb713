/**
 * In-flight tracking shared by every tx-builder replica (docs/decisions.md#in-flight-tracking):
 * - a build hands the UTxOs it spends out to its transaction for a short while, so later builds (of any replica)
 *   prefer other inputs. A hand-out never refuses anything: a build that needs an input handed out to another
 *   build takes it over. Builds are unauthenticated, so nothing a build does may lock a wallet: a stranger who
 *   builds for someone else's address must not be able to block the owner;
 * - a submitted transaction locks its inputs while the node's mempool holds it (until a block includes it or the
 *   node drops it), at most for its lifetime (its validity bound plus a margin, capped by the service); its outputs
 *   are pending
 *   (spendable, chainable) until then — offered only to builds of a wallet that signed it, so nobody can make a
 *   wallet chain off a transaction it did not sign;
 * - spendable(address) = confirmed − locked + pending outputs that no later pending tx spends.
 * Documents hold plain JSON: outputs as JSON text (bigints tagged), refs as `txHash#index`. Every answer comes from
 * the store; a registry only remembers, per record, the outputs its JSON text parses to (frozen, and used only when
 * the record read holds that same text), so the records of a chain of pending transactions are not parsed again by
 * every build.
 */
import { decodeTxFlow } from "../csl/decode";
import { deepFreeze } from "../csl/memo";
import { outRefOf, utxoKey, type OgmiosUtxo } from "../csl/utxo";
import { outRefKey, type OutRef } from "../domain/out-ref";
import type { TxHash } from "../domain/hex";
import { openCollection, defineCollection, type Collection, type Store, type StoredDocument } from "../store";

interface InflightTxDocument extends StoredDocument {
  /** tx id */
  _id: string;
  inputs: string[];
  /** addresses that receive an output (lookup path of `spendable`) */
  addresses: string[];
  /** `policyId.assetName` units held by the outputs (lookup path of `pendingOutputWith`) */
  units: string[];
  /** payment key hashes whose signatures the transaction carries */
  signers: string[];
  /** OgmiosUtxo[] as JSON text, bigints as { $bigint } */
  outputs: string;
  submittedAt: number;
  seq: number;
  expiresAt: number;
}

interface HandOutDocument extends StoredDocument {
  /** the handed-out ref `txHash#index` */
  _id: string;
  /** the build it was handed out to */
  holder: string;
  expiresAt: number;
}

const TXS = defineCollection<InflightTxDocument>("inflight_txs", [
  { fields: { inputs: 1 } },
  { fields: { addresses: 1 } },
  { fields: { units: 1 } },
  { fields: { expiresAt: 1 } },
]);
const HAND_OUTS = defineCollection<HandOutDocument>("inflight_hand_outs", [{ fields: { holder: 1 } }, { fields: { expiresAt: 1 } }]);

/** What reconciliation asks the chain node about in-flight transactions. */
export interface ChainView {
  /** which of these transactions the node's mempool holds now */
  inMempoolAmong(txIds: readonly string[]): Promise<Set<string>>;
}

/** How many records' parsed outputs a registry remembers (the oldest remembered is forgotten first). */
export const PARSED_OUTPUTS_KEPT = 2_048;

export class InflightRegistry {
  private seq = 0;
  private sweptAt: number | undefined;
  /** record id → its outputs' JSON text and what it parses to (frozen: handed to every caller as they are) */
  private readonly parsed = new Map<string, { text: string; outputs: readonly OgmiosUtxo[] }>();

  private constructor(
    private readonly txs: Collection<InflightTxDocument>,
    private readonly handOuts: Collection<HandOutDocument>,
    private readonly clock: () => number,
  ) {}

  static async open(store: Store, clock: () => number): Promise<InflightRegistry> {
    return new InflightRegistry(await openCollection(store, TXS), await openCollection(store, HAND_OUTS), clock);
  }

  /** Hands `refs` out to `holder` until now + ttlMs, taking them over from any other build. */
  async handOut(refs: readonly OutRef[], holder: string, ttlMs: number): Promise<void> {
    const expiresAt = this.clock() + ttlMs;
    await Promise.all(
      [...new Set(refs.map(outRefKey))].map((key) =>
        this.handOuts.updateOne({ _id: key }, { $set: { holder, expiresAt } }, { upsert: true }),
      ),
    );
  }

  /** Takes back what was handed out to `holder`: everything (its build failed), or all but `keep` (its rebuild dropped some). */
  async takeBack(holder: string, keep: readonly OutRef[] = []): Promise<void> {
    const kept = keep.map(outRefKey);
    await this.handOuts.deleteMany(kept.length === 0 ? { holder } : { holder, _id: { $nin: kept } });
  }

  /** The refs among `refs` currently handed out to a build other than `holder`. */
  async handedOutAmong(refs: readonly OutRef[], holder?: string): Promise<Set<string>> {
    const keys = [...new Set(refs.map(outRefKey))];
    if (keys.length === 0) return new Set();
    const docs = await this.handOuts.find({ _id: { $in: keys }, expiresAt: { $gt: this.clock() } });
    return new Set(docs.filter((d) => d.holder !== holder).map((d) => d._id));
  }

  /** Locks the inputs of a submitted tx until confirmation or `expiresAt`; its outputs become pending. */
  async recordSubmitted(tx: { txId: TxHash; cborHex: string; expiresAt: number }): Promise<void> {
    const decoded = decodeTxFlow(tx.cborHex);
    const { txId } = tx;
    const outputs: OgmiosUtxo[] = decoded.outputs.map((o, index) => ({ ...o, transaction: { id: txId }, index }));
    const inputs = decoded.inputs.map(outRefKey);
    const units = new Set<string>();
    for (const o of outputs) {
      for (const [policy, assets] of Object.entries(o.value)) {
        if (policy === "ada") continue;
        for (const name of Object.keys(assets as Record<string, bigint>)) units.add(`${policy}.${name}`);
      }
    }
    const doc: InflightTxDocument = {
      _id: txId,
      inputs,
      addresses: [...new Set(outputs.map((o) => o.address))],
      units: [...units],
      signers: [...new Set(decoded.signers)],
      outputs: JSON.stringify(outputs, (_k, v: unknown) => (typeof v === "bigint" ? { $bigint: v.toString() } : v)),
      submittedAt: this.clock(),
      seq: this.nextSeq(),
      expiresAt: tx.expiresAt,
    };
    // Recording the same submission twice replaces the first record.
    await this.txs.deleteOne({ _id: txId });
    await this.txs.insertOne(doc);
    // The inputs are now locked by the submission; the build's hand-out is no longer needed.
    await this.handOuts.deleteMany({ _id: { $in: inputs } });
  }

  /**
   * Follows the chain node: a submitted transaction stays in the node's mempool until a block includes it or the
   * node drops it (it expired, another transaction consumed one of its inputs, the node restarted). Either way, once
   * it has left the mempool nothing is left to lock — an included transaction's inputs are spent on chain and its
   * outputs confirmed — so every record whose transaction the mempool no longer holds is released. Returns the
   * ids released.
   */
  async reconcile(chain: ChainView): Promise<string[]> {
    const docs = await this.txs.find({ expiresAt: { $gt: this.clock() } });
    if (docs.length === 0) return [];
    const inMempool = await chain.inMempoolAmong(docs.map((d) => d._id));
    const released = docs.map((d) => d._id).filter((id) => !inMempool.has(id));
    if (released.length > 0) await this.txs.deleteMany({ _id: { $in: released } });
    return released;
  }

  /**
   * `expire`, at most once per `intervalMs` (the hot path calls it before every build). Every query already
   * ignores records past their expiry, so sweeping less often frees space later and changes no answer; it saves
   * two writes per build on the store's write queue.
   */
  async sweep(intervalMs = 1_000): Promise<void> {
    const now = this.clock();
    if (this.sweptAt !== undefined && now >= this.sweptAt && now - this.sweptAt < intervalMs) return;
    this.sweptAt = now;
    await this.expire(now);
  }

  /** Releases every submission and hand-out past its expiry; returns how many submissions were dropped. */
  async expire(now: number = this.clock()): Promise<number> {
    const n = await this.txs.deleteMany({ expiresAt: { $lte: now } });
    await this.handOuts.deleteMany({ expiresAt: { $lte: now } });
    return n;
  }

  /**
   * Confirmed UTxOs minus locked ones, plus pending outputs at `address` that nothing pending spends — of
   * transactions `builder` (a payment key hash) signed.
   */
  async spendable(address: string, confirmed: OgmiosUtxo[], builder: string): Promise<OgmiosUtxo[]> {
    const now = this.clock();
    // Only the builder's own submissions: at a shared address (the proxy) the others' are most of the records.
    const pendingDocs = await this.txs.find({ addresses: address, signers: builder, expiresAt: { $gt: now } });
    const pending = pendingDocs.flatMap((d) => this.outputsOf(d)).filter((u) => u.address === address);
    const onChain = new Set(confirmed.map(utxoKey));
    const candidates = [...confirmed, ...pending.filter((p) => !onChain.has(utxoKey(p)))];
    const keys = candidates.map(utxoKey);
    const locked = await this.lockedAmong(keys);
    return candidates.filter((_, i) => !locked.has(keys[i]!));
  }

  /**
   * Every pending output at `address` that no pending tx spends, whoever signed its transaction (script
   * addresses such as an extension's list, where a build chains off anyone's transaction), newest first.
   */
  async pendingOutputsAt(address: string): Promise<OgmiosUtxo[]> {
    const docs = await this.txs.find({ addresses: address, expiresAt: { $gt: this.clock() } });
    const outputs = docs
      .sort((a, b) => b.submittedAt - a.submittedAt || b.seq - a.seq)
      .flatMap((d) => this.outputsOf(d))
      .filter((u) => u.address === address);
    const keys = outputs.map(utxoKey);
    const locked = await this.lockedAmong(keys);
    return outputs.filter((_, i) => !locked.has(keys[i]!));
  }

  /** The newest pending output holding `policyId.assetName` that no later pending tx spends. */
  async pendingOutputWith(policyId: string, assetName: string): Promise<OgmiosUtxo | undefined> {
    const docs = await this.txs.find(
      { units: `${policyId}.${assetName}`, expiresAt: { $gt: this.clock() } },
      { sort: { seq: -1, submittedAt: -1 } },
    );
    for (const d of docs.sort((a, b) => b.submittedAt - a.submittedAt || b.seq - a.seq)) {
      const out = this.outputsOf(d).find((o) => ((o.value as Record<string, Record<string, bigint>>)[policyId]?.[assetName] ?? 0n) > 0n);
      if (!out) continue;
      const spent = await this.lockedAmong([utxoKey(out)]);
      return spent.size > 0 ? undefined : out;
    }
    return undefined;
  }

  /** Pending outputs among `refs` (the `additionalUtxo` an evaluation needs). */
  async pendingOutputs(refs: OutRef[]): Promise<OgmiosUtxo[]> {
    // references as the chain gives them (lowercase), like the keys of `wanted`
    const ids = [...new Set(refs.map((r) => r.txHash))];
    if (ids.length === 0) return [];
    const docs = await this.txs.find({ _id: { $in: ids }, expiresAt: { $gt: this.clock() } });
    const wanted = new Set(refs.map(outRefKey));
    return docs.flatMap((d) => this.outputsOf(d)).filter((u) => wanted.has(outRefKey(outRefOf(u))));
  }

  /** Which of `refs` a submitted transaction in flight spends. */
  async inFlightAmong(refs: readonly OutRef[]): Promise<Set<string>> {
    return this.lockedAmong(refs.map(outRefKey));
  }

  /** Refs among `keys` spent by an unexpired pending transaction. */
  private async lockedAmong(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const docs = await this.txs.find({ inputs: { $in: [...keys] }, expiresAt: { $gt: this.clock() } });
    const wanted = new Set(keys);
    return new Set(docs.flatMap((d) => d.inputs.filter((k) => wanted.has(k))));
  }

  /** The outputs of a record as read from the store: parsed once per JSON text (the text read is the check). */
  private outputsOf(d: InflightTxDocument): readonly OgmiosUtxo[] {
    const kept = this.parsed.get(d._id);
    if (kept && kept.text === d.outputs) return kept.outputs;
    const outputs = JSON.parse(d.outputs, (_k, v: unknown) =>
      typeof v === "object" && v !== null && "$bigint" in v ? BigInt((v as { $bigint: string }).$bigint) : v,
    ) as OgmiosUtxo[];
    return this.remember(d._id, d.outputs, outputs);
  }

  private remember(id: string, text: string, outputs: OgmiosUtxo[]): readonly OgmiosUtxo[] {
    const frozen = deepFreeze(outputs);
    this.parsed.delete(id);
    this.parsed.set(id, { text, outputs: frozen });
    if (this.parsed.size > PARSED_OUTPUTS_KEPT) this.parsed.delete(this.parsed.keys().next().value!);
    return frozen;
  }

  /** How many records' parsed outputs this registry remembers now (at most PARSED_OUTPUTS_KEPT). */
  get parsedRecords(): number {
    return this.parsed.size;
  }

  /** Orders submissions of the same millisecond. */
  private nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }
}
