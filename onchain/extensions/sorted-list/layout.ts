/**
 * What the sorted-list module needs to know about a list, and nothing more: its token-name prefix and where the
 * HEAD and node datums keep `next`, `key` and the config. Everything else in an entry's datum belongs to the
 * extension using the list, which checks it itself.
 */
export interface SortedListLayout {
  /** hex; the HEAD token is named by it, every node token is `prefix ‖ blake2b_224(key)` */
  readonly prefix: string;
  readonly head: {
    /** constructor index of the HEAD datum */
    readonly constr: number;
    /** number of fields of the HEAD datum */
    readonly arity: number;
    /** field holding `next: Option<bytes>` */
    readonly next: number;
    /** field holding the list's config (read by the extension) */
    readonly config: number;
  };
  readonly node: {
    readonly constr: number;
    readonly arity: number;
    /** field holding the key (bytes) */
    readonly key: number;
    /** field holding `next: Option<bytes>` */
    readonly next: number;
  };
}
