/**
 * A list extension's list as its builds and status see it: the generic view (list-source.ts: the indexer's record,
 * with in-flight transactions applied for builds) plus the HEAD and node datums decoded with the extension's
 * codec. An unknown list is refused through the extension's own `refuse` (UNKNOWN_LIST).
 */
import type { InflightRegistry } from "../../inflight";
import { type Data, dataFromCborHex } from "../../protocol";
import type { ListRefuse } from "./list-errors";
import type { EntryLinks } from "../../sorted-list/layout";
import { loadConfirmed, withPending, type ListRef, type ListSource, type LoadedList } from "./list-source";
import type { ListEntry } from "./list-view";

/** An extension's datum decoder: a HEAD `{ next, config }` or a node `{ key, next, … }`. */
export type ListDatumDecoder<Head, Node> = (d: Data) => ({ readonly kind: "head" } & Head) | ({ readonly kind: "node" } & Node);

/** The links of an entry's datum, or undefined when the datum is no entry of this kind of list. */
export function linksOfDatum<
  Head extends { readonly next: string | undefined },
  Node extends { readonly key: string; readonly next: string | undefined },
>(decode: ListDatumDecoder<Head, Node>): (datumCbor: string) => EntryLinks | undefined {
  return (datumCbor) => {
    try {
      const d = decode(dataFromCborHex(datumCbor));
      return d.kind === "head" ? { kind: "head", next: d.next } : { kind: "node", key: d.key, next: d.next };
    } catch {
      return undefined;
    }
  };
}

export interface ExtensionList<Head> extends LoadedList {
  readonly head: Head;
}

/** What reading an extension's lists needs: its name in messages, its datum decoder and its refusal. */
interface ListKind<Head, Node> {
  /** "fractionized", "tokenizable" */
  readonly label: string;
  readonly decode: ListDatumDecoder<Head, Node>;
  readonly refuse: ListRefuse;
}

export function extensionLists<
  Head extends { readonly next: string | undefined; readonly config: unknown },
  Node extends { readonly key: string; readonly next: string | undefined },
>(kind: ListKind<Head, Node>) {
  const links = linksOfDatum(kind.decode);

  function headDatumOf(e: ListEntry): Head {
    const d = kind.decode(dataFromCborHex(e.utxo.datum!));
    if (d.kind !== "head") throw new Error("list HEAD without a HEAD datum");
    return { next: d.next, config: d.config } as Head;
  }

  function nodeDatumOf(e: ListEntry): Node {
    const d = kind.decode(dataFromCborHex(e.utxo.datum!));
    if (d.kind !== "node") throw new Error("list node without a node datum");
    return d;
  }

  function unknownList(ref: ListRef): never {
    return kind.refuse(
      "UNKNOWN_LIST",
      "policyId" in ref
        ? `No ${kind.label} list with policy id ${ref.policyId} is known (it does not exist, or its Init is not confirmed yet).`
        : `No ${kind.label} list was created from the init UTxO ${ref.initRef.txHash}#${ref.initRef.index} (or its Init is not confirmed yet).`,
      "policyId" in ref ? { policyId: ref.policyId } : { initUtxoTxHash: ref.initRef.txHash, initUtxoOutputIndex: ref.initRef.index },
    );
  }

  /** The list with in-flight transactions applied (builds read this). @throws the extension's UNKNOWN_LIST */
  async function loadListForBuild(source: ListSource, registry: InflightRegistry, ref: ListRef): Promise<ExtensionList<Head>> {
    const confirmed = await loadConfirmed(source, ref);
    if (!confirmed) return unknownList(ref);
    const loaded = await withPending(confirmed, registry, links);
    return { ...loaded, head: headDatumOf(loaded.snapshot.head) };
  }

  return { links, headDatumOf, nodeDatumOf, loadListForBuild };
}
