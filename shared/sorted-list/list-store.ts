/**
 * The indexer's record of every sorted list of one kind (layout.ts): per list its policy id, init output
 * reference, address and issuer; per entry (HEAD or node) each output it has lived in, with the slot it was
 * created and the slot it was spent. The current list is the entries' unspent outputs. Recorded from chain
 * facts only (the transactions of each block), read by the extension's builds and status routes.
 *
 * Staged and rollback-safe like the lookups (shared/lookups/lookup-store.ts): `stageBlock` keeps the block's
 * transactions, `flush` records every staged block in chain order (one read of the spent entries for the whole
 * batch, then a write per list output created or spent), in the indexer's batch write before the checkpoint moves.
 * Every document carries the slot that wrote it; `rollback` to slot S deletes what was created after S and
 * un-spends what was spent after S — a rollback, or (called by the indexer's repair) what an interrupted write
 * left after the checkpoint. Writes are serialised.
 *
 * A list is recognised by its Init: a transaction that mints the HEAD token (the prefix) under a policy that
 * the layout derives from one of the transaction's own inputs. Entries are the outputs at the list's address
 * holding one of the list's HEAD or node tokens with a datum the layout reads; the validator guarantees that
 * such tokens exist only in entries made by its transitions.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import { HexBytes, PolicyId, type TxHash } from "../domain/hex";
import { outRefKey, type OutRef } from "../domain/out-ref";
import type { Collection, Store, StoredDocument } from "../store";
import type { SortedListLayout } from "./layout";

/** Where an entry's token first appeared on chain: the transaction that minted it. */
export interface EntryOrigin {
  readonly txHash: string;
  readonly blockHeight: number;
  readonly slot: number;
}

/** One list, as recorded from its Init transaction. */
export interface ListRecord {
  readonly policyId: PolicyId;
  readonly initRef: OutRef;
  readonly address: string;
  readonly issuer: string;
  /** the Init transaction */
  readonly txHash: string;
  readonly slot: number;
  readonly blockHeight: number;
}

type ListDoc = StoredDocument & {
  address: string;
  initTxHash: string;
  initIndex: number;
  issuer: string;
  txHash: string;
  slot: number;
  height: number;
};

/** One output an entry lived in; `_id` is the output reference `txHash#index`. */
type EntryDoc = StoredDocument & {
  policyId: string;
  tokenName: string;
  /** "" for the HEAD */
  key: string;
  /** "" for none */
  next: string;
  address: string;
  lovelace: string;
  datum: string;
  slot: number;
  /** -1 while unspent */
  spentSlot: number;
  spentBy: string;
  originTx: string;
  originHeight: number;
  originSlot: number;
};

const UNSPENT = -1;
/** Output references per read of the spent entries. */
const READ_CHUNK = 500;

interface StagedBlock {
  slot: number;
  height: number;
  transactions: readonly Transaction[];
}

/** A quantity of an Ogmios value as a bigint (the client gives bigints, JSON from elsewhere numbers). */
const quantity = (v: unknown): bigint =>
  typeof v === "bigint" ? v : typeof v === "number" ? BigInt(v) : typeof v === "string" ? BigInt(v) : 0n;

export class SortedListStore {
  private queue: Promise<unknown> = Promise.resolve();
  /** Blocks with transactions staged for the next `flush`, in chain order. */
  private staged: StagedBlock[] = [];
  /**
   * The addresses of the recorded lists (undefined: to be read), so a transaction paying to none of them costs no
   * store read. Only this store writes the lists; an undo forgets it.
   */
  private listAddresses: Set<string> | undefined;

  private constructor(
    readonly layout: SortedListLayout,
    private readonly lists: Collection<ListDoc>,
    private readonly entries: Collection<EntryDoc>,
  ) {}

  static async open(store: Store, layout: SortedListLayout): Promise<SortedListStore> {
    const s = new SortedListStore(
      layout,
      store.collection<ListDoc>(`${layout.name}_lists`),
      store.collection<EntryDoc>(`${layout.name}_list_entries`),
    );
    await s.lists.ensureIndexes([{ fields: { slot: 1 } }, { fields: { address: 1 } }, { fields: { initTxHash: 1, initIndex: 1 } }]);
    await s.entries.ensureIndexes([{ fields: { slot: 1 } }, { fields: { spentSlot: 1 } }, { fields: { policyId: 1, spentSlot: 1 } }]);
    return s;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Stages the block for the next `flush` (blocks in chain order). @returns the number of transactions staged */
  stageBlock(block: StagedBlock): number {
    const transactions = block.transactions.filter((tx) => tx.spends !== "collaterals");
    if (transactions.length > 0) this.staged.push({ slot: block.slot, height: block.height, transactions });
    return transactions.length;
  }

  /**
   * Records the staged blocks in chain order. @returns the number of list outputs created or spent
   * @throws StoreError; what was staged is then dropped (processed again)
   */
  flush(): Promise<number> {
    const staged = this.staged;
    this.staged = [];
    return staged.length === 0 ? Promise.resolve(0) : this.serial(() => this.record(staged));
  }

  /** Forgets what was staged (the blocks are processed again). */
  discard(): void {
    this.staged = [];
  }

  /** Records the block now (stage + flush). @returns the number of list outputs created or spent */
  recordBlock(block: StagedBlock): Promise<number> {
    this.stageBlock(block);
    return this.flush();
  }

  /** Forgets everything seen after `slot` (-1 = everything), staged or stored. */
  rollback(slot: number): Promise<void> {
    this.staged = this.staged.filter((b) => b.slot <= slot);
    return this.serial(() => this.undoAfter(slot));
  }

  /**
   * Records blocks in order. The unspent entries their transactions spend are read once for all of them; entries
   * created by an earlier transaction of the same blocks are known from recording it.
   */
  private async record(blocks: readonly StagedBlock[]): Promise<number> {
    const inputs = [
      ...new Set(
        blocks.flatMap((b) =>
          b.transactions.flatMap((tx) => tx.inputs.map((i) => outRefKey({ txHash: i.transaction.id, index: Number(i.index) }))),
        ),
      ),
    ];
    const unspent = new Map<string, EntryDoc>();
    for (let i = 0; i < inputs.length; i += READ_CHUNK)
      for (const e of await this.entries.find({ _id: { $in: inputs.slice(i, i + READ_CHUNK) }, spentSlot: UNSPENT })) unspent.set(e._id, e);
    let changed = 0;
    for (const b of blocks) for (const tx of b.transactions) changed += await this.recordTransaction(b.slot, b.height, tx, unspent);
    return changed;
  }

  private async undoAfter(slot: number): Promise<void> {
    this.listAddresses = undefined;
    await this.lists.deleteMany({ slot: { $gt: slot } });
    await this.entries.deleteMany({ slot: { $gt: slot } });
    await this.entries.updateMany({ spentSlot: { $gt: slot } }, { $set: { spentSlot: UNSPENT, spentBy: "" } });
  }

  /**
   * Records one transaction (not a failed one: those only move collateral). `unspent`: the unspent entries among
   * the inputs of the blocks being recorded, kept current (spent ones out, created ones in).
   */
  private async recordTransaction(slot: number, height: number, tx: Transaction, unspent: Map<string, EntryDoc>): Promise<number> {
    const prefix = this.layout.list.prefix;
    let changed = 0;

    // 1. new lists: the HEAD token minted under a policy derived from one of the spent inputs
    for (const [policyId, assets] of Object.entries(tx.mint ?? {})) {
      if (quantity((assets as Record<string, unknown>)[prefix]) !== 1n) continue;
      if (await this.lists.findOne({ _id: policyId })) continue;
      const initRef = tx.inputs
        .map((i) => ({ txHash: i.transaction.id, index: Number(i.index) }))
        .find((r) => this.layout.policyOf(r) === policyId);
      if (!initRef) continue;
      const head = tx.outputs.find(
        (o) => quantity((o.value as Record<string, Record<string, unknown>>)[policyId]?.[prefix]) === 1n && o.datum,
      );
      if (!head?.datum || this.layout.decodeLinks(head.datum)?.kind !== "head") continue;
      await this.lists.insertOne({
        _id: policyId,
        address: head.address,
        initTxHash: initRef.txHash,
        initIndex: initRef.index,
        issuer: this.layout.issuerOf(head.datum),
        txHash: tx.id,
        slot,
        height,
      });
      this.listAddresses?.add(head.address);
    }

    // 2. spent entries
    const spent: EntryDoc[] = [];
    for (const i of tx.inputs) {
      const ref = outRefKey({ txHash: i.transaction.id, index: Number(i.index) });
      const e = unspent.get(ref);
      if (e === undefined) continue;
      unspent.delete(ref);
      spent.push(e);
      await this.entries.updateOne({ _id: e._id }, { $set: { spentSlot: slot, spentBy: tx.id } });
      changed += 1;
    }

    // 3. created entries, at the address of a known list
    this.listAddresses ??= new Set((await this.lists.findProjected({}, { address: 1 })).map((l) => l.address!));
    const known = this.listAddresses;
    const addresses = [...new Set(tx.outputs.map((o) => o.address))].filter((a) => known.has(a));
    const lists = addresses.length === 0 ? [] : await this.lists.find({ address: { $in: addresses } });
    for (const list of lists) {
      const policyId = list._id;
      const minted = (tx.mint?.[policyId] ?? {}) as Record<string, unknown>;
      for (const [index, o] of tx.outputs.entries()) {
        if (o.address !== list.address || !o.datum) continue;
        const tokens = Object.entries((o.value as Record<string, Record<string, unknown>>)[policyId] ?? {});
        if (tokens.length !== 1 || quantity(tokens[0]![1]) !== 1n) continue;
        const tokenName = HexBytes(tokens[0]![0]);
        if (!tokenName.startsWith(prefix)) continue;
        const links = this.layout.decodeLinks(o.datum);
        if (!links || (links.kind === "head") !== (tokenName === prefix)) continue;
        const previous = spent.find((e) => e.policyId === policyId && e.tokenName === tokenName);
        const origin: EntryOrigin =
          quantity(minted[tokenName]) === 1n || !previous
            ? { txHash: tx.id, blockHeight: height, slot }
            : { txHash: previous.originTx, blockHeight: previous.originHeight, slot: previous.originSlot };
        const entry: EntryDoc = {
          _id: outRefKey({ txHash: tx.id, index }),
          policyId,
          tokenName,
          // decoded from the datum: hex as the Plutus Data model holds it (lowercase)
          key: links.kind === "node" ? links.key : "",
          next: links.next ?? "",
          address: o.address,
          lovelace: quantity(o.value.ada.lovelace).toString(),
          datum: o.datum,
          slot,
          spentSlot: UNSPENT,
          spentBy: "",
          originTx: origin.txHash,
          originHeight: origin.blockHeight,
          originSlot: origin.slot,
        };
        const { _id, ...fields } = entry;
        await this.entries.updateOne({ _id }, { $set: fields }, { upsert: true });
        unspent.set(_id, entry);
        changed += 1;
      }
    }
    return changed;
  }

  // ---- reading ----------------------------------------------------------------------------------------------

  async listByPolicy(policyId: PolicyId): Promise<ListRecord | undefined> {
    const d = await this.lists.findOne({ _id: policyId });
    return d ? recordOf(d) : undefined;
  }

  async listByInitRef(ref: { readonly txHash: TxHash; readonly index: number }): Promise<ListRecord | undefined> {
    const d = await this.lists.findOne({ initTxHash: ref.txHash, initIndex: ref.index });
    return d ? recordOf(d) : undefined;
  }

  /** The list's entries as they stand: each entry's unspent output (plain JSON, to cross the transporter). */
  async currentEntries(policyId: PolicyId): Promise<StoredEntry[]> {
    const docs = await this.entries.find({ policyId, spentSlot: UNSPENT });
    return docs.map(storedEntryOf);
  }
}

/** An entry's current output as the record holds it: JSON only (lovelace as a decimal string). */
export interface StoredEntry {
  readonly tokenName: string;
  readonly key: string | null;
  readonly next: string | null;
  readonly outRef: OutRef;
  readonly address: string;
  readonly lovelace: string;
  readonly datum: string;
  readonly origin: EntryOrigin;
}

function recordOf(d: ListDoc): ListRecord {
  return {
    policyId: PolicyId(d._id),
    initRef: { txHash: d.initTxHash, index: d.initIndex },
    address: d.address,
    issuer: d.issuer,
    txHash: d.txHash,
    slot: d.slot,
    blockHeight: d.height,
  };
}

function storedEntryOf(d: EntryDoc): StoredEntry {
  const [txHash, index] = d._id.split("#") as [string, string];
  return {
    tokenName: d.tokenName,
    key: d.key === "" ? null : d.key,
    next: d.next === "" ? null : d.next,
    outRef: { txHash, index: Number(index) },
    address: d.address,
    lovelace: d.lovelace,
    datum: d.datum,
    origin: { txHash: d.originTx, blockHeight: d.originHeight, slot: d.originSlot },
  };
}
