/** What the sorted-list rules work with in one script evaluation. */
import type { Rule } from "../../rules";
import type { AnyTerm } from "../../lib/term";

export interface ListEnv {
  readonly rule: Rule;
  /** PTxInfo */
  readonly tx: AnyTerm;
  /** the list script's hash: its policy id and its addresses' payment credential */
  readonly own: AnyTerm;
  /** the list address as Data (listAddressData(own)), bound once */
  readonly listAddress: AnyTerm;
}

/** A node an Init or Insert creates, handed to the extension to check its own fields. */
export interface NewNode {
  /** the list's config (Data), from the HEAD output (Init), the spent HEAD or the HEAD reference input (Insert) */
  readonly config: AnyTerm;
  /** the new node's token name */
  readonly name: AnyTerm;
  /** the asset name derived from the new node's key (blake2b_224(key)): the only name its tokens may carry */
  readonly assetName: AnyTerm;
  /** the output holding the new node token */
  readonly output: AnyTerm;
  /** its inline datum (Data) */
  readonly datum: AnyTerm;
  /** the `next` (Data, Option<bytes>) the new node must carry */
  readonly next: AnyTerm;
}
