/**
 * A generic sorted linked list on chain, one per multi-purpose (mint + spend) script: the HEAD and every node
 * live at the script's enterprise address, each holding its own token of the script's policy. Keys are unique
 * and strictly increasing along the links, compared as raw bytes.
 *
 * Contract for an extension using it (see docs/extensions-onchain.md):
 * - describe the datums with a SortedListLayout (prefix, where `next`, `key` and the config sit);
 * - validate every transition in the mint handler (Init: initList, Insert: insertLink) and check the fields the
 *   list does not know about in the callback, including that the new node's datum carries `key` and `next`;
 * - make the spend handler defer to the mint handler;
 * - name what it mints for a node after the node's key (names.asset: unique per list, and never a list token's name),
 *   and require a new node's asset-name field to be that name (NewNode.assetName).
 */
export { makeSortedList, type SortedList } from "./sorted-list";
export type { SortedListLayout } from "./layout";
export type { ListEnv, NewNode } from "./env";
export { initList } from "./init-list";
export { insertLink } from "./insert-link";
export { headReferencesOf, listAddressData, listInputsOf, outputsHolding } from "./list-utxos";
export { isValidListSpend } from "./defer-to-mint";
export { isValidListInit, isValidListInsert, isValidOnSpentNode, type ExtensionEnv, type ExtensionIssueRules } from "./extension-rules";
export { makeListExtensionValidator, type ListExtensionValidator } from "./extension-validator";
