/**
 * The list's token names. HEAD: the prefix. Node: `prefix ‖ blake2b_224(key)` (31 bytes). Keys are certificate
 * hashes of up to 64 bytes, more than an asset name holds (32), and keys that only differ after their first
 * 29 bytes must still get different tokens, hence the hash instead of a truncated key.
 *
 * The asset an extension mints for a node (claimed or redeemed tokens) is named after the node's key too:
 * `blake2b_224(key)`, 28 bytes. Keys are unique in the list, so these names are unique per list — nobody can give
 * a second node the name of another node's tokens — and, being 28 bytes long, never equal the HEAD (3 bytes) or a
 * node token (31 bytes). A CIP-68 label (4 bytes) in front still fits the 32 bytes of an asset name.
 */
import { bs, pblake2b_224, pByteString, pfn, phoist } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "../../lib/term";

export interface ListTokenNames {
  /** bs constant */
  readonly head: AnyTerm;
  /** hoisted key → node token name */
  readonly node: AnyTerm;
  /** the asset name derived from a key: `blake2b_224(key)` */
  readonly asset: (key: AnyTerm) => AnyTerm;
  /** the node token name given the key's derived asset name (`prefix ‖ asset`), without hashing again */
  readonly nodeOfAsset: (asset: AnyTerm) => AnyTerm;
}

export function makeListTokenNames(prefixHex: string): ListTokenNames {
  return {
    head: pByteString(prefixHex),
    node: phoist(pfn([bs], bs)((key: AnyTerm) => pByteString(prefixHex).concat(pblake2b_224.$(key)))),
    asset: (key) => pblake2b_224.$(key),
    nodeOfAsset: (asset) => pByteString(prefixHex).concat(asset),
  };
}
