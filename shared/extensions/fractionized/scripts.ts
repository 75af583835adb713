/**
 * The fractionized list's script for one deployment: the blueprint code with the init out-ref applied (as
 * Data, like the proxy's parameter). Its hash is both the policy of the HEAD, node and claimed tokens and the
 * payment credential of the address holding the HEAD and the nodes (enterprise: no stake part).
 */
import { type Blueprint, loadBlueprint, validatorCode } from "../../protocol/blueprint";
import { ListScripts } from "../list-kit/list-scripts";
import { applyParams, type NetworkId, outRefData, policyScriptOf, type PolicyScript } from "../../protocol/scripts";
import { FRACTIONIZED_LIST } from "./datum";
import { listHeadTokenName, listNodeTokenName } from "../list-kit/list-tokens";
import type { OutRef } from "../../domain/out-ref";

export interface FractionizedScript extends PolicyScript {
  /** the HEAD and every node live at `address` */
  readonly headTokenName: string;
}

export function deriveFractionizedScript(blueprint: Blueprint, initRef: OutRef, networkId: NetworkId): FractionizedScript {
  const code = applyParams(validatorCode(blueprint, "fractionized"), [outRefData(initRef)]);
  return { ...policyScriptOf(code, networkId), headTokenName: listHeadTokenName(FRACTIONIZED_LIST) };
}

/** Token name of the node holding `keyHex`: `FRN ‖ blake2b_224(key)`. */
export function fractionizedNodeTokenName(keyHex: string): string {
  return listNodeTokenName(FRACTIONIZED_LIST, keyHex);
}

/** The fractionized scripts, derived per init output reference. */
export class FractionizedScripts extends ListScripts<FractionizedScript> {
  constructor(networkId: NetworkId, blueprint: Blueprint = loadBlueprint()) {
    super(networkId, blueprint, deriveFractionizedScript);
  }
}
