/**
 * The fractionized list as the generic sorted-list machinery (shared/sorted-list) sees it: prefix `FRN`, links
 * read from the HEAD and node datums, the policy of an init output reference (the blueprint's `fractionized`
 * validator with that reference applied), and the issuer = the config's deployer.
 */
import { outRefKey, type OutRef } from "../domain/out-ref";
import {
  type Blueprint,
  type FractionizedScript,
  type NetworkId,
  FRACTIONIZED_LIST,
  dataFromCborHex,
  decodeFractionizedDatum,
  deriveFractionizedScript,
  loadBlueprint,
} from "../protocol";
import type { SortedListLayout } from "../sorted-list";
import { fractionizedLinks } from "./list-state";

/** Scripts derived per init output reference; applying the parameter costs a few milliseconds each. */
export class FractionizedScripts {
  private readonly cache = new Map<string, FractionizedScript>();
  private static readonly MAX_CACHED = 1000;

  constructor(
    private readonly networkId: NetworkId,
    private readonly blueprint: Blueprint = loadBlueprint(),
  ) {}

  of(initRef: OutRef): FractionizedScript {
    const k = outRefKey(initRef);
    let s = this.cache.get(k);
    if (!s) {
      s = deriveFractionizedScript(this.blueprint, { txHash: initRef.txHash.toLowerCase(), index: initRef.index }, this.networkId);
      if (this.cache.size >= FractionizedScripts.MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(k, s);
    }
    return s;
  }
}

export function fractionizedLayout(scripts: FractionizedScripts): SortedListLayout {
  return {
    name: "fractionized",
    list: FRACTIONIZED_LIST,
    decodeLinks: fractionizedLinks,
    policyOf: (initRef) => scripts.of(initRef).policyId,
    issuerOf(headDatumCbor: string): string {
      const d = decodeFractionizedDatum(dataFromCborHex(headDatumCbor));
      return d.kind === "head" ? d.config.deployer : "";
    },
  };
}
