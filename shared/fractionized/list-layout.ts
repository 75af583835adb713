/**
 * The fractionized list as the generic sorted-list machinery (shared/sorted-list) sees it: prefix `FRN`, links
 * read from the HEAD and node datums, the policy of an init output reference (the blueprint's `fractionized`
 * validator with that reference applied), and the issuer = the config's deployer.
 */
import {
  type Blueprint,
  type FractionizedScript,
  type NetworkId,
  FRACTIONIZED_LIST,
  decodeFractionizedDatum,
  deriveFractionizedScript,
  loadBlueprint,
} from "../protocol";
import { extensionLayout, ListScripts, type SortedListLayout } from "../sorted-list";

/** The fractionized scripts, derived per init output reference. */
export class FractionizedScripts extends ListScripts<FractionizedScript> {
  constructor(networkId: NetworkId, blueprint: Blueprint = loadBlueprint()) {
    super(networkId, blueprint, deriveFractionizedScript);
  }
}

export function fractionizedLayout(scripts: FractionizedScripts): SortedListLayout {
  return extensionLayout("fractionized", FRACTIONIZED_LIST, decodeFractionizedDatum, scripts);
}
