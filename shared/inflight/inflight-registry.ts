/**
 * In-flight tracking shared by every tx-builder replica (decisions.md "Transactions"):
 * - a build claims the UTxOs it spends for a short lease (atomic, store-backed), so two replicas racing for one
 *   wallet never pick the same input;
 * - a submitted transaction locks its inputs until it is confirmed or expires, and its outputs count as pending
 *   (spendable, chainable) until then;
 * - spendable(address) = confirmed − locked − leased + pending outputs that no later pending tx spends.
 * Documents hold plain JSON: outputs as JSON text (bigints tagged), refs as `txId#index`.
 */
import { decodeTx } from "../csl/decode";
import { outRefKey, type OgmiosUtxo, type OutRef } from "../csl/utxo";
import { createLeaseTable, openCollection, defineCollection, type Collection, type LeaseDocument, type LeaseTable, type Store, type StoredDocument } from "../store";

interface InflightTxDocument extends StoredDocument {
  /** tx id */
  _id: string;
  inputs: string[];
  /** addresses that receive an output (lookup path of `spendable`) */
  addresses: string[];
  /** `policyId.assetName` units held by the outputs (lookup path of `pendingOutputWith`) */
  units: string[];
  /** OgmiosUtxo[] as JSON text, bigints as { $bigint } */
  outputs: string;
  submittedAt: number;
  seq: number;
  expiresAt: number;
}

const TXS = defineCollection<InflightTxDocument>("inflight_txs", [
  { fields: { inputs: 1 } },
  { fields: { addresses: 1 } },
  { fields: { units: 1 } },
  { fields: { expiresAt: 1 } },
]);
const LEASES = "inflight_leases";

export type ClaimResult = { ok: true } | { ok: false; conflicts: string[] };

export class InflightRegistry {
  private seq = 0;

  private constructor(
    private readonly txs: Collection<InflightTxDocument>,
    private readonly leaseDocs: Collection<LeaseDocument>,
    private readonly leases: LeaseTable,
    private readonly clock: () => number,
  ) {}

  static async open(store: Store, clock: () => number): Promise<InflightRegistry> {
    const txs = await openCollection(store, TXS);
    const leaseDocs = store.collection<LeaseDocument>(LEASES);
    const leases = await createLeaseTable(leaseDocs, clock);
    return new InflightRegistry(txs, leaseDocs, leases, clock);
  }

  /** Takes every ref for `holder` until now + ttlMs, or none (conflicts = refs held by someone else or locked). */
  async claimForBuild(refs: OutRef[], holder: string, ttlMs: number): Promise<ClaimResult> {
    const keys = [...new Set(refs.map(outRefKey))];
    if (keys.length === 0) return { ok: true };
    const locked = await this.lockedAmong(keys);
    if (locked.size > 0) return { ok: false, conflicts: [...locked] };
    const res = await this.leases.acquire(keys, holder, ttlMs);
    return res.acquired ? { ok: true } : { ok: false, conflicts: res.conflicts.map((c) => c.key) };
  }

  /** Drops a build's claims (e.g. the build failed after claiming). */
  async releaseClaims(holder: string): Promise<void> {
    await this.leases.release(holder);
  }

  /** Locks the inputs of a submitted tx until confirmation or `expiresAt`; its outputs become pending. */
  async recordSubmitted(tx: { txId: string; cborHex: string; expiresAt: number }): Promise<void> {
    const decoded = decodeTx(tx.cborHex);
    const txId = tx.txId.toLowerCase();
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
      outputs: JSON.stringify(outputs, (_k, v: unknown) => (typeof v === "bigint" ? { $bigint: v.toString() } : v)),
      submittedAt: this.clock(),
      seq: this.nextSeq(),
      expiresAt: tx.expiresAt,
    };
    // Recording the same submission twice replaces the first record.
    await this.txs.deleteOne({ _id: txId });
    await this.txs.insertOne(doc);
    // The inputs are now locked by the submission; the build's lease on them is no longer needed.
    await this.leaseDocs.deleteMany({ _id: { $in: inputs } });
  }

  /** Releases locks and pending outputs of confirmed transactions. */
  async confirmed(txIds: readonly string[]): Promise<void> {
    if (txIds.length === 0) return;
    await this.txs.deleteMany({ _id: { $in: txIds.map((t) => t.toLowerCase()) } });
  }

  /** Releases every submission and claim past its expiry; returns how many submissions were dropped. */
  async expire(now: number = this.clock()): Promise<number> {
    const n = await this.txs.deleteMany({ expiresAt: { $lte: now } });
    await this.leases.purgeExpired();
    return n;
  }

  /** Confirmed UTxOs minus locked and leased ones, plus pending outputs at `address` that nothing pending spends. */
  async spendable(address: string, confirmed: OgmiosUtxo[]): Promise<OgmiosUtxo[]> {
    const now = this.clock();
    const pendingDocs = await this.txs.find({ addresses: address, expiresAt: { $gt: now } });
    const pending = pendingDocs.flatMap((d) => this.outputsOf(d)).filter((u) => u.address === address);
    const candidates = [...confirmed, ...pending.filter((p) => !confirmed.some((c) => sameRef(c, p)))];
    const keys = candidates.map((u) => outRefKey({ txId: u.transaction.id, index: u.index }));
    const blocked = await this.lockedAmong(keys);
    for (const lease of await this.leases.findActive(keys)) blocked.add(lease.key);
    return candidates.filter((_, i) => !blocked.has(keys[i]!));
  }

  /** The newest pending output holding `policyId.assetName` that no later pending tx spends. */
  async pendingOutputWith(policyId: string, assetName: string): Promise<OgmiosUtxo | undefined> {
    const docs = await this.txs.find({ units: `${policyId}.${assetName}`, expiresAt: { $gt: this.clock() } }, { sort: { seq: -1, submittedAt: -1 } });
    for (const d of docs.sort((a, b) => b.submittedAt - a.submittedAt || b.seq - a.seq)) {
      const out = this.outputsOf(d).find((o) => ((o.value as Record<string, Record<string, bigint>>)[policyId]?.[assetName] ?? 0n) > 0n);
      if (!out) continue;
      const spent = await this.lockedAmong([outRefKey({ txId: out.transaction.id, index: out.index })]);
      return spent.size > 0 ? undefined : out;
    }
    return undefined;
  }

  /** Pending outputs among `refs` (the `additionalUtxo` an evaluation needs). */
  async pendingOutputs(refs: OutRef[]): Promise<OgmiosUtxo[]> {
    const ids = [...new Set(refs.map((r) => r.txId.toLowerCase()))];
    if (ids.length === 0) return [];
    const docs = await this.txs.find({ _id: { $in: ids }, expiresAt: { $gt: this.clock() } });
    const wanted = new Set(refs.map(outRefKey));
    return docs.flatMap((d) => this.outputsOf(d)).filter((u) => wanted.has(outRefKey({ txId: u.transaction.id, index: u.index })));
  }

  /** Refs among `keys` spent by an unexpired pending transaction. */
  private async lockedAmong(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const docs = await this.txs.find({ inputs: { $in: [...keys] }, expiresAt: { $gt: this.clock() } });
    const wanted = new Set(keys);
    return new Set(docs.flatMap((d) => d.inputs.filter((k) => wanted.has(k))));
  }

  private outputsOf(d: InflightTxDocument): OgmiosUtxo[] {
    return JSON.parse(d.outputs, (_k, v: unknown) =>
      typeof v === "object" && v !== null && "$bigint" in v ? BigInt((v as { $bigint: string }).$bigint) : v,
    ) as OgmiosUtxo[];
  }

  /** Orders submissions of the same millisecond. */
  private nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }
}

function sameRef(a: OgmiosUtxo, b: OgmiosUtxo): boolean {
  return a.transaction.id === b.transaction.id && a.index === b.index;
}
