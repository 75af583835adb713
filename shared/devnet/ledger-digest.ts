// Digests and CBOR framing the devnet needs that CSL does not expose directly.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";

/**
 * A 32-byte blake2b-256 digest of `bytes` for devnet-only identifiers (block ids, genesis pseudo-transaction ids).
 * CSL exposes blake2b-256 only through typed hashes, so we hash the CBOR byte string wrapping `bytes`; the result is
 * deterministic and collision-resistant, which is all a devnet identifier needs.
 */
export function devnetDigest(bytes: Uint8Array): string {
  return CSL.hash_plutus_data(CSL.PlutusData.new_bytes(bytes)).to_hex();
}

/** CBOR major-type header (e.g. 4 = array, 5 = map) for a definite length. */
function cborHeader(majorType: number, length: number): Uint8Array {
  const m = majorType << 5;
  if (length < 24) return Uint8Array.of(m | length);
  if (length < 0x100) return Uint8Array.of(m | 24, length);
  if (length < 0x10000) return Uint8Array.of(m | 25, length >> 8, length & 0xff);
  return Uint8Array.of(m | 26, (length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff);
}

/** CBOR map `{ key_i: value_i }` from already-encoded keys and values. */
export function cborMap(entries: { key: Uint8Array; value: Uint8Array }[]): Uint8Array {
  return Buffer.concat([cborHeader(5, entries.length), ...entries.flatMap((e) => [e.key, e.value])]);
}

export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
export const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex, "hex"));
