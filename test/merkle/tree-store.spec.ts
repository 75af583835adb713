/**
 * The stored tree (shared/merkle/tree-store.ts) on every store adapter (NeDB in memory, SQLite files and NeDB
 * files, each engine named explicitly; MongoDB when MONGO_URL is set, as the store contract does): a path served from a stored chunk plus the
 * stored upper levels equals the path of the whole tree, for sizes around the chunk boundaries; lookups by hash
 * find every tree holding it (first index in each), saving twice changes nothing, and a partly stored tree is
 * not served.
 */
import { expect } from "chai";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { buildTree, CHUNK_LEAVES, inclusionPath, MerkleTreeStore, treeIdOf } from "../../shared/merkle";
import { createStore, EMBEDDED_ENGINES, type Store } from "../../shared/store";

const hex = (b: Buffer) => b.toString("hex");

function describeTreeStore(label: string, open: () => Promise<Store>): void {
  describe(`merkle tree store (${label})`, function () {
    this.timeout(60_000);
    let store: Store;
    let trees: MerkleTreeStore;
    beforeEach(async () => {
      store = await open();
      trees = await MerkleTreeStore.open(store);
      for (const name of ["merkle_trees", "merkle_leaf_chunks", "merkle_leaf_buckets"]) await store.collection(name).deleteMany({});
    });
    afterEach(() => store.close());

    it("serves, for every leaf of trees around the chunk size, the path of the whole tree", async () => {
      for (const n of [1, 2, 3, CHUNK_LEAVES - 1, CHUNK_LEAVES, CHUNK_LEAVES + 1, 3 * CHUNK_LEAVES + 17, 4 * CHUNK_LEAVES]) {
        const tree = buildTree(randomBytes(32 * n));
        await trees.save(tree);
        for (let i = 0; i < n; i++) {
          const served = await trees.inclusion(tree.treeId, i);
          expect(served?.path, `leaf ${i} of ${n}`).to.deep.equal(inclusionPath(tree.levels, i).map(hex));
          expect(served).to.include({ root: hex(tree.root), treeSize: n, leafIndex: i });
        }
        expect(await trees.inclusion(tree.treeId, n)).to.equal(undefined);
      }
    });

    it("finds a hash in every tree holding it, at its first index, and nothing for other hashes", async () => {
      const shared = randomBytes(32);
      const a = Buffer.concat([randomBytes(32 * 5), shared, randomBytes(32 * 700), shared]);
      const b = Buffer.concat([shared, randomBytes(32 * 3)]);
      const [ta, tb] = [buildTree(a), buildTree(b)];
      await trees.save(ta);
      await trees.save(tb);
      const found = await trees.findLeaf(hex(shared).toUpperCase());
      expect(found.map((f) => [f.treeId, f.leafIndex]).sort()).to.deep.equal(
        [
          [ta.treeId, 5],
          [tb.treeId, 0],
        ].sort(),
      );
      expect(await trees.findLeaf(hex(randomBytes(32)))).to.deep.equal([]);
      expect(await trees.findLeaf("abcd")).to.deep.equal([]);
    });

    it("stores a tree once, and names trees by root and size together", async () => {
      const leaves = randomBytes(32 * 300);
      const tree = buildTree(leaves);
      await trees.save(tree);
      await trees.save(buildTree(leaves));
      expect(await store.collection("merkle_trees").count({})).to.equal(1);
      expect(tree.treeId).to.equal(treeIdOf(tree.root, 300));
      expect(treeIdOf(tree.root, 301)).to.not.equal(tree.treeId);
    });

    it("stores a tree completely and once when two saves of it run at the same time", async () => {
      const tree = buildTree(randomBytes(32 * 1500));
      await Promise.all([trees.save(tree), trees.save(buildTree(Buffer.from(tree.leaves)))]);
      expect(await store.collection("merkle_trees").count({})).to.equal(1);
      expect(await store.collection("merkle_leaf_chunks").count({})).to.equal(Math.ceil(1500 / CHUNK_LEAVES));
      for (const i of [0, 777, 1499])
        expect((await trees.inclusion(tree.treeId, i))?.path).to.deep.equal(inclusionPath(tree.levels, i).map(hex));
    });

    it("serves nothing of a tree whose save did not finish, and completes it when saved again", async () => {
      const tree = buildTree(randomBytes(32 * 600));
      await trees.save(tree);
      await store.collection("merkle_trees").deleteMany({}); // as if the last write never happened
      expect(await trees.inclusion(tree.treeId, 3)).to.equal(undefined);
      expect(await trees.findLeaf(hex(tree.leaves.subarray(96, 128)))).to.deep.equal([]);
      await trees.save(tree);
      expect((await trees.findLeaf(hex(tree.leaves.subarray(96, 128))))[0]).to.include({ leafIndex: 3 });
    });
  });
}

describeTreeStore("NeDB in memory", () => createStore({ inMemory: true }));

const dirs: string[] = [];
const ENGINE_NAMES = { sqlite: "SQLite files", nedb: "NeDB files" } as const;
for (const engine of EMBEDDED_ENGINES) {
  describeTreeStore(ENGINE_NAMES[engine], async () => {
    const dir = await mkdtemp(join(tmpdir(), "merkle-store-"));
    dirs.push(dir);
    return createStore({ dataDir: dir, engine });
  });
}
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
