/**
 * The tokenizable list as the generic sorted-list machinery (shared/sorted-list) sees it: prefix `TCN`, links
 * read from the HEAD and node datums, the policy of an init output reference (the blueprint's `tokenizable`
 * validator with that reference applied), and the issuer = the config's deployer.
 */
import { outRefKey, type OutRef } from "../domain/out-ref";
import {
  type Blueprint,
  type MetadataScript,
  type NetworkId,
  type TokenizableScript,
  TOKENIZABLE_LIST,
  dataFromCborHex,
  decodeTokenizableDatum,
  deriveTokenizableMetadataScript,
  deriveTokenizableScript,
  loadBlueprint,
} from "../protocol";
import type { SortedListLayout } from "../sorted-list";
import { tokenizableLinks } from "./list-state";

/** Scripts derived per init output reference (applying the parameter costs a few milliseconds each). */
export class TokenizableScripts {
  private readonly cache = new Map<string, TokenizableScript>();
  private static readonly MAX_CACHED = 1000;
  /** the CIP-68 metadata script: no parameter, the same for every list */
  readonly metadata: MetadataScript;

  constructor(
    private readonly networkId: NetworkId,
    private readonly blueprint: Blueprint = loadBlueprint(),
  ) {
    this.metadata = deriveTokenizableMetadataScript(blueprint, networkId);
  }

  of(initRef: OutRef): TokenizableScript {
    const k = outRefKey(initRef);
    let s = this.cache.get(k);
    if (!s) {
      s = deriveTokenizableScript(this.blueprint, { txHash: initRef.txHash.toLowerCase(), index: initRef.index }, this.networkId);
      if (this.cache.size >= TokenizableScripts.MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(k, s);
    }
    return s;
  }
}

export function tokenizableLayout(scripts: TokenizableScripts): SortedListLayout {
  return {
    name: "tokenizable",
    list: TOKENIZABLE_LIST,
    decodeLinks: tokenizableLinks,
    policyOf: (initRef) => scripts.of(initRef).policyId,
    issuerOf(headDatumCbor: string): string {
      const d = decodeTokenizableDatum(dataFromCborHex(headDatumCbor));
      return d.kind === "head" ? d.config.deployer : "";
    },
  };
}
