/**
 * The Merkle Tree Hash of RFC 9162 §2.1.1 (Certificate Transparency v2; the same tree as RFC 6962), with SHA-256:
 * - leaf hash  = SHA-256(0x00 ‖ leaf input)
 * - node hash  = SHA-256(0x01 ‖ left ‖ right)
 * - a tree of n > 1 leaves splits at k, the largest power of two smaller than n: MTH(D[0:n]) = node(MTH(D[0:k]), MTH(D[k:n])).
 *
 * Built bottom-up here: each level pairs adjacent nodes, and a last node without a partner moves up unchanged.
 * That gives exactly the recursive definition's root (every left subtree of the recursion is a complete,
 * power-of-two aligned subtree), and the inclusion path of RFC 9162 §2.1.3.1: the siblings met on the way up,
 * bottom first, skipping the levels where the node moved up alone. The domain separation (0x00 / 0x01) keeps an
 * interior node from passing for a leaf (no second-preimage trick). docs/merkle-batches.md describes the format.
 */
import { hash } from "node:crypto";
import { sha256Leaf32, sha256Node64 } from "./sha256-fixed";

/** The name of this tree scheme, written into the `algorithm` of a certificate anchoring a root. */
export const MERKLE_SCHEME = "merkle-sha256-rfc9162";
export const NODE_BYTES = 32;

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;

/** SHA-256(0x00 ‖ input): the hash of one leaf input (any length). */
export function leafHash(input: Uint8Array): Buffer {
  const buf = Buffer.allocUnsafe(1 + input.length);
  buf[0] = LEAF_PREFIX;
  buf.set(input, 1);
  return hash("sha256", buf, "buffer");
}

/** SHA-256(0x01 ‖ left ‖ right): the hash of an interior node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  const buf = Buffer.allocUnsafe(1 + left.length + right.length);
  buf[0] = NODE_PREFIX;
  buf.set(left, 1);
  buf.set(right, 1 + left.length);
  return hash("sha256", buf, "buffer");
}

/** The root of an empty tree: SHA-256 of nothing (RFC 9162 §2.1.1). */
export const EMPTY_ROOT = hash("sha256", Buffer.alloc(0), "buffer");

/**
 * Leaf hashes of fixed-width leaf inputs packed one after another (the batch format: 32-byte hashes), packed the
 * same way. @throws RangeError when the length is not a multiple of `width`
 */
export function hashPackedLeaves(packed: Uint8Array, width = NODE_BYTES): Buffer {
  if (packed.length % width !== 0) throw new RangeError(`${packed.length} bytes are not a whole number of ${width}-byte leaves`);
  const n = packed.length / width;
  const out = Buffer.allocUnsafe(n * NODE_BYTES);
  if (width === NODE_BYTES) {
    for (let i = 0; i < n; i++) sha256Leaf32(LEAF_PREFIX, packed, i * NODE_BYTES, out, i * NODE_BYTES);
    return out;
  }
  const scratch = Buffer.allocUnsafe(1 + width);
  scratch[0] = LEAF_PREFIX;
  for (let i = 0; i < n; i++) {
    scratch.set(packed.subarray(i * width, (i + 1) * width), 1);
    out.set(hash("sha256", scratch, "buffer"), i * NODE_BYTES);
  }
  return out;
}

/** The level above a packed level of nodes: pairs hashed, a last lone node moved up unchanged. */
function parentLevel(level: Uint8Array): Buffer {
  const n = level.length / NODE_BYTES;
  const up = Math.ceil(n / 2);
  const out = Buffer.allocUnsafe(up * NODE_BYTES);
  for (let i = 0; i + 1 < n; i += 2) sha256Node64(NODE_PREFIX, level, i * NODE_BYTES, out, (i / 2) * NODE_BYTES);
  if (n % 2 === 1) out.set(level.subarray((n - 1) * NODE_BYTES, n * NODE_BYTES), (up - 1) * NODE_BYTES);
  return out;
}

/**
 * Every level of the tree over packed leaf hashes, bottom (the leaf hashes) to top (the root alone).
 * An empty input gives no levels (its root is EMPTY_ROOT).
 */
export function treeLevels(leafHashes: Buffer): Buffer[] {
  if (leafHashes.length % NODE_BYTES !== 0) throw new RangeError("leaf hashes must be packed 32-byte nodes");
  if (leafHashes.length === 0) return [];
  const levels = [leafHashes];
  let top = leafHashes;
  while (top.length > NODE_BYTES) {
    top = parentLevel(top);
    levels.push(top);
  }
  return levels;
}

/** The root of the levels built by `treeLevels`. */
export function rootOfLevels(levels: readonly Buffer[]): Buffer {
  const top = levels[levels.length - 1];
  return top === undefined ? Buffer.from(EMPTY_ROOT) : Buffer.from(top.subarray(0, NODE_BYTES));
}

/** The node at `index` of a packed level. */
function nodeAt(level: Uint8Array, index: number): Buffer {
  return Buffer.from(level.subarray(index * NODE_BYTES, (index + 1) * NODE_BYTES));
}

/**
 * The inclusion path (RFC 9162 §2.1.3.1) of the node at `index` of `levels[0]`, through every level given:
 * sibling hashes, bottom first. Levels may be the upper part of a tree (then `index` counts nodes of that level).
 * @throws RangeError when the index is outside the bottom level
 */
export function inclusionPath(levels: readonly Uint8Array[], index: number): Buffer[] {
  const bottom = levels[0];
  if (bottom === undefined || !Number.isSafeInteger(index) || index < 0 || index >= bottom.length / NODE_BYTES) {
    throw new RangeError(`index ${index} is outside the tree`);
  }
  const path: Buffer[] = [];
  let i = index;
  for (let l = 0; l < levels.length - 1; l++) {
    const level = levels[l]!;
    const sibling = i ^ 1;
    if (sibling < level.length / NODE_BYTES) path.push(nodeAt(level, sibling));
    i >>= 1;
  }
  return path;
}

/** Root and leaf hashes of a list of leaf inputs of any length (RFC vectors; batches use the packed form). */
export function rootOfLeafInputs(inputs: readonly Uint8Array[]): Buffer {
  return rootOfLevels(treeLevels(Buffer.concat(inputs.map((x) => leafHash(x)))));
}
