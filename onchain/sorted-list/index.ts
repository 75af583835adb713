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
 * Each validator build calls makeSortedList once, so hoisted helpers are never shared between validators.
 */
import type { SortedListLayout } from "./layout";
import { makeListTokenNames, type ListTokenNames } from "./token-names";
import { isListOutputOf, makeIsListOutput } from "./list-utxos";
import { makeIsCertificateAnchored } from "./anchoring";
import type { AnyTerm } from "../lib/term";
import type { ListEnv } from "./env";

export interface SortedList {
  readonly layout: SortedListLayout;
  readonly names: ListTokenNames;
  /** whether an output sits at the list address holding ADA and exactly one `name` token */
  readonly isListOutput: (env: ListEnv, out: AnyTerm, name: AnyTerm) => AnyTerm;
  /** hoisted (tx redeemers, state script hash, key) → bool */
  readonly isCertificateAnchored: AnyTerm;
}

export function makeSortedList(layout: SortedListLayout): SortedList {
  const isListOutput = makeIsListOutput();
  return {
    layout,
    names: makeListTokenNames(layout.prefix),
    isListOutput: (env, out, name) => isListOutputOf(isListOutput, out, env.listAddress, env.own, name),
    isCertificateAnchored: makeIsCertificateAnchored(),
  };
}

export type { SortedListLayout } from "./layout";
export type { ListEnv, NewNode } from "./env";
export { initList } from "./init-list";
export { insertLink } from "./insert-link";
export { headReferencesOf, listAddressData, listInputsOf, outputsHolding } from "./list-utxos";
export { isValidListSpend } from "./defer-to-mint";
export { isValidListInit, isValidListInsert, isValidOnSpentNode, type ExtensionEnv, type ExtensionIssueRules } from "./extension-rules";
export { makeListExtensionValidator, type ListExtensionValidator } from "./extension-validator";
