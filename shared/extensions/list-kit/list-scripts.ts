/**
 * What every list extension's layout shares: its scripts derived per init output reference (each list has its
 * own script: the init out-ref is its parameter) and the layout the indexer's list plugin reads lists with.
 */
import { outRefKey, type OutRef } from "../../domain/out-ref";
import { type Blueprint, type NetworkId, dataFromCborHex } from "../../protocol";
import { type SortedListId } from "./list-tokens";
import { linksOfDatum, type ListDatumDecoder } from "./list-state";
import type { SortedListLayout } from "../../sorted-list/layout";

/** Scripts derived per init output reference; applying the parameter costs a few milliseconds each, so they are cached. */
export class ListScripts<S> {
  private readonly cache = new Map<string, S>();
  private static readonly MAX_CACHED = 1000;

  constructor(
    protected readonly networkId: NetworkId,
    protected readonly blueprint: Blueprint,
    private readonly derive: (blueprint: Blueprint, initRef: OutRef, networkId: NetworkId) => S,
  ) {}

  of(initRef: OutRef): S {
    const k = outRefKey(initRef);
    let s = this.cache.get(k);
    if (!s) {
      s = this.derive(this.blueprint, { txHash: initRef.txHash.toLowerCase(), index: initRef.index }, this.networkId);
      if (this.cache.size >= ListScripts.MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(k, s);
    }
    return s;
  }
}

/**
 * An extension's list as the generic machinery sees it: links read from the HEAD and node datums, the policy of
 * an init output reference (the extension's validator with that reference applied), the issuer = the deployer.
 */
export function extensionLayout<
  Head extends { readonly next: string | undefined; readonly config: { readonly deployer: string } },
  Node extends { readonly key: string; readonly next: string | undefined },
>(
  name: string,
  list: SortedListId,
  decode: ListDatumDecoder<Head, Node>,
  scripts: { of(initRef: OutRef): { readonly policyId: string } },
): SortedListLayout {
  return {
    name,
    list,
    decodeLinks: linksOfDatum(decode),
    policyOf: (initRef) => scripts.of(initRef).policyId,
    issuerOf(headDatumCbor: string): string {
      const d = decode(dataFromCborHex(headDatumCbor));
      return d.kind === "head" ? d.config.deployer : "";
    },
  };
}
