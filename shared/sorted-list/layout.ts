/**
 * What the generic off-chain sorted-list machinery needs to know about one kind of list (the fractionized
 * certificate, the tokenizable certificate, …): its token-name prefix, how to read the links out of an entry's
 * datum, which policy an init output reference gives, and who issued a list. Everything else (finding the
 * predecessor of a key, recording lists from the chain, rolling back) is the same for every kind.
 */
import type { OutRef } from "../domain/out-ref";

/** The links of one entry, read from its inline datum. `key` is absent for the HEAD. */
export type EntryLinks =
  | { readonly kind: "head"; readonly next: string | undefined }
  | { readonly kind: "node"; readonly key: string; readonly next: string | undefined };

export interface SortedListLayout {
  /** short lowercase name: the indexer plugin is `<name>-lists`, the collections `<name>_lists` / `<name>_list_entries` */
  readonly name: string;
  /** the list's token-name prefix, hex (the HEAD token's name) */
  readonly list: { readonly prefix: string };
  /** the links of a datum (inline datum CBOR hex), or undefined when it is no entry of this kind of list */
  decodeLinks(datumCbor: string): EntryLinks | undefined;
  /** the policy id (= script hash) of the list an init output reference creates */
  policyOf(initRef: OutRef): string;
  /** the issuer (a key hash) named by the HEAD's datum */
  issuerOf(headDatumCbor: string): string;
}
