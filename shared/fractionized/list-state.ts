/**
 * A fractionized list as a build sees it: the indexer's record (shared/sorted-list), with every entry replaced by
 * the newest output of a transaction still in flight that re-creates it, and the nodes such transactions create
 * added (one registry query per build) — so a build chains off pending inserts and claims on the same list. Entries
 * read from the record are checked against the chain when a build spends or references them (the indexer may be
 * a block behind).
 */
import { utxoKey, type OgmiosUtxo } from "../csl/utxo";
import type { InflightRegistry } from "../inflight";
import {
  type FractionizedHead,
  type FractionizedNode,
  dataFromCborHex,
  decodeFractionizedDatum,
  FRACTIONIZED_LIST,
  listHeadTokenName,
} from "../protocol";
import { listEntryOf, snapshotOf, type ListEntry, type ListRecord, type ListSnapshot, type StoredEntry } from "../sorted-list";
import { refuseFractionized } from "./errors";
import type { ListRef } from "./request";

/** The indexer's record of one list (the `indexer.sortedList` action). */
export interface ListSource {
  list(ref: ListRef): Promise<{ list: ListRecord | null; entries: StoredEntry[] }>;
}

export interface FractionizedList {
  readonly record: ListRecord;
  readonly snapshot: ListSnapshot;
  readonly head: FractionizedHead;
}

export function headDatumOf(e: ListEntry): FractionizedHead {
  const d = decodeFractionizedDatum(dataFromCborHex(e.utxo.datum!));
  if (d.kind !== "head") throw new Error("list HEAD without a HEAD datum");
  return { next: d.next, config: d.config };
}

export function nodeDatumOf(e: ListEntry): FractionizedNode {
  const d = decodeFractionizedDatum(dataFromCborHex(e.utxo.datum!));
  if (d.kind !== "node") throw new Error("list node without a node datum");
  return d;
}

function entryOfPending(u: OgmiosUtxo, tokenName: string): ListEntry | undefined {
  if (!u.datum) return undefined;
  try {
    const d = decodeFractionizedDatum(dataFromCborHex(u.datum));
    return d.kind === "head"
      ? { tokenName, key: null, next: d.next, utxo: u, origin: null }
      : { tokenName, key: d.key, next: d.next, utxo: u, origin: null };
  } catch {
    return undefined;
  }
}

/** The confirmed list only (status reads this). @throws FractionizedError UNKNOWN_LIST */
export async function loadConfirmedList(source: ListSource, ref: ListRef): Promise<FractionizedList> {
  const { list, entries } = await source.list(ref);
  const snapshot = list ? snapshotOf(entries.map((e) => listEntryOf(list.policyId, e))) : undefined;
  if (!list || !snapshot) return unknownList(ref);
  return { record: list, snapshot, head: headDatumOf(snapshot.head) };
}

/** The list with in-flight transactions applied (builds read this). @throws FractionizedError UNKNOWN_LIST */
export async function loadListForBuild(source: ListSource, registry: InflightRegistry, ref: ListRef): Promise<FractionizedList> {
  const confirmed = await loadConfirmedList(source, ref);
  const policy = confirmed.record.policyId;
  const entries = new Map<string, ListEntry>();
  for (const e of [confirmed.snapshot.head, ...confirmed.snapshot.nodes.values()]) entries.set(e.tokenName, e);
  // Outputs of submitted, unconfirmed transactions at the list address (newest first): each re-creates an entry
  // or creates a node, and replaces what the record says about that token.
  const seen = new Set<string>();
  for (const u of await registry.pendingOutputsAt(confirmed.record.address)) {
    const tokens = Object.entries((u.value as Record<string, Record<string, bigint | number>>)[policy] ?? {});
    if (tokens.length !== 1 || BigInt(tokens[0]![1]) !== 1n) continue;
    const name = tokens[0]![0];
    if (seen.has(name)) continue;
    seen.add(name);
    const e = entryOfPending(u, name);
    if (e) entries.set(name, e);
  }
  const snapshot = snapshotOf([...entries.values()])!;
  return { record: confirmed.record, snapshot, head: headDatumOf(snapshot.head) };
}

function unknownList(ref: ListRef): never {
  return refuseFractionized(
    "UNKNOWN_LIST",
    "policyId" in ref
      ? `No fractionized list with policy id ${ref.policyId} is known (it does not exist, or its Init is not confirmed yet).`
      : `No fractionized list was created from the init UTxO ${ref.initRef.txHash}#${ref.initRef.index} (or its Init is not confirmed yet).`,
    "policyId" in ref ? { policyId: ref.policyId } : { initUtxoTxHash: ref.initRef.txHash, initUtxoOutputIndex: ref.initRef.index },
  );
}

/**
 * The outputs a build spends or references, as they are now: confirmed ones must still be unspent on chain
 * (pending ones are resolved by the evaluation). @returns undefined when one of them is gone
 */
export async function liveOutputs(
  chain: { utxosByOutputReferences(refs: readonly { txHash: string; index: number }[]): Promise<unknown[]> },
  entries: readonly ListEntry[],
): Promise<OgmiosUtxo[] | undefined> {
  const confirmed = entries.filter((e) => e.origin !== null);
  const found = (await chain.utxosByOutputReferences(
    confirmed.map((e) => ({ txHash: e.utxo.transaction.id, index: Number(e.utxo.index) })),
  )) as OgmiosUtxo[];
  const byKey = new Map(found.map((u) => [utxoKey(u), u]));
  const out: OgmiosUtxo[] = [];
  for (const e of entries) {
    if (e.origin === null) {
      out.push(e.utxo);
      continue;
    }
    const u = byKey.get(utxoKey(e.utxo));
    if (!u) return undefined;
    out.push(u);
  }
  return out;
}

export const FRACTIONIZED_HEAD_TOKEN = listHeadTokenName(FRACTIONIZED_LIST);
