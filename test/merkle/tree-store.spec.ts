/**
 * The stored tree (shared/merkle/tree-store.ts) on every store adapter (SQLite in memory and on files; MongoDB when
 * MONGO_URL is set, as the store contract does): a path served from a stored chunk plus the
 * stored upper levels equals the path of the whole tree, for sizes around the chunk boundaries; a tree saved when
 * its transaction is built takes no part in lookups until it is anchored, and is dropped once expired; lookups by
 * hash find every anchored tree holding it (first index in each), reading at most one bounded bucket per tree
 * whatever the leaves (leaves chosen to share a prefix, or all equal); saving twice changes nothing, and a partly
 * stored or partly indexed tree is not served.
 */
import { expect } from "chai";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { BUCKET_MAX, buildTree, CHUNK_LEAVES, inclusionPath, MerkleTreeStore, treeIdOf, type BuiltTree } from "../../shared/merkle";
import { createStore, type Store, type StoredDocument } from "../../shared/store";
import { DataHash } from "../../shared/domain/hex";

const hex = (b: Buffer) => b.toString("hex");
const root = (tree: { root: Buffer }) => DataHash(hex(tree.root));
const TERMS = { expiresAt: 2_000_000_000_000, owner: "ip:203.0.113.7" };
const COLLECTIONS = ["merkle_trees", "merkle_leaf_chunks", "merkle_leaf_index"];

/** Leaves sharing their first `digits` hex digits (the shape of the leaf-index poisoning attack). */
function sharingPrefix(count: number, prefix: string): Buffer {
  const leaves = randomBytes(32 * count);
  const bytes = Buffer.from(prefix.length % 2 ? `${prefix}0` : prefix, "hex");
  for (let i = 0; i < count; i++) {
    bytes.copy(leaves, i * 32, 0, prefix.length >> 1);
    if (prefix.length % 2)
      leaves[i * 32 + (prefix.length >> 1)] = (bytes[prefix.length >> 1]! & 0xf0) | (leaves[i * 32 + (prefix.length >> 1)]! & 0x0f);
  }
  return leaves;
}

function describeTreeStore(label: string, open: () => Promise<Store>): void {
  describe(`merkle tree store (${label})`, function () {
    this.timeout(120_000);
    let store: Store;
    let trees: MerkleTreeStore;
    const anchored = async (tree: BuiltTree): Promise<void> => {
      await trees.save(tree, TERMS);
      expect(await trees.markAnchored(tree.treeId, root(tree), tree.leafCount)).to.equal(true);
    };
    beforeEach(async () => {
      store = await open();
      trees = await MerkleTreeStore.open(store);
      for (const name of COLLECTIONS) await store.collection(name).deleteMany({});
    });
    afterEach(() => store.close());

    it("serves, for every leaf of trees around the chunk size, the path of the whole tree", async () => {
      for (const n of [1, 2, 3, CHUNK_LEAVES - 1, CHUNK_LEAVES, CHUNK_LEAVES + 1, 3 * CHUNK_LEAVES + 17, 4 * CHUNK_LEAVES]) {
        const tree = buildTree(randomBytes(32 * n));
        await trees.save(tree, TERMS);
        for (let i = 0; i < n; i++) {
          const served = await trees.inclusion(tree.treeId, i);
          expect(served?.path, `leaf ${i} of ${n}`).to.deep.equal(inclusionPath(tree.levels, i).map(hex));
          expect(served).to.include({ root: hex(tree.root), treeSize: n, leafIndex: i });
        }
        expect(await trees.inclusion(tree.treeId, n)).to.equal(undefined);
      }
    });

    it("finds a hash in every anchored tree holding it, at its first index, and nothing for other hashes", async () => {
      const shared = randomBytes(32);
      const a = Buffer.concat([randomBytes(32 * 5), shared, randomBytes(32 * 700), shared]);
      const b = Buffer.concat([shared, randomBytes(32 * 3)]);
      const [ta, tb] = [buildTree(a), buildTree(b)];
      await anchored(ta);
      await anchored(tb);
      const found = await trees.findLeaf(DataHash(hex(shared).toUpperCase()));
      expect(found.map((f) => [f.treeId, f.leafIndex]).sort()).to.deep.equal(
        [
          [ta.treeId, 5],
          [tb.treeId, 0],
        ].sort(),
      );
      expect(found.find((f) => f.treeId === ta.treeId)?.path).to.deep.equal(inclusionPath(ta.levels, 5).map(hex));
      expect(await trees.findLeaf(DataHash(hex(randomBytes(32))))).to.deep.equal([]);
      expect(await trees.findLeaf(DataHash("abcd"))).to.deep.equal([]);
    });

    it("keeps a built tree out of lookups until its root is anchored with its id and size, and never indexes it for another root or size", async () => {
      const tree = buildTree(randomBytes(32 * 300));
      const leaf = DataHash(hex(tree.leaves.subarray(32 * 7, 32 * 8)));
      await trees.save(tree, TERMS);
      expect(await trees.findLeaf(leaf), "pending").to.deep.equal([]);
      expect(await store.collection("merkle_leaf_index").count({}), "no index for a pending tree").to.equal(0);
      expect(await trees.markAnchored(tree.treeId, DataHash(hex(randomBytes(32))), 300), "another root").to.equal(false);
      expect(await trees.markAnchored(tree.treeId, root(tree), 301), "another size").to.equal(false);
      expect(await trees.markAnchored(treeIdOf(randomBytes(32), 3), root(tree), 300), "unknown tree").to.equal(false);
      expect(await trees.findLeaf(leaf)).to.deep.equal([]);
      expect(await trees.markAnchored(tree.treeId, DataHash(hex(tree.root).toUpperCase()), 300)).to.equal(true);
      expect((await trees.findLeaf(leaf))[0]).to.include({ treeId: tree.treeId, leafIndex: 7 });
      expect(await trees.isAnchored(tree.treeId)).to.equal(true);
      expect(await trees.markAnchored(tree.treeId, root(tree), 300), "again: nothing changes").to.equal(true);
    });

    it("drops pending trees once expired (chain time), with their chunks, and never an anchored one", async () => {
      const soon = buildTree(randomBytes(32 * 600));
      const later = buildTree(randomBytes(32 * 10));
      const kept = buildTree(randomBytes(32 * 20));
      await trees.save(soon, { ...TERMS, expiresAt: 1_000 });
      await trees.save(later, { ...TERMS, expiresAt: 5_000 });
      await trees.save(kept, { ...TERMS, expiresAt: 1_000 });
      await trees.markAnchored(kept.treeId, root(kept), 20);
      expect(await trees.pendingLeavesOf(TERMS.owner)).to.equal(610);
      expect(await trees.dropExpired(1_000), "not before its expiry").to.equal(0);
      expect(await trees.dropExpired(1_001)).to.equal(1);
      expect(await trees.has(soon.treeId)).to.equal(false);
      expect(await store.collection("merkle_leaf_chunks").count({ treeId: soon.treeId })).to.equal(0);
      expect(await trees.has(later.treeId)).to.equal(true);
      expect(await trees.pendingLeavesOf(TERMS.owner)).to.equal(10);
      expect(await trees.dropExpired(10_000)).to.equal(1);
      expect(await trees.isAnchored(kept.treeId)).to.equal(true);
      expect(await trees.findLeaf(DataHash(hex(kept.leaves.subarray(0, 32))))).to.have.length(1);
      expect(await trees.pendingLeavesOf(TERMS.owner)).to.equal(0);
    });

    it("keeps a pending tree saved again until the later expiry, on its first owner's budget", async () => {
      const tree = buildTree(randomBytes(32 * 40));
      await trees.save(tree, { expiresAt: 1_000, owner: "ip:a" });
      await trees.save(tree, { expiresAt: 9_000, owner: "ip:b" });
      expect(await trees.dropExpired(5_000)).to.equal(0);
      expect([await trees.pendingLeavesOf("ip:a"), await trees.pendingLeavesOf("ip:b")]).to.deep.equal([40, 0]);
      await trees.save(tree, { expiresAt: 2_000, owner: "ip:a" });
      expect(await trees.dropExpired(8_999)).to.equal(0);
      expect(await trees.dropExpired(9_001)).to.equal(1);
    });

    it("bounds every lookup whatever the leaves: 200,000 leaves sharing 4 hex digits, and a tree of one hash repeated, each cost one bucket of at most BUCKET_MAX", async () => {
      const poisoned = buildTree(sharingPrefix(200_000, "abcd"));
      const repeated = buildTree(Buffer.concat(Array.from({ length: 50_000 }, () => poisoned.leaves.subarray(32 * 11, 32 * 12))));
      const nearly = buildTree(sharingPrefix(5_000, "abcd".repeat(15))); // 60 digits in common: at most 65,536 distinct
      for (const tree of [poisoned, repeated, nearly]) await anchored(tree);
      const docs = await store
        .collection<StoredDocument & { treeId: string; bucket: string; hashes: string; indices: string }>("merkle_leaf_index")
        .find({});
      for (const d of docs) {
        expect(d.hashes.length / 64, `bucket ${d.bucket}`).to.be.at.most(BUCKET_MAX);
        expect(d.indices.length / 8).to.equal(d.hashes.length / 64);
      }
      // one tree's worth of index: each distinct leaf once
      expect(docs.reduce((n, d) => n + d.hashes.length / 64, 0)).to.equal(200_000 + 1 + 5_000);
      for (const [tree, index] of [
        [poisoned, 11],
        [poisoned, 199_999],
        [nearly, 4_321],
      ] as const) {
        const leaf = DataHash(hex(tree.leaves.subarray(32 * index, 32 * index + 32)));
        const prefixes = Array.from({ length: 63 }, (_, d) => leaf.slice(0, d + 2));
        const read = docs.filter((d) => prefixes.includes(d.bucket));
        expect(new Set(read.map((d) => d.treeId)).size, "one bucket per tree").to.equal(read.length);
        const found = await trees.findLeaf(leaf);
        const inTree = found.find((f) => f.treeId === tree.treeId)!;
        expect(inTree.path).to.deep.equal(inclusionPath(tree.levels, inTree.leafIndex).map(hex));
        expect(tree.leaves.subarray(32 * inTree.leafIndex, 32 * inTree.leafIndex + 32).equals(Buffer.from(leaf, "hex"))).to.equal(true);
      }
      // the repeated hash: its first index in each tree that holds it
      const found = await trees.findLeaf(DataHash(hex(poisoned.leaves.subarray(32 * 11, 32 * 12))));
      expect(found.map((f) => [f.treeId, f.leafIndex]).sort()).to.deep.equal(
        [
          [poisoned.treeId, 11],
          [repeated.treeId, 0],
        ].sort(),
      );
    });

    it("stores a tree once, and names trees by root and size together", async () => {
      const leaves = randomBytes(32 * 300);
      const tree = buildTree(leaves);
      await trees.save(tree, TERMS);
      await trees.save(buildTree(leaves), TERMS);
      expect(await store.collection("merkle_trees").count({})).to.equal(1);
      expect(tree.treeId).to.equal(treeIdOf(tree.root, 300));
      expect(treeIdOf(tree.root, 301)).to.not.equal(tree.treeId);
    });

    it("stores a tree completely and once when two saves of it run at the same time", async () => {
      const tree = buildTree(randomBytes(32 * 1500));
      await Promise.all([trees.save(tree, TERMS), trees.save(buildTree(Buffer.from(tree.leaves)), TERMS)]);
      expect(await store.collection("merkle_trees").count({})).to.equal(1);
      expect(await store.collection("merkle_leaf_chunks").count({})).to.equal(Math.ceil(1500 / CHUNK_LEAVES));
      for (const i of [0, 777, 1499])
        expect((await trees.inclusion(tree.treeId, i))?.path).to.deep.equal(inclusionPath(tree.levels, i).map(hex));
    });

    it("serves nothing of a tree whose save or indexing did not finish, and completes either when done again", async () => {
      const tree = buildTree(randomBytes(32 * 600));
      const leaf = DataHash(hex(tree.leaves.subarray(96, 128)));
      await anchored(tree);
      await store.collection("merkle_trees").deleteMany({}); // as if the tree document's write never happened
      expect(await trees.inclusion(tree.treeId, 3)).to.equal(undefined);
      expect(await trees.findLeaf(leaf)).to.deep.equal([]);
      await trees.save(tree, TERMS);
      expect(await trees.findLeaf(leaf), "saved again: pending").to.deep.equal([]);
      // indexed, but stopped before the tree was marked anchored
      await store.collection("merkle_trees").updateOne({ _id: tree.treeId }, { $set: { anchored: false } });
      expect(await trees.findLeaf(leaf)).to.deep.equal([]);
      expect(await trees.markAnchored(tree.treeId, root(tree), 600)).to.equal(true);
      expect((await trees.findLeaf(leaf))[0]).to.include({ leafIndex: 3 });
    });
  });
}

describeTreeStore("SQLite in memory", () => createStore({ inMemory: true }));

const dirs: string[] = [];
describeTreeStore("SQLite files", async () => {
  const dir = await mkdtemp(join(tmpdir(), "merkle-store-"));
  dirs.push(dir);
  return createStore({ dataDir: dir });
});
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const mongoUrl = process.env["MONGO_URL"];
if (mongoUrl !== undefined && mongoUrl !== "") {
  const dbName = `merkle_${randomUUID().slice(0, 8)}`;
  describeTreeStore(`MongoDB (${dbName})`, () => createStore({ mongoUrl, dbName, serverSelectionTimeoutMS: 5_000 }));
  after(async () => {
    const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 5_000 });
    try {
      await client.db(dbName).dropDatabase();
    } finally {
      await client.close();
    }
  });
}
