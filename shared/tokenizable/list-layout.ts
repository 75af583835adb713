/**
 * The tokenizable list as the generic sorted-list machinery (shared/sorted-list) sees it: prefix `TCN`, links
 * read from the HEAD and node datums, the policy of an init output reference (the blueprint's `tokenizable`
 * validator with that reference applied), and the issuer = the config's deployer.
 */
import {
  type Blueprint,
  type MetadataScript,
  type NetworkId,
  type TokenizableScript,
  TOKENIZABLE_LIST,
  decodeTokenizableDatum,
  deriveTokenizableMetadataScript,
  deriveTokenizableScript,
  loadBlueprint,
} from "../protocol";
import { extensionLayout, ListScripts, type SortedListLayout } from "../sorted-list";

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
