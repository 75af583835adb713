/**
 * The tokenizable extension's scripts: the list script for one deployment (the blueprint code with the init
 * out-ref applied as Data; its hash is both the policy of the HEAD, node and redeemed tokens and the payment
 * credential of the enterprise address holding the HEAD and the nodes), and the CIP-68 metadata script, which
 * takes no parameter (the same hash for every list; a list names it in `config.cip68ScriptHash`).
 */
import type { HexBytes } from "../../domain/hex";
import { type Blueprint, loadBlueprint, validatorCode } from "../../protocol/blueprint";
import { ListScripts } from "../list-kit/list-scripts";
import {
  type AppliedScript,
  applyParams,
  type NetworkId,
  outRefData,
  policyScriptOf,
  type PolicyScript,
  scriptAddressOf,
  scriptHashOf,
} from "../../protocol/scripts";
import { TOKENIZABLE_LIST, type TokenizableConfig } from "./datum";
import { cip68ReferenceTokenName, cip68UserTokenName } from "./cip68";
import { listHeadTokenName, listNodeTokenName } from "../list-kit/list-tokens";
import type { OutRef } from "../../domain/out-ref";

export interface TokenizableScript extends PolicyScript {
  /** the HEAD and every node live at `address` */
  readonly headTokenName: string;
}

export interface MetadataScript extends AppliedScript {
  /** enterprise address holding the reference tokens */
  readonly address: string;
}

export function deriveTokenizableScript(blueprint: Blueprint, initRef: OutRef, networkId: NetworkId): TokenizableScript {
  const code = applyParams(validatorCode(blueprint, "tokenizable"), [outRefData(initRef)]);
  return { ...policyScriptOf(code, networkId), headTokenName: listHeadTokenName(TOKENIZABLE_LIST) };
}

export function deriveTokenizableMetadataScript(blueprint: Blueprint, networkId: NetworkId): MetadataScript {
  const code = validatorCode(blueprint, "tokenizable_metadata");
  const hash = scriptHashOf(code);
  return { code, hash, size: code.length / 2, address: scriptAddressOf(hash, networkId) };
}

/** Token name of the node holding `keyHex`: `TCN ‖ blake2b_224(key)`. */
export function tokenizableNodeTokenName(keyHex: string): string {
  return listNodeTokenName(TOKENIZABLE_LIST, keyHex);
}

/** What a Redeem of a node with `assetName` mints under the list's policy, by the list's mode. */
export type RedeemedTokens =
  | { readonly mode: "plain"; readonly token: string }
  | { readonly mode: "cip68"; readonly user: string; readonly reference: string; readonly metadataScriptHash: string };

export function redeemedTokens(config: Pick<TokenizableConfig, "cip68ScriptHash">, assetName: HexBytes): RedeemedTokens {
  return config.cip68ScriptHash === undefined
    ? { mode: "plain", token: assetName }
    : {
        mode: "cip68",
        user: cip68UserTokenName(assetName),
        reference: cip68ReferenceTokenName(assetName),
        metadataScriptHash: config.cip68ScriptHash,
      };
}

/** The tokenizable scripts, derived per init output reference, and the CIP-68 metadata script. */
export class TokenizableScripts extends ListScripts<TokenizableScript> {
  /** the CIP-68 metadata script: no parameter, the same for every list */
  readonly metadata: MetadataScript;

  constructor(networkId: NetworkId, blueprint: Blueprint = loadBlueprint()) {
    super(networkId, blueprint, deriveTokenizableScript);
    this.metadata = deriveTokenizableMetadataScript(blueprint, networkId);
  }
}
