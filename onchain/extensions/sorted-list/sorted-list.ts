/**
 * One list as a validator build sees it: its layout, its token names and the hoisted helpers its rules share.
 * Each validator build calls makeSortedList once, so hoisted helpers are never shared between validators.
 */
import type { SortedListLayout } from "./layout";
import { makeListTokenNames, type ListTokenNames } from "./token-names";
import { isListOutputOf, makeIsListOutput } from "./list-utxos";
import { makeIsCertificateAnchored } from "./anchoring";
import type { AnyTerm } from "../../lib/term";
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
