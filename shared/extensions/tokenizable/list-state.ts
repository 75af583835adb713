/**
 * A tokenizable list as builds and the status route see it: the generic extension list
 * (shared/sorted-list/extension-list.ts: the indexer's record, with in-flight transactions applied for builds, HEAD
 * and node datums decoded) with the tokenizable codec.
 */
import { type TokenizableHead, type TokenizableNode, decodeTokenizableDatum } from "./datum";
import { extensionLists, type ExtensionList } from "../list-kit/list-state";
import { refuseTokenizable } from "./errors";

export type TokenizableList = ExtensionList<TokenizableHead>;

/** The tokenizable lists: datums, links and the list a build reads. */
export const tokenizableLists = extensionLists<TokenizableHead, TokenizableNode>({
  label: "tokenizable",
  decode: decodeTokenizableDatum,
  refuse: refuseTokenizable,
});

export const { headDatumOf, nodeDatumOf, loadListForBuild } = tokenizableLists;
/** The links of a tokenizable datum, or undefined when the datum is not one. */
export const tokenizableLinks = tokenizableLists.links;
