// The pure pieces of the port: the update applier (the SQLite adapter's engine for updates), the upsert seed, the
// query checks and the environment reading. The contract suite covers the same rules through the adapters.
import { expect } from "chai";
import { createStore, defineCollection, openCollection, readStoreConfig, type StoredDocument } from "../../shared/store";
import { upsertSeed, withIdTiebreak } from "../../shared/store/query-language";
import { applyUpdate, checkUpdate } from "../../shared/store/update-language";
import type { Update } from "../../shared/store";

const apply = (doc: Record<string, unknown>, update: Update): Record<string, unknown> => {
  checkUpdate(update);
  return applyUpdate(doc, update);
};

describe("update language", function () {
  it("does not mutate the input document", function () {
    const doc = { _id: "1", list: [1], nested: { a: 1 } };
    const next = apply(doc, { $push: { list: 2 }, $set: { "nested.a": 2 } });
    expect(doc).to.deep.equal({ _id: "1", list: [1], nested: { a: 1 } });
    expect(next).to.deep.equal({ _id: "1", list: [1, 2], nested: { a: 2 } });
  });

  it("addresses array elements by index, padding with null like MongoDB, and $unset of an element nulls it", function () {
    expect(apply({ _id: "1", a: [1, 2] }, { $set: { "a.1": 9, "a.3": 7 } })).to.deep.equal({ _id: "1", a: [1, 9, null, 7] });
    expect(apply({ _id: "1", a: [1, 2] }, { $unset: { "a.0": 1 } })).to.deep.equal({ _id: "1", a: [null, 2] });
    expect(() => apply({ _id: "1", a: [1] }, { $set: { "a.x": 1 } }))
      .to.throw()
      .with.property("type", "INVALID_STORE_QUERY");
  });

  it("$unset and $pull through a missing path change nothing", function () {
    const doc = { _id: "1", n: 1 };
    expect(apply(doc, { $unset: { "x.y": 1 }, $pull: { "p.q": 3 } })).to.deep.equal(doc);
  });

  it("$addToSet compares sub-documents with key order, as BSON does", function () {
    const next = apply(
      { _id: "1", s: [{ a: 1, b: 2 }] },
      {
        $addToSet: {
          s: {
            $each: [
              { a: 1, b: 2 },
              { b: 2, a: 1 },
            ],
          },
        },
      },
    );
    expect(next.s).to.deep.equal([
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ]);
  });

  it("$pull with a sub-document condition matches elements containing those fields (and array fields by element)", function () {
    const next = apply({ _id: "1", items: [{ sku: "a", tags: ["x"] }, { sku: "b", tags: ["y"] }, 5] }, { $pull: { items: { tags: "x" } } });
    expect(next.items).to.deep.equal([{ sku: "b", tags: ["y"] }, 5]);
  });

  it("rejects $set into a field holding null or a scalar", function () {
    expect(() => apply({ _id: "1", a: null }, { $set: { "a.b": 1 } }))
      .to.throw()
      .with.property("type", "INVALID_STORE_QUERY");
    expect(() => apply({ _id: "1", a: "s" }, { $inc: { "a.b": 1 } }))
      .to.throw()
      .with.property("type", "INVALID_STORE_QUERY");
  });
});

describe("upsert seed and sort tiebreak", function () {
  it("collects top-level and $and equalities into nested objects, ignoring ranges and $or", function () {
    expect(
      upsertSeed({ _id: "k", "a.b": 1, c: { $eq: "x" }, d: { $gt: 1 }, $and: [{ e: true }], $or: [{ f: 1 }, { f: 2 }] }),
    ).to.deep.equal({ _id: "k", a: { b: 1 }, c: "x", e: true });
  });

  it("appends _id ascending to a sort unless _id is already a key", function () {
    expect(withIdTiebreak(undefined)).to.deep.equal({ _id: 1 });
    expect(Object.entries(withIdTiebreak({ n: -1 }))).to.deep.equal([
      ["n", -1],
      ["_id", 1],
    ]);
    expect(withIdTiebreak({ _id: -1, n: 1 })).to.deep.equal({ _id: -1, n: 1 });
  });
});

describe("readStoreConfig", function () {
  it("selects MongoDB from MONGO_URL, files from DATA_DIR, memory from STORE_IN_MEMORY, and reads nothing else", function () {
    expect(readStoreConfig({ MONGO_URL: "mongodb://m:27017/app", MONGO_DB: "certs" })).to.deep.equal({
      mongoUrl: "mongodb://m:27017/app",
      dbName: "certs",
    });
    expect(readStoreConfig({ DATA_DIR: "/var/lib/app" })).to.deep.equal({ dataDir: "/var/lib/app" });
    expect(readStoreConfig({ STORE_IN_MEMORY: "true" })).to.deep.equal({ inMemory: true });
    expect(readStoreConfig({ MONGO_URL: "", STORE_IN_MEMORY: "yes" })).to.deep.equal({});
    // NeDB was removed: its variables are unknown names now, ignored like any other
    expect(readStoreConfig({ STORE_ENGINE: "nedb", NEDB_COMPACTION_INTERVAL_MS: "60000", DATA_DIR: "/d" })).to.deep.equal({
      dataDir: "/d",
    });
  });

  it("opens SQLite, in memory and on disk", async function () {
    const inMemory = await createStore({ inMemory: true });
    expect(inMemory.kind).to.equal("sqlite-memory");
    await inMemory.close();
  });
});

describe("collection definitions", function () {
  it("open the collection with its declared indexes in force", async function () {
    const store = await createStore({ inMemory: true });
    try {
      const users = defineCollection<StoredDocument & { email: string }>("users", [{ fields: { email: 1 }, unique: true }]);
      const collection = await openCollection(store, users);
      await collection.insertOne({ _id: "u1", email: "a@b.c" });
      const again = await openCollection(store, users);
      const err = await again.insertOne({ _id: "u2", email: "a@b.c" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.have.property("type", "DUPLICATE_KEY");
    } finally {
      await store.close();
    }
  });
});
