/**
 * A sorted list as a build sees it, for any kind of list: the indexer's record (list-store.ts, through the
 * `indexer.sortedList` action), with every entry replaced by the newest output of a transaction still in flight
 * that re-creates it, and the nodes such transactions create added (one registry query per build), so a build
 * chains off pending transitions on the same list. Entries read from the record are checked against the chain
 * when a build spends or references them (the indexer may be a block behind).
 */
import { utxoKey, type OgmiosUtxo } from "../../csl/utxo";
import type { OutRef } from "../../domain/out-ref";
import type { InflightRegistry } from "../../inflight";
import type { EntryLinks } from "../../sorted-list/layout";
import type { ListRecord, StoredEntry } from "../../sorted-list/list-store";
import { listEntryOf, snapshotOf, type ListEntry, type ListSnapshot } from "./list-view";

/** Which list: by policy id or by its init output reference. */
export type ListRef = { readonly policyId: string } | { readonly initRef: OutRef };

/** The indexer's record of one list (the `indexer.sortedList` action). */
export interface ListSource {
  list(ref: ListRef): Promise<{ list: ListRecord | null; entries: StoredEntry[] }>;
}

export interface LoadedList {
  readonly record: ListRecord;
  readonly snapshot: ListSnapshot;
}

/** The `indexer.sortedList` action as a ListSource for lists of the layout named `name`. */
export function indexerListSource(name: string, call: (action: string, params: Record<string, unknown>) => Promise<unknown>): ListSource {
  return {
    list: (ref) =>
      call("indexer.sortedList", {
        name,
        ...("policyId" in ref ? { policyId: ref.policyId } : { initTxHash: ref.initRef.txHash, initIndex: ref.initRef.index }),
      }) as Promise<{ list: ListRecord | null; entries: StoredEntry[] }>,
  };
}

/** The confirmed list only. @returns undefined when the list is unknown (or has no HEAD) */
export async function loadConfirmed(source: ListSource, ref: ListRef): Promise<LoadedList | undefined> {
  const { list, entries } = await source.list(ref);
  const snapshot = list ? snapshotOf(entries.map((e) => listEntryOf(list.policyId, e))) : undefined;
  return list && snapshot ? { record: list, snapshot } : undefined;
}

/** The confirmed list with the outputs of in-flight transactions at its address applied. */
export async function withPending(
  confirmed: LoadedList,
  registry: InflightRegistry,
  decodeLinks: (datumCbor: string) => EntryLinks | undefined,
): Promise<LoadedList> {
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
    if (seen.has(name) || !u.datum) continue;
    seen.add(name);
    const links = decodeLinks(u.datum);
    if (!links) continue;
    entries.set(
      name,
      links.kind === "head"
        ? { tokenName: name, key: null, next: links.next, utxo: u, origin: null }
        : { tokenName: name, key: links.key, next: links.next, utxo: u, origin: null },
    );
  }
  return { record: confirmed.record, snapshot: snapshotOf([...entries.values()])! };
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
