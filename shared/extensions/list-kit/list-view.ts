/**
 * Reading a sorted list off chain: the entries as they stand (from the indexer's record, possibly overlaid with
 * outputs of transactions still in flight), walked from the HEAD. Pure; generic over the kind of list.
 */
import type { OgmiosUtxo } from "../../csl/utxo";
import type { DataHash } from "../../domain/hex";
import { findInsertPosition } from "./list-tokens";
import { compareByteStrings } from "../../protocol/plutus-data";
import type { EntryOrigin, StoredEntry } from "../../sorted-list/list-store";

/** One list entry (HEAD or node): its current output and links. */
export interface ListEntry {
  /** hex token name: the prefix for the HEAD, `prefix ‖ blake2b_224(key)` for a node */
  readonly tokenName: string;
  /** null for the HEAD */
  readonly key: string | null;
  readonly next: string | undefined;
  readonly utxo: OgmiosUtxo;
  /** null for an entry only known from a transaction in flight */
  readonly origin: EntryOrigin | null;
}

/** The entry as builds use it: its output as an Ogmios UTxO (ADA and its one list token, inline datum). */
export function listEntryOf(policyId: string, e: StoredEntry): ListEntry {
  const utxo = {
    transaction: { id: e.outRef.txHash },
    index: e.outRef.index,
    address: e.address,
    value: { ada: { lovelace: BigInt(e.lovelace) }, [policyId]: { [e.tokenName]: 1n } },
    datum: e.datum,
  } as unknown as OgmiosUtxo;
  return { tokenName: e.tokenName, key: e.key, next: e.next ?? undefined, utxo, origin: e.origin };
}

export interface ListSnapshot {
  readonly head: ListEntry;
  /** nodes by key (hex as the entries hold it: lowercase, decoded from datums) */
  readonly nodes: ReadonlyMap<string, ListEntry>;
}

/** @returns undefined when the entries hold no HEAD */
export function snapshotOf(entries: readonly ListEntry[]): ListSnapshot | undefined {
  const head = entries.find((e) => e.key === null);
  if (!head) return undefined;
  const nodes = new Map<string, ListEntry>();
  for (const e of entries) if (e.key !== null) nodes.set(e.key, e);
  return { head, nodes };
}

export type Predecessor =
  /** spend this entry (the HEAD or a node) to insert the key after it; `next` is what the new node links to */
  { readonly entry: ListEntry; readonly next: string | undefined } | { readonly duplicate: ListEntry };

/**
 * The entry an insert of `key` spends: the HEAD when `key` sorts before every key, else the node with the
 * largest smaller key (byte order). Walks the links from the HEAD, so outputs that are not linked never count.
 * @throws ProtocolError INVALID_FIELD when a link names a node the snapshot lacks
 */
export function findPredecessor(list: ListSnapshot, key: DataHash): Predecessor {
  const pos = findInsertPosition(
    { headNext: list.head.next, nodes: [...list.nodes.values()].map((n) => ({ key: n.key!, next: n.next })) },
    key,
  );
  if ("duplicate" in pos) return { duplicate: list.nodes.get(key)! };
  return { entry: pos.predecessor === "HEAD" ? list.head : list.nodes.get(pos.predecessor)!, next: pos.next };
}

/** The node holding `key`, if the list has one (linked from the HEAD or not). */
export function findNode(list: ListSnapshot, key: DataHash): ListEntry | undefined {
  return list.nodes.get(key);
}

/** The keys in link order from the HEAD (stops at a link whose node is missing, or at a cycle). */
export function keysInOrder(list: ListSnapshot): string[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  let next = list.head.next;
  while (next !== undefined && !seen.has(next)) {
    const node = list.nodes.get(next);
    if (!node) break;
    seen.add(next);
    keys.push(next);
    next = node.next;
  }
  return keys;
}

/** Whether the keys are strictly increasing in byte order (what the validator keeps true). */
export function isSorted(keys: readonly string[]): boolean {
  return keys.every((k, i) => i === 0 || compareByteStrings(keys[i - 1]!, k) < 0);
}
