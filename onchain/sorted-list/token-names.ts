/**
 * The list's token names. HEAD: the prefix. Node: `prefix ‖ blake2b_224(key)` (31 bytes). Keys are certificate
 * hashes of up to 64 bytes, more than an asset name holds (32), and keys that only differ after their first
 * 29 bytes must still get different tokens, hence the hash instead of a truncated key.
 */
import { bs, pblake2b_224, pByteString, pfn, phoist, psliceBs } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "../lib/term";

export interface ListTokenNames {
  /** bs constant */
  readonly head: AnyTerm;
  /** hoisted key → node token name */
  readonly node: AnyTerm;
  /** whether an asset name starts with the prefix (so it could be mistaken for a list token) */
  readonly isReserved: (name: AnyTerm) => AnyTerm;
}

export function makeListTokenNames(prefixHex: string): ListTokenNames {
  const prefixLength = prefixHex.length / 2;
  const head = pByteString(prefixHex);
  return {
    head,
    node: phoist(pfn([bs], bs)((key: AnyTerm) => pByteString(prefixHex).concat(pblake2b_224.$(key)))),
    isReserved: (name) => psliceBs.$(0).$(prefixLength).$(name).eq(head),
  };
}
