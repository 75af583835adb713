/**
 * Stored batch trees, so proofs can be served once a tree's root is anchored (docs/merkle-batches.md#storage).
 * Three collections, written through the store port (SQLite embedded, MongoDB in scale mode):
 * - `merkle_trees`: one document per tree (id, root, leaf count, whether it is anchored) with the tree's upper
 *   levels, from the level of CHUNK_LEAVES-leaf subtrees up to the root;
 * - `merkle_leaf_chunks`: the submitted hashes in chunks of CHUNK_LEAVES, from which the lower part of a path is
 *   recomputed (one chunk: at most 2 × CHUNK_LEAVES hashes);
 * - `merkle_leaf_index`: the leaf → (tree, index) index of ANCHORED trees only, leaves grouped by a hash prefix
 *   that grows, bucket by bucket, until no bucket holds more than BUCKET_MAX leaves, so a lookup reads at most one
 *   bounded document per anchored tree whatever the leaves are.
 * A tree is saved *pending* when its transaction is built: it takes no part in lookups, counts against its
 * client's pending budget, and is dropped once the chain is past the transaction's validity without the root
 * being anchored. The verifier, which follows the chain, indexes it when it sees the anchoring certificate.
 * The tree document is written last: a tree is served only once all its parts are stored.
 */
import { createHash } from "node:crypto";
import { DataHash } from "../domain/hex";
import { isDuplicateKeyError, type Collection, type Store, type StoredDocument } from "../store";
import { hashPackedLeaves, inclusionPath, MERKLE_SCHEME, NODE_BYTES, rootOfLevels, treeLevels } from "./merkle-tree";

/** Leaves per stored chunk: a power of two, so a full chunk is one complete subtree of the batch tree. */
export const CHUNK_LEAVES = 256;
const CHUNK_LEVEL = Math.log2(CHUNK_LEAVES);
/** Target size of a leaf-index bucket: a tree's first prefix length (2 to 4 hex digits) gives about this many. */
const BUCKET_TARGET = 256;
/**
 * No bucket holds more leaves than this: a fuller one is split by the next hex digit, down to the whole hash (where
 * a bucket holds one hash, however often the tree repeats it: only its first index is kept). Four times the
 * target, so random leaves never need a split; leaves chosen to share a prefix do.
 */
export const BUCKET_MAX = 1024;
/**
 * At least two digits even for small trees: a lookup reads the buckets of its prefixes in every anchored tree, and
 * an unprefixed bucket of each small tree would make every lookup read every small tree.
 */
const MIN_PREFIX_DIGITS = 2;
const MAX_FIRST_PREFIX_DIGITS = 4;
const HASH_DIGITS = NODE_BYTES * 2;
/** Documents per insertMany call (bounded write batches). */
const WRITE_BATCH = 256;
/** Pending trees read per page when dropping expired ones. */
const DROP_BATCH = 20;

interface TreeDoc extends StoredDocument {
  root: DataHash;
  leafCount: number;
  scheme: string;
  /** levels CHUNK_LEVEL and up (packed nodes, hex), bottom first; empty when the tree fits in one chunk */
  upperLevels: string[];
  createdAt: number;
  /** true once a certificate on chain anchored the root with this tree's id and size: then it is in the leaf index */
  anchored: boolean;
  /** while pending: the chain time (Unix ms) after which its transaction can no longer be in a block */
  expiresAt?: number;
  /** while pending: who built it (the client key its pending budget is counted under) */
  owner?: string;
}

interface ChunkDoc extends StoredDocument {
  treeId: string;
  chunk: number;
  /** the submitted hashes of this chunk, packed, hex */
  leaves: string;
}

interface IndexDoc extends StoredDocument {
  treeId: string;
  /** the hex prefix every hash of this bucket starts with (2 to 64 digits) */
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
  root: DataHash;
  treeSize: number;
  leafIndex: number;
  path: string[];
}

/** What a pending tree is kept for: until when, and on whose budget. */
export interface PendingTerms {
  /** chain time (Unix ms) after which the anchoring transaction can no longer be in a block */
  expiresAt: number;
  /** the client key the tree's leaves count against while it is pending */
  owner: string;
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

function firstPrefixDigits(leafCount: number): number {
  let digits = MIN_PREFIX_DIGITS;
  while (digits < MAX_FIRST_PREFIX_DIGITS && leafCount / 16 ** digits > BUCKET_TARGET) digits++;
  return digits;
}

export interface LeafBucket {
  bucket: string;
  /** leaf indices, in leaf order */
  leaves: Uint32Array;
}

/**
 * The leaves grouped into buckets by hash prefix: every bucket starts at the tree's first prefix length and is split
 * by the next hex digit while it holds more than `max` leaves; a bucket of a whole hash keeps only the first of its
 * (equal) leaves. Each split is a counting pass over the bucket's leaves, reading digits from the bytes (no string
 * per leaf); pending groups are disjoint, so memory stays one index per leaf whatever the shape.
 */
function leafBuckets(leaves: Buffer, max: number = BUCKET_MAX): LeafBucket[] {
  const n = leaves.length / NODE_BYTES;
  const digitOf = (leaf: number, d: number): number => {
    const byte = leaves[leaf * NODE_BYTES + (d >> 1)]!;
    return d & 1 ? byte & 15 : byte >> 4;
  };
  const first = firstPrefixDigits(n);
  const out: LeafBucket[] = [];
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  // groups still to split: leaves sharing their first `digits` hex digits (< first, or > max leaves)
  const stack: { group: Uint32Array; digits: number }[] = [{ group: all, digits: 0 }];
  while (stack.length > 0) {
    const { group, digits } = stack.pop()!;
    const counts = new Uint32Array(17);
    for (const leaf of group) counts[digitOf(leaf, digits) + 1]!++;
    for (let b = 1; b < 17; b++) counts[b]! += counts[b - 1]!;
    const sorted = new Uint32Array(group.length);
    const at = counts.slice(0, 16);
    for (const leaf of group) sorted[at[digitOf(leaf, digits)]!++] = leaf;
    // children pushed last-first, so buckets come out in prefix order
    for (let b = 15; b >= 0; b--) {
      if (counts[b] === counts[b + 1]) continue;
      const child = sorted.subarray(counts[b]!, counts[b + 1]!);
      const childDigits = digits + 1;
      if (childDigits < first || (child.length > max && childDigits < HASH_DIGITS)) {
        stack.push({ group: child, digits: childDigits });
        continue;
      }
      const prefix = leaves
        .toString("hex", child[0]! * NODE_BYTES, child[0]! * NODE_BYTES + Math.ceil(childDigits / 2))
        .slice(0, childDigits);
      // a whole hash: every leaf of the bucket is that hash; the first index is the one lookups answer
      out.push({ bucket: prefix, leaves: childDigits === HASH_DIGITS ? child.subarray(0, 1) : child });
    }
  }
  out.reverse();
  return out;
}

export class MerkleTreeStore {
  private constructor(
    private readonly trees: Collection<TreeDoc>,
    private readonly chunks: Collection<ChunkDoc>,
    private readonly index: Collection<IndexDoc>,
    private readonly now: () => number,
  ) {}

  static async open(store: Store, now: () => number = Date.now): Promise<MerkleTreeStore> {
    const trees = store.collection<TreeDoc>("merkle_trees");
    const chunks = store.collection<ChunkDoc>("merkle_leaf_chunks");
    const index = store.collection<IndexDoc>("merkle_leaf_index");
    await trees.ensureIndexes([{ fields: { expiresAt: 1 } }, { fields: { owner: 1 } }]);
    await chunks.ensureIndexes([{ fields: { treeId: 1 } }]);
    await index.ensureIndexes([{ fields: { bucket: 1 } }, { fields: { treeId: 1 } }]);
    return new MerkleTreeStore(trees, chunks, index, now);
  }

  async has(treeId: string): Promise<boolean> {
    return (await this.trees.findOne({ _id: treeId })) !== undefined;
  }

  /** Whether the tree is stored and anchored (in the leaf index). */
  async isAnchored(treeId: string): Promise<boolean> {
    return (await this.trees.findOne({ _id: treeId }))?.anchored === true;
  }

  /**
   * Stores a tree as pending: kept until `terms.expiresAt` (chain time) unless its root gets anchored, and no
   * part of lookups meanwhile. Saving a pending tree again keeps the later expiry (its first owner stays); saving
   * an anchored one changes nothing. Every chunk's id and content follow from the tree, so what an interrupted or
   * concurrent save of the same tree wrote is exactly what this one writes: such documents are kept.
   */
  async save(tree: BuiltTree, terms: PendingTerms): Promise<void> {
    const known = await this.trees.findOne({ _id: tree.treeId });
    if (known) {
      if (!known.anchored && (known.expiresAt ?? 0) < terms.expiresAt)
        await this.trees.updateOne({ _id: tree.treeId, anchored: false }, { $set: { expiresAt: terms.expiresAt } });
      return;
    }
    const hex = tree.leaves.toString("hex");
    const chunkHex = CHUNK_LEAVES * HASH_DIGITS;
    const chunkDocs: ChunkDoc[] = [];
    for (let c = 0; c * chunkHex < hex.length; c++) {
      chunkDocs.push({ _id: `${tree.treeId}:${c}`, treeId: tree.treeId, chunk: c, leaves: hex.slice(c * chunkHex, (c + 1) * chunkHex) });
    }
    await this.insertAll(this.chunks, chunkDocs);
    const upperLevels = tree.levels.length > CHUNK_LEVEL + 1 ? tree.levels.slice(CHUNK_LEVEL).map((l) => l.toString("hex")) : [];
    await this.insertAll(this.trees, [
      {
        _id: tree.treeId,
        root: DataHash(tree.root.toString("hex")),
        leafCount: tree.leafCount,
        scheme: MERKLE_SCHEME,
        upperLevels,
        createdAt: this.now(),
        anchored: false,
        expiresAt: terms.expiresAt,
        owner: terms.owner,
      },
    ]);
  }

  /** Pending trees (id, root, size) in id order after `afterId`, at most `limit`. */
  async pendingTrees(afterId: string, limit: number): Promise<{ treeId: string; root: DataHash; leafCount: number }[]> {
    const docs = await this.trees.findProjected(
      { anchored: false, _id: { $gt: afterId } },
      { root: 1, leafCount: 1 },
      { sort: { _id: 1 }, limit },
    );
    return docs.map((d) => ({ treeId: d._id!, root: d.root!, leafCount: d.leafCount! }));
  }

  /** Leaves of the pending trees saved on `owner`'s budget. */
  async pendingLeavesOf(owner: string): Promise<number> {
    const docs = await this.trees.findProjected({ owner, anchored: false }, { leafCount: 1, _id: 0 });
    return docs.reduce((n, d) => n + (d.leafCount ?? 0), 0);
  }

  /**
   * A certificate on chain anchors `root` as the tree `treeId` of `leafCount` leaves: the stored tree of that id,
   * size and root (if any) joins the leaf index. Idempotent; an interrupted call is completed by the next one (the
   * tree counts as anchored only once its whole index is written).
   * @returns whether a stored tree is now anchored
   */
  async markAnchored(treeId: string, root: DataHash, leafCount: number): Promise<boolean> {
    const tree = await this.trees.findOne({ _id: treeId });
    if (!tree || tree.root !== root || tree.leafCount !== leafCount) return false;
    if (tree.anchored) return true;
    const leaves = await this.leavesOf(tree);
    if (!leaves) return false;
    const docs: IndexDoc[] = leafBuckets(leaves).map(({ bucket, leaves: members }) => {
      const packed = Buffer.allocUnsafe(members.length * NODE_BYTES);
      const indices = Buffer.allocUnsafe(members.length * 4);
      members.forEach((leaf, k) => {
        leaves.copy(packed, k * NODE_BYTES, leaf * NODE_BYTES, (leaf + 1) * NODE_BYTES);
        indices.writeUInt32BE(leaf, k * 4);
      });
      return { _id: `${treeId}:${bucket}`, treeId, bucket, hashes: packed.toString("hex"), indices: indices.toString("hex") };
    });
    await this.insertAll(this.index, docs);
    await this.trees.updateOne({ _id: treeId }, { $set: { anchored: true }, $unset: { expiresAt: "", owner: "" } });
    return true;
  }

  /**
   * Drops pending trees whose transaction can no longer be in a block: expired before `chainTime` (the time of a
   * block the caller has seen). The tree document goes first, so nothing of a tree being dropped is served.
   * @returns how many were dropped
   */
  async dropExpired(chainTime: number): Promise<number> {
    let dropped = 0;
    for (;;) {
      const expired = await this.trees.findProjected({ expiresAt: { $lt: chainTime }, anchored: false }, { _id: 1 }, { limit: DROP_BATCH });
      for (const { _id } of expired) {
        await this.trees.deleteOne({ _id: _id!, anchored: false });
        await this.chunks.deleteMany({ treeId: _id! });
        await this.index.deleteMany({ treeId: _id! });
      }
      dropped += expired.length;
      if (expired.length < DROP_BATCH) return dropped;
    }
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

  /** The packed leaves of a stored tree, from its chunks; undefined when a chunk is missing. */
  private async leavesOf(tree: TreeDoc): Promise<Buffer | undefined> {
    const count = Math.ceil(tree.leafCount / CHUNK_LEAVES);
    const leaves = Buffer.allocUnsafe(tree.leafCount * NODE_BYTES);
    for (let from = 0; from < count; from += WRITE_BATCH) {
      const ids = Array.from({ length: Math.min(WRITE_BATCH, count - from) }, (_, k) => `${tree._id}:${from + k}`);
      const docs = await this.chunks.find({ _id: { $in: ids } });
      if (docs.length !== ids.length) return undefined;
      for (const doc of docs) leaves.write(doc.leaves, doc.chunk * CHUNK_LEAVES * NODE_BYTES, "hex");
    }
    return leaves;
  }

  /**
   * Every anchored tree holding this 32-byte hash (its first index in each), with the inclusion path. Reads the
   * one bucket of each anchored tree whose prefix the hash has: at most BUCKET_MAX hashes per tree.
   */
  async findLeaf(h: DataHash): Promise<LeafInclusion[]> {
    if (h.length !== HASH_DIGITS) return [];
    const prefixes = Array.from({ length: HASH_DIGITS - MIN_PREFIX_DIGITS + 1 }, (_, d) => h.slice(0, MIN_PREFIX_DIGITS + d));
    const docs = await this.index.find({ bucket: { $in: prefixes } });
    const firstIndex = new Map<string, number>();
    for (const doc of docs) {
      for (let k = 0; k * HASH_DIGITS < doc.hashes.length; k++) {
        if (doc.hashes.startsWith(h, k * HASH_DIGITS)) {
          const index = parseInt(doc.indices.slice(k * 8, k * 8 + 8), 16);
          const known = firstIndex.get(doc.treeId);
          if (known === undefined || index < known) firstIndex.set(doc.treeId, index);
        }
      }
    }
    const found: LeafInclusion[] = [];
    for (const [treeId, leafIndex] of firstIndex) {
      const inclusion = await this.inclusion(treeId, leafIndex, { anchoredOnly: true });
      if (inclusion) found.push(inclusion);
    }
    return found;
  }

  /**
   * The inclusion path of leaf `leafIndex` of a stored tree; undefined when the tree is not (completely) stored,
   * or, with `anchoredOnly`, not anchored.
   */
  async inclusion(treeId: string, leafIndex: number, opts: { anchoredOnly?: boolean } = {}): Promise<LeafInclusion | undefined> {
    const tree = await this.trees.findOne({ _id: treeId });
    if (!tree || leafIndex < 0 || leafIndex >= tree.leafCount) return undefined;
    if (opts.anchoredOnly && !tree.anchored) return undefined;
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
