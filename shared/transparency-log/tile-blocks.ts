/**
 * A hash tile read in blocks of 16 hashes: each block's Merkle tree hash is the complete-subtree hash four levels
 * above the tile's row. A proof needs the sibling subtrees on the path through a tile; from the blocks, the siblings
 * of 16 hashes and more cost 11 node hashes instead of 240, and the ones below take one block's rows (for an entry
 * tile, 16 records hashed instead of 256). The blocks are a cache of the tile: nothing served or signed depends on them.
 */
import { nodeHash } from "../tlog/rfc9162";

export const BLOCK_WIDTH = 16;
const HASH = 32;

/** The Merkle tree hash of 2^k hashes (a complete subtree). */
export function completeSubtreeHash(hashes: readonly Uint8Array[]): Uint8Array {
  let level = hashes;
  while (level.length > 1) level = Array.from({ length: level.length / 2 }, (_, i) => nodeHash(level[2 * i]!, level[2 * i + 1]!));
  return level[0]!;
}

/** The hash of each complete block of `width` packed hashes (the last, incomplete block has none), packed. */
export function blockHashes(packed: Uint8Array, width: number): Buffer {
  const blocks = Math.floor(width / BLOCK_WIDTH);
  const out = Buffer.alloc(blocks * HASH);
  for (let b = 0; b < blocks; b++) {
    const rows = Array.from({ length: BLOCK_WIDTH }, (_, i) =>
      packed.subarray((b * BLOCK_WIDTH + i) * HASH, (b * BLOCK_WIDTH + i + 1) * HASH),
    );
    out.set(completeSubtreeHash(rows), b * HASH);
  }
  return out;
}

/** The `count` packed hashes from position `first`, as a list. */
export const hashesOf = (packed: Uint8Array, first: number, count: number): Uint8Array[] =>
  Array.from({ length: count }, (_, i) => packed.subarray((first + i) * HASH, (first + i + 1) * HASH));
