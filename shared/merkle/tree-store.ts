/**
 * Stored batch trees, so proofs can be served after the build (docs/merkle-batches.md#storage). Three collections,
 * written through the store port (SQLite or NeDB embedded, MongoDB in scale mode):
 * - `merkle_trees`: one document per tree (id, root, leaf count) with the tree's upper levels, from the level of
 *   CHUNK_LEAVES-leaf subtrees up to the root;
 * - `merkle_leaf_chunks`: the submitted hashes in chunks of CHUNK_LEAVES, from which the lower part of a path is
 *   recomputed (one chunk: at most 2 × CHUNK_LEAVES hashes);
 * - `merkle_leaf_buckets`: the leaf → (tree, index) index, leaves grouped by the first 2 to 4 hex digits of the hash
 *   so a lookup reads one small document per tree that has leaves with that prefix.
 * The tree document is written last: a tree is served only once all its parts are stored.
 */
import { createHash } from "node:crypto";
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";
import { hashPackedLeaves, inclusionPath, MERKLE_SCHEME, NODE_BYTES, rootOfLevels, treeLevels } from "./merkle-tree";

/** Leaves per stored chunk: a power of two, so a full chunk is one complete subtree of the batch tree. */
export const CHUNK_LEAVES = 256;
const CHUNK_LEVEL = Math.log2(CHUNK_LEAVES);
/** Target size of a leaf-index bucket: the prefix grows (up to 4 hex digits) until buckets hold about this many. */
const BUCKET_TARGET = 256;
/**
 * At least two digits even for small trees: a lookup reads the buckets of its prefixes in every tree, and an
 * unprefixed bucket of each small tree would make every lookup read every small tree.
 */
const MIN_PREFIX_DIGITS = 2;
const MAX_PREFIX_DIGITS = 4;
/** Documents per insertMany call (bounded write batches). */
const WRITE_BATCH = 256;

interface TreeDoc extends StoredDocument {
  root: string;
  leafCount: number;
  scheme: string;
  /** hex digits of the leaf-index bucket prefix of this tree */
  prefixDigits: number;
  /** levels CHUNK_LEVEL and up (packed nodes, hex), bottom first; empty when the tree fits in one chunk */
  upperLevels: string[];
  createdAt: number;
}

interface ChunkDoc extends StoredDocument {
  treeId: string;
  chunk: number;
  /** the submitted hashes of this chunk, packed, hex */
  leaves: string;
}

interface BucketDoc extends StoredDocument {
  treeId: string;
  bucket: string;
  /** packed hashes (hex) of the leaves in this bucket, and their indices in the tree (4 bytes big-endian each, hex) */
  hashes: string;
  indices: string;
}

/** A tree built from a batch, ready to be stored and anchored. */
export interface BuiltTree {
  treeId: string;
  root: Buffer;
  leafCount: number;
  /** the submitted hashes, packed */
  leaves: Buffer;
  levels: Buffer[];
}

/** Where a leaf sits, with its inclusion path. */
export interface LeafInclusion {
  treeId: string;
  root: string;
  treeSize: number;
  leafIndex: number;
  path: string[];
}

/**
 * The tree id binds the root and the leaf count (a root alone does not fix the size a path is checked against):
 * the first 16 bytes of SHA-256("merkle-tree" ‖ root ‖ leafCount as 8 bytes big-endian), hex.
 */
export function treeIdOf(root: Uint8Array, leafCount: number): string {
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(leafCount));
  return createHash("sha256").update("merkle-tree").update(root).update(size).digest("hex").slice(0, 32);
}

/** Builds the tree of packed 32-byte hashes. @throws RangeError for an empty or ragged input */
export function buildTree(leaves: Buffer): BuiltTree {
  if (leaves.length === 0 || leaves.length % NODE_BYTES !== 0) throw new RangeError("a batch is one or more packed 32-byte hashes");
  const levels = treeLevels(hashPackedLeaves(leaves));
  const root = rootOfLevels(levels);
  const leafCount = leaves.length / NODE_BYTES;
  return { treeId: treeIdOf(root, leafCount), root, leafCount, leaves, levels };
}

/**
 * The leaves grouped by the first `digits` hex digits of their hash (a counting sort on the prefix read from the
 * bytes: no string per leaf), each group's hashes packed as hex with their indices, in leaf order.
 */
function bucketsOf(leaves: Buffer, digits: number): { bucket: string; hashes: string; indices: string }[] {
  const n = leaves.length / NODE_BYTES;
  const prefixOf = (i: number): number => {
    const o = i * NODE_BYTES;
    const first16 = (leaves[o]! << 8) | leaves[o + 1]!;
    return first16 >>> (16 - 4 * digits);
  };
  const counts = new Uint32Array(16 ** digits + 1);
  for (let i = 0; i < n; i++) counts[prefixOf(i) + 1]!++;
  for (let b = 1; b < counts.length; b++) counts[b]! += counts[b - 1]!;
  const starts = counts.slice(0, -1);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[starts[prefixOf(i)]!++] = i;
  const groups: { bucket: string; hashes: string; indices: string }[] = [];
  for (let b = 0; b < counts.length - 1; b++) {
    const from = counts[b]!;
    const to = counts[b + 1]!;
    if (from === to) continue;
    const packed = Buffer.allocUnsafe((to - from) * NODE_BYTES);
    const indices = Buffer.allocUnsafe((to - from) * 4);
    for (let k = 0; k < to - from; k++) {
      const leaf = order[from + k]!;
      leaves.copy(packed, k * NODE_BYTES, leaf * NODE_BYTES, (leaf + 1) * NODE_BYTES);
      indices.writeUInt32BE(leaf, k * 4);
    }
    groups.push({
      bucket: b.toString(16).padStart(digits, "0"),
      hashes: packed.toString("hex"),
      indices: indices.toString("hex"),
    });
  }
  return groups;
}

function prefixDigitsFor(leafCount: number): number {
  let digits = MIN_PREFIX_DIGITS;
  while (digits < MAX_PREFIX_DIGITS && leafCount / 16 ** digits > BUCKET_TARGET) digits++;
  return digits;
}

export class MerkleTreeStore {
  private constructor(
    private readonly trees: Collection<TreeDoc>,
    private readonly chunks: Collection<ChunkDoc>,
    private readonly buckets: Collection<BucketDoc>,
    private readonly now: () => number,
  ) {}

  static async open(store: Store, now: () => number = Date.now): Promise<MerkleTreeStore> {
    const trees = store.collection<TreeDoc>("merkle_trees");
    const chunks = store.collection<ChunkDoc>("merkle_leaf_chunks");
    const buckets = store.collection<BucketDoc>("merkle_leaf_buckets");
    await chunks.ensureIndexes([{ fields: { treeId: 1 } }]);
    await buckets.ensureIndexes([{ fields: { bucket: 1 } }, { fields: { treeId: 1 } }]);
    return new MerkleTreeStore(trees, chunks, buckets, now);
  }

  async has(treeId: string): Promise<boolean> {
    return (await this.trees.findOne({ _id: treeId })) !== undefined;
  }

  /**
   * Stores a tree; storing the same tree again changes nothing. Every document's id and content follow from the
   * tree, so what an interrupted or concurrent save of the same tree wrote is exactly what this one writes: such
   * documents are kept, not rewritten.
   */
  async save(tree: BuiltTree): Promise<void> {
    if (await this.has(tree.treeId)) return;
    const hex = tree.leaves.toString("hex");
    const chunkHex = CHUNK_LEAVES * NODE_BYTES * 2;
    const chunkDocs: ChunkDoc[] = [];
    for (let c = 0; c * chunkHex < hex.length; c++) {
      chunkDocs.push({ _id: `${tree.treeId}:${c}`, treeId: tree.treeId, chunk: c, leaves: hex.slice(c * chunkHex, (c + 1) * chunkHex) });
    }
    await this.insertAll(this.chunks, chunkDocs);

    const digits = prefixDigitsFor(tree.leafCount);
    const bucketDocs = bucketsOf(tree.leaves, digits).map(({ bucket, hashes, indices }) => ({
      _id: `${tree.treeId}:${bucket}`,
      treeId: tree.treeId,
      bucket,
      hashes,
      indices,
    }));
    await this.insertAll(this.buckets, bucketDocs);

    const upperLevels = tree.levels.length > CHUNK_LEVEL + 1 ? tree.levels.slice(CHUNK_LEVEL).map((l) => l.toString("hex")) : [];
    await this.insertAll(this.trees, [
      {
        _id: tree.treeId,
        root: tree.root.toString("hex"),
        leafCount: tree.leafCount,
        scheme: MERKLE_SCHEME,
        prefixDigits: digits,
        upperLevels,
        createdAt: this.now(),
      },
    ]);
  }

  /** Inserts in bounded batches; a batch that meets documents already stored is inserted one by one around them. */
  private async insertAll<T extends StoredDocument>(collection: Collection<T>, docs: readonly T[]): Promise<void> {
    for (let i = 0; i < docs.length; i += WRITE_BATCH) {
      const batch = docs.slice(i, i + WRITE_BATCH);
      try {
        await collection.insertMany(batch);
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        for (const doc of batch) {
          try {
            await collection.insertOne(doc);
          } catch (one) {
            if (!isDuplicateKeyError(one)) throw one;
          }
        }
      }
    }
  }

  /** Every stored tree holding this 32-byte hash (its first index in each), with the inclusion path. */
  async findLeaf(hashHex: string): Promise<LeafInclusion[]> {
    const h = hashHex.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(h)) return [];
    const prefixes = Array.from({ length: MAX_PREFIX_DIGITS - MIN_PREFIX_DIGITS + 1 }, (_, d) => h.slice(0, MIN_PREFIX_DIGITS + d));
    const docs = await this.buckets.find({ bucket: { $in: prefixes } });
    const firstIndex = new Map<string, number>();
    for (const doc of docs) {
      for (let k = 0; k * 64 < doc.hashes.length; k++) {
        if (doc.hashes.startsWith(h, k * 64)) {
          const index = parseInt(doc.indices.slice(k * 8, k * 8 + 8), 16);
          const known = firstIndex.get(doc.treeId);
          if (known === undefined || index < known) firstIndex.set(doc.treeId, index);
        }
      }
    }
    const found: LeafInclusion[] = [];
    for (const [treeId, leafIndex] of firstIndex) {
      const inclusion = await this.inclusion(treeId, leafIndex);
      if (inclusion) found.push(inclusion);
    }
    return found;
  }

  /** The inclusion path of leaf `leafIndex` of a stored tree; undefined when the tree is not (completely) stored. */
  async inclusion(treeId: string, leafIndex: number): Promise<LeafInclusion | undefined> {
    const tree = await this.trees.findOne({ _id: treeId });
    if (!tree || leafIndex < 0 || leafIndex >= tree.leafCount) return undefined;
    const chunkIndex = Math.floor(leafIndex / CHUNK_LEAVES);
    const chunk = await this.chunks.findOne({ _id: `${treeId}:${chunkIndex}` });
    if (!chunk) return undefined;
    // The chunk's own subtree gives the lower part of the path; a full chunk is a complete subtree of the tree,
    // and a last partial chunk is the tree's last subtree, whose lone nodes move up exactly as in the whole tree.
    const lower = treeLevels(hashPackedLeaves(Buffer.from(chunk.leaves, "hex")));
    const path = inclusionPath(lower, leafIndex % CHUNK_LEAVES);
    const hexPath = path.map((p) => p.toString("hex"));
    // Above the chunk: the siblings are read from the stored levels (hex), nothing is hashed.
    let i = chunkIndex;
    for (let l = 0; l < tree.upperLevels.length - 1; l++) {
      const level = tree.upperLevels[l]!;
      const sibling = i ^ 1;
      if (sibling < level.length / 64) hexPath.push(level.slice(sibling * 64, sibling * 64 + 64));
      i >>= 1;
    }
    return { treeId, root: tree.root, treeSize: tree.leafCount, leafIndex, path: hexPath };
  }
}
