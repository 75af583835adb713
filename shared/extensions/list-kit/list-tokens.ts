/**
 * Off-chain twin of the on-chain sorted-list module (onchain/extensions/sorted-list): the list's token names, the
 * `Option<bytes>` links, the key order and the insert position. Generic over the list: nothing here knows the
 * extension-specific datum fields.
 *
 * A list lives at one script address and under the same script's policy. Its HEAD carries the token named by the
 * list's 3-byte prefix; every node carries `prefix ‖ blake2b_224(key)` (31 bytes), so keys of any length (up to
 * the 64-byte certificate hashes) give distinct, fixed-size names; the tokens a node mints are named
 * `blake2b_224(key)` (`nodeAssetName`). Keys are ordered as raw bytes (the Plutus
 * `lessThanByteString` order, `compareByteStrings`), never as hex or text; links are `Option<ByteArray>`
 * (`optionBytes` / `expectOptionBytes` in plutus-data.ts).
 */
import { fromHex } from "../../csl/hex";
import { HexBytes, type Hex } from "../../domain/hex";
import { blake2b224 } from "../../protocol/blake2b";
import { compareByteStrings } from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";

/** A list's token-name prefix: the HEAD token's name, and the first 3 bytes of every node token name. */
export interface SortedListId {
  /** 3 bytes (e.g. `46524e`, "FRN") */
  readonly prefix: HexBytes;
}

export function listHeadTokenName(list: SortedListId): HexBytes {
  return list.prefix;
}

/** `prefix ‖ blake2b_224(key)`, hex. */
export function listNodeTokenName(list: SortedListId, keyHex: string): string {
  return listHeadTokenName(list) + blake2b224(fromHex(keyHex, "key")).toString("hex");
}

/**
 * The asset name of the tokens a node mints (a fractionized node's claimed tokens, a tokenizable node's token or
 * the base of its CIP-68 pair): `blake2b_224(key)`, hex, 28 bytes. The validators accept no other name, so the
 * names are unique per list (keys are) and never equal a list token's name (3 or 31 bytes).
 */
export function nodeAssetName(keyHex: string): HexBytes {
  return HexBytes(blake2b224(fromHex(keyHex, "key")).toString("hex"));
}

// ---- order and insert position ------------------------------------------------------------------------------

/** The entries an insert needs to know about: the HEAD's first key and each node's key and next key. */
interface ListView {
  readonly headNext: string | undefined;
  readonly nodes: readonly { readonly key: string; readonly next: string | undefined }[];
}

type InsertPosition =
  /** the new key sorts before every key: spend the HEAD */
  | { readonly predecessor: "HEAD"; readonly next: string | undefined }
  /** spend the node with key `predecessor` */
  | { readonly predecessor: string; readonly next: string | undefined }
  | { readonly duplicate: true };

/**
 * Where `key` goes: the entry whose key is the largest one below `key` (or the HEAD), found by walking the links
 * from the HEAD, so unlinked entries never count. The view's keys and links are hex as the Plutus Data model holds
 * them (lowercase), like the key.
 * @throws ProtocolError INVALID_FIELD when the links are broken (a next key without a node)
 */
export function findInsertPosition(view: ListView, k: Hex): InsertPosition {
  const byKey = new Map(view.nodes.map((n) => [n.key, n]));
  let predecessor: "HEAD" | string = "HEAD";
  let next = view.headNext;
  for (;;) {
    if (next === undefined) return { predecessor, next: undefined };
    const order = compareByteStrings(k, next);
    if (order === 0) return { duplicate: true };
    if (order < 0) return { predecessor, next };
    const node = byKey.get(next);
    if (!node) throw new ProtocolError("INVALID_FIELD", `list link to ${next} has no node`, { key: next });
    predecessor = next;
    next = node.next;
  }
}
