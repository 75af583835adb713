/**
 * The fractionized list as the generic sorted-list machinery (shared/sorted-list) sees it: prefix `FRN`, links
 * read from the HEAD and node datums, the policy of an init output reference (the blueprint's `fractionized`
 * validator with that reference applied), and the issuer = the config's deployer.
 */
import { type Blueprint, type NetworkId, loadBlueprint } from "../../protocol";
import { type FractionizedScript, deriveFractionizedScript } from "./scripts";
import { FRACTIONIZED_LIST, decodeFractionizedDatum } from "./datum";
import { type SortedListLayout } from "../../sorted-list";
import { extensionLayout, ListScripts } from "../list-kit/list-scripts";

/** The fractionized scripts, derived per init output reference. */
export class FractionizedScripts extends ListScripts<FractionizedScript> {
  constructor(networkId: NetworkId, blueprint: Blueprint = loadBlueprint()) {
    super(networkId, blueprint, deriveFractionizedScript);
  }
}

export function fractionizedLayout(scripts: FractionizedScripts): SortedListLayout {
  return extensionLayout("fractionized", FRACTIONIZED_LIST, decodeFractionizedDatum, scripts);
}
