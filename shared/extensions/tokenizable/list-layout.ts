/**
 * The tokenizable list as the generic sorted-list machinery (shared/sorted-list) sees it: prefix `TCN`, links
 * read from the HEAD and node datums, the policy of an init output reference (the blueprint's `tokenizable`
 * validator with that reference applied), and the issuer = the config's deployer.
 */
import { type Blueprint, type NetworkId, loadBlueprint } from "../../protocol";
import { type MetadataScript, type TokenizableScript, deriveTokenizableMetadataScript, deriveTokenizableScript } from "./scripts";
import { TOKENIZABLE_LIST, decodeTokenizableDatum } from "./datum";
import { type SortedListLayout } from "../../sorted-list";
import { extensionLayout, ListScripts } from "../list-kit/list-scripts";

/** The tokenizable scripts, derived per init output reference, and the CIP-68 metadata script. */
export class TokenizableScripts extends ListScripts<TokenizableScript> {
  /** the CIP-68 metadata script: no parameter, the same for every list */
  readonly metadata: MetadataScript;

  constructor(networkId: NetworkId, blueprint: Blueprint = loadBlueprint()) {
    super(networkId, blueprint, deriveTokenizableScript);
    this.metadata = deriveTokenizableMetadataScript(blueprint, networkId);
  }
}

export function tokenizableLayout(scripts: TokenizableScripts): SortedListLayout {
  return extensionLayout("tokenizable", TOKENIZABLE_LIST, decodeTokenizableDatum, scripts);
}
