/**
 * A fractionized list as a build sees it: the generic extension list (shared/sorted-list/extension-list.ts: the
 * indexer's record with in-flight transactions applied, HEAD and node datums decoded) with the fractionized codec.
 */
import { type FractionizedHead, type FractionizedNode, decodeFractionizedDatum } from "./datum";
import { extensionLists, type ExtensionList } from "../list-kit/list-state";
import { refuseFractionized } from "./errors";

export type FractionizedList = ExtensionList<FractionizedHead>;

/** The fractionized lists: datums, links and the list a build reads. */
export const fractionizedLists = extensionLists<FractionizedHead, FractionizedNode>({
  label: "fractionized",
  decode: decodeFractionizedDatum,
  refuse: refuseFractionized,
});

export const { headDatumOf, nodeDatumOf, loadListForBuild } = fractionizedLists;
/** The links of a fractionized datum, or undefined when the datum is not one. */
export const fractionizedLinks = fractionizedLists.links;
