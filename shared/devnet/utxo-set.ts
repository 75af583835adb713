// The devnet's UTxO view, keyed by "txid#index", holding each output's exact CBOR and its Ogmios projection.
// Two instances exist: the confirmed set (answers queries) and the mempool view (resolves evaluations).
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { outRefKey } from "../domain/out-ref";
import { bigintJson } from "./bigint-json";
import { fromHex } from "./ledger-digest";
import { addressText, utxoKey } from "../csl/utxo";
import { projectOutput } from "./ogmios-projection";
import type { OgmiosUtxo, OutputReference } from "./ogmios-types";

/**
 * One unspent output. The CBOR and the address (for the index) are kept; the Ogmios JSON is projected when asked
 * for, and its JSON text is made on the first `queryLedgerState/utxo` answer that holds the output and kept with the
 * entry, so an output queried again and again (a reference script, a wallet's funds) is projected and serialized
 * once. The text can never go stale: an entry never changes (its output reference names the transaction that made
 * it, and its bytes are that transaction's output), and it leaves the UTxO sets, text and all, when it is spent or
 * rolled back. A long-running devnet holds bytes per output, plus the text of the outputs someone asked for.
 */
export class UtxoEntry {
  readonly key: string;
  private text: string | undefined;

  constructor(
    readonly txId: string,
    readonly index: number,
    readonly address: string,
    readonly outputCbor: Uint8Array,
  ) {
    this.key = outRefKey({ txHash: txId, index });
  }

  get ogmios(): OgmiosUtxo {
    const output = CSL.TransactionOutput.from_bytes(this.outputCbor);
    const projected = { transaction: { id: this.txId }, index: this.index, ...projectOutput(output) } as OgmiosUtxo;
    output.free();
    return projected;
  }

  /** The Ogmios JSON text of this UTxO, exactly `bigintJson.stringify(this.ogmios)`, made once. */
  get ogmiosText(): string {
    this.text ??= bigintJson.stringify(this.ogmios);
    return this.text;
  }

  get lovelace(): bigint {
    const output = CSL.TransactionOutput.from_bytes(this.outputCbor);
    const coin = BigInt(output.amount().coin().to_str());
    output.free();
    return coin;
  }
}

/** Builds an entry from an output's CBOR. */
export function utxoEntry(txId: string, index: number, outputCbor: Uint8Array): UtxoEntry {
  const output = CSL.TransactionOutput.from_bytes(outputCbor);
  const address = addressText(output.address());
  output.free();
  return new UtxoEntry(txId, index, address, outputCbor);
}

/** The CBOR of a TransactionInput `[txid, index]`. */
export function inputCbor(entry: { txId: string; index: number }): Uint8Array {
  return CSL.TransactionInput.new(CSL.TransactionHash.from_bytes(fromHex(entry.txId)), entry.index).to_bytes();
}

/** Which UTxOs a query asks for: all (no filter), or those at `addresses` and/or `outputReferences`. */
export interface UtxoFilter {
  addresses?: string[];
  outputReferences?: OutputReference[];
}

export class UtxoSet {
  private readonly entries = new Map<string, UtxoEntry>();
  private readonly byAddress = new Map<string, Set<string>>();

  constructor(initial: Iterable<UtxoEntry> = []) {
    for (const e of initial) this.add(e);
  }

  clone(): UtxoSet {
    return new UtxoSet(this.entries.values());
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): UtxoEntry | undefined {
    return this.entries.get(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  all(): IterableIterator<UtxoEntry> {
    return this.entries.values();
  }

  add(entry: UtxoEntry): void {
    this.entries.set(entry.key, entry);
    let keys = this.byAddress.get(entry.address);
    if (!keys) this.byAddress.set(entry.address, (keys = new Set()));
    keys.add(entry.key);
  }

  remove(key: string): UtxoEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    const keys = this.byAddress.get(entry.address);
    keys?.delete(key);
    if (keys?.size === 0) this.byAddress.delete(entry.address);
    return entry;
  }

  /** Entries locked at `address` (bech32 / base58, as projected). */
  atAddress(address: string): UtxoEntry[] {
    return [...(this.byAddress.get(address) ?? [])].map((k) => this.entries.get(k)!);
  }

  /** The entries a query asks for: all without a filter, else those at its addresses and/or output references. */
  select(filter?: UtxoFilter): UtxoEntry[] {
    if (!filter || (filter.addresses === undefined && filter.outputReferences === undefined)) return [...this.all()];
    const found = new Map<string, UtxoEntry>();
    for (const address of filter.addresses ?? []) for (const e of this.atAddress(address)) found.set(e.key, e);
    for (const ref of filter.outputReferences ?? []) {
      const e = this.get(utxoKey(ref));
      if (e) found.set(e.key, e);
    }
    return [...found.values()];
  }

  /** Applies an accepted transaction: removes what it consumes (returned, for undo), adds what it produces. */
  apply(consumed: readonly string[], produced: readonly UtxoEntry[]): UtxoEntry[] {
    const removed: UtxoEntry[] = [];
    for (const key of consumed) {
      const entry = this.remove(key);
      if (entry) removed.push(entry);
    }
    for (const entry of produced) this.add(entry);
    return removed;
  }
}
