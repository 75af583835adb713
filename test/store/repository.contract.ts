// The behavioural contract of the store port. Every adapter runs this same suite (see *.spec.ts next to it),
// which is what keeps SQLite and MongoDB interchangeable.
import { expect } from "chai";
import { randomUUID } from "node:crypto";
import {
  createLeaseTable,
  type Collection,
  type Filter,
  type IndexSpec,
  type LeaseDocument,
  type Store,
  type StoredDocument,
} from "../../shared/store";
import { expectStoreError } from "./support";

interface Item extends StoredDocument {
  name?: string;
  n?: number;
  tags?: string[];
  city?: string;
  active?: boolean;
  profile?: { score?: number; address?: { city?: string } };
  items?: { sku: string; qty: number }[];
  lovelace?: string;
  note?: string | null;
}

export interface ContractOptions {
  /**
   * Opens a second, independent client on the same database (a second replica). Only adapters whose backend
   * is shared between processes (MongoDB) provide it; the embedded engines allow one process per data directory.
   */
  openPeer?: () => Promise<Store>;
}

export function describeRepositoryContract(adapterName: string, openStore: () => Promise<Store>, options: ContractOptions = {}): void {
  describe(`store contract: ${adapterName}`, function () {
    let store: Store;
    before(async function () {
      store = await openStore();
    });
    after(async function () {
      await store?.close();
    });

    /** A fresh, empty collection per test so tests never see each other's data. */
    const fresh = <T extends StoredDocument = Item>(): Collection<T> => store.collection<T>(`t_${randomUUID().slice(0, 12)}`);

    async function seeded(): Promise<Collection<Item>> {
      const c = fresh();
      await c.insertMany([
        {
          _id: "a",
          name: "alice",
          n: 5,
          tags: ["x", "y"],
          city: "paris",
          active: true,
          profile: { score: 10, address: { city: "paris" } },
        },
        { _id: "b", name: "bob", n: 12, tags: ["y"], city: "rome", active: false, profile: { score: 20 } },
        {
          _id: "c",
          name: "carol",
          n: 7,
          tags: [],
          city: "paris",
          items: [
            { sku: "k1", qty: 1 },
            { sku: "k2", qty: 3 },
          ],
        },
        { _id: "d", name: "dave", city: "oslo", note: null },
        { _id: "e", name: "9", n: 30, tags: ["z"], city: "rome", active: true, profile: { score: 5 } },
      ]);
      return c;
    }

    const ids = async (c: Collection<Item>, filter: Filter): Promise<string[]> => (await c.find(filter)).map((d) => d._id);

    describe("documents", function () {
      it("round-trips strings, numbers, booleans, null, nested objects and arrays unchanged", async function () {
        const c = fresh<StoredDocument & Record<string, unknown>>();
        const doc = {
          _id: "doc-1",
          text: "ünïcode ✓",
          int: 42,
          float: 0.125,
          negative: -7,
          big: 2 ** 53 - 1,
          yes: true,
          no: false,
          nothing: null,
          lovelace: "45000000000000000",
          nested: { deeper: { list: [1, "two", { three: 3 }] } },
          empty: { obj: {}, arr: [] },
        };
        await c.insertOne(doc);
        expect(await c.findOne({ _id: "doc-1" })).to.deep.equal(doc);
      });

      it("drops undefined properties on write", async function () {
        const c = fresh();
        await c.insertOne({ _id: "u", name: "x", city: undefined });
        const found = await c.findOne({ _id: "u" });
        expect(found).to.deep.equal({ _id: "u", name: "x" });
        expect(await c.count({ city: { $exists: false } })).to.equal(1);
      });

      it("returns copies: changing a result does not change the stored document", async function () {
        const c = fresh();
        await c.insertOne({ _id: "m", tags: ["a"], profile: { score: 1 } });
        const first = (await c.findOne({ _id: "m" })) as Item;
        first.tags?.push("b");
        (first.profile as { score: number }).score = 99;
        expect(await c.findOne({ _id: "m" })).to.deep.equal({ _id: "m", tags: ["a"], profile: { score: 1 } });
      });

      it("answers undefined from findOne and [] from find when nothing matches", async function () {
        const c = fresh();
        expect(await c.findOne({ _id: "nope" })).to.equal(undefined);
        expect(await c.find({ name: "nobody" })).to.deep.equal([]);
        expect(await c.count()).to.equal(0);
      });

      it("rejects values outside the port's domain with INVALID_STORE_QUERY", async function () {
        const c = fresh<StoredDocument & Record<string, unknown>>();
        const bad: Record<string, unknown>[] = [
          { _id: "b1", amount: 5n },
          { _id: "b2", at: new Date(0) },
          { _id: "b3", n: Number.NaN },
          { _id: "b4", n: Infinity },
          { _id: "b5", $set: 1 },
          { _id: "b6", "a.b": 1 },
          { _id: "b7", buf: Buffer.from("x") },
          { _id: 7 },
          { name: "no id" },
        ];
        for (const doc of bad) {
          await expectStoreError(() => c.insertOne(doc as never), "INVALID_STORE_QUERY");
        }
        expect(await c.count()).to.equal(0);
      });

      it("names the bigint problem and the fix (decimal strings) in the error", async function () {
        const c = fresh<StoredDocument & Record<string, unknown>>();
        const err = await expectStoreError(() => c.insertOne({ _id: "x", fee: 170000n } as never), "INVALID_STORE_QUERY");
        expect(err.message).to.match(/decimal string/);
        expect(err.data).to.include({ path: "fee" });
      });

      it("rejects collection names that are not safe file names", function () {
        for (const name of ["", "Upper", "../escape", "a/b", "1abc", "x".repeat(65)]) {
          expect(() => store.collection(name), name)
            .to.throw()
            .with.property("type", "INVALID_STORE_QUERY");
        }
      });
    });

    describe("unique keys", function () {
      it("rejects a second document with the same _id with DuplicateKeyError and keeps the first", async function () {
        const c = fresh();
        await c.insertOne({ _id: "k", name: "first" });
        const err = await expectStoreError(() => c.insertOne({ _id: "k", name: "second" }), "DUPLICATE_KEY");
        expect(err.name).to.equal("DuplicateKeyError");
        expect(err.data).to.include({ collection: c.name });
        expect(await c.find({})).to.deep.equal([{ _id: "k", name: "first" }]);
      });

      it("insertMany is all-or-none when one document's _id already exists", async function () {
        const c = fresh();
        await c.insertOne({ _id: "taken" });
        await expectStoreError(() => c.insertMany([{ _id: "n1" }, { _id: "n2" }, { _id: "taken" }, { _id: "n3" }]), "DUPLICATE_KEY");
        expect(await ids(c, {})).to.deep.equal(["taken"]);
      });

      it("insertMany is all-or-none when the batch repeats a key itself", async function () {
        const c = fresh();
        await expectStoreError(() => c.insertMany([{ _id: "p" }, { _id: "q" }, { _id: "p" }]), "DUPLICATE_KEY");
        expect(await c.count()).to.equal(0);
      });

      it("insertMany is all-or-none on a secondary unique index too", async function () {
        const c = fresh();
        await c.ensureIndexes([{ fields: { name: 1 }, unique: true }]);
        await c.insertOne({ _id: "1", name: "dup" });
        await expectStoreError(
          () =>
            c.insertMany([
              { _id: "2", name: "fresh" },
              { _id: "3", name: "dup" },
            ]),
          "DUPLICATE_KEY",
        );
        expect(await ids(c, {})).to.deep.equal(["1"]);
      });

      it("enforces a unique index on insert and on update, leaving the document unchanged", async function () {
        const c = fresh();
        await c.ensureIndexes([{ fields: { name: 1 }, unique: true }]);
        await c.insertMany([
          { _id: "1", name: "ann", n: 1 },
          { _id: "2", name: "ben", n: 2 },
        ]);
        await expectStoreError(() => c.insertOne({ _id: "3", name: "ann" }), "DUPLICATE_KEY");
        await expectStoreError(() => c.updateOne({ _id: "2" }, { $set: { name: "ann", n: 99 } }), "DUPLICATE_KEY");
        expect(await c.findOne({ _id: "2" })).to.deep.equal({ _id: "2", name: "ben", n: 2 });
      });

      it("a non-sparse unique index treats a missing field as one key; a sparse one ignores it", async function () {
        const strict = fresh();
        await strict.ensureIndexes([{ fields: { name: 1 }, unique: true }]);
        await strict.insertOne({ _id: "1" });
        await expectStoreError(() => strict.insertOne({ _id: "2" }), "DUPLICATE_KEY");

        const sparse = fresh();
        await sparse.ensureIndexes([{ fields: { name: 1 }, unique: true, sparse: true }]);
        await sparse.insertMany([{ _id: "1" }, { _id: "2" }, { _id: "3", name: "x" }]);
        await expectStoreError(() => sparse.insertOne({ _id: "4", name: "x" }), "DUPLICATE_KEY");
        expect(await sparse.count()).to.equal(3);
      });

      it("a compound unique index rejects only the repeated combination", async function () {
        const c = fresh();
        await c.ensureIndexes([{ fields: { city: 1, name: 1 }, unique: true }]);
        await c.insertMany([
          { _id: "1", city: "paris", name: "ann" },
          { _id: "2", city: "paris", name: "ben" },
          { _id: "3", city: "rome", name: "ann" },
        ]);
        await expectStoreError(() => c.insertOne({ _id: "4", city: "paris", name: "ann" }), "DUPLICATE_KEY");
        expect(await c.find({ city: "paris", name: "ann" })).to.have.length(1);
      });

      it("ensureIndexes is idempotent", async function () {
        const c = fresh();
        const spec: IndexSpec[] = [{ fields: { city: 1 } }, { fields: { n: -1 } }, { fields: { name: 1 }, unique: true }];
        await c.ensureIndexes(spec);
        await c.ensureIndexes(spec);
        await c.insertMany([
          { _id: "1", city: "oslo", name: "a" },
          { _id: "2", city: "oslo", name: "b" },
        ]);
        await expectStoreError(() => c.insertOne({ _id: "3", name: "a" }), "DUPLICATE_KEY");
        expect(await c.count({ city: "oslo" })).to.equal(2);
      });

      it("refuses a unique index that existing documents already violate, and does not enforce it", async function () {
        const c = fresh();
        await c.insertMany([
          { _id: "1", city: "oslo" },
          { _id: "2", city: "oslo" },
        ]);
        await expectStoreError(() => c.ensureIndexes([{ fields: { city: 1 }, unique: true }]), "DUPLICATE_KEY");
        await c.insertOne({ _id: "3", city: "oslo" });
        expect(await c.count({ city: "oslo" })).to.equal(3);
      });

      it("refuses to declare an index on _id alone (it always exists)", async function () {
        await expectStoreError(() => fresh().ensureIndexes([{ fields: { _id: 1 }, unique: true }]), "INVALID_STORE_QUERY");
      });
    });

    describe("filters", function () {
      let c: Collection<Item>;
      before(async function () {
        c = await seeded();
        await c.ensureIndexes([{ fields: { city: 1 } }, { fields: { n: 1 } }, { fields: { tags: 1 } }]);
      });

      it("equality and $eq, including on _id", async function () {
        expect(await ids(c, { city: "paris" })).to.deep.equal(["a", "c"]);
        expect(await ids(c, { city: { $eq: "rome" } })).to.deep.equal(["b", "e"]);
        expect(await ids(c, { _id: "d" })).to.deep.equal(["d"]);
        expect(await ids(c, { active: false })).to.deep.equal(["b"]);
      });

      it("equality on an array field matches an element", async function () {
        expect(await ids(c, { tags: "y" })).to.deep.equal(["a", "b"]);
        expect(await ids(c, { tags: { $eq: "z" } })).to.deep.equal(["e"]);
      });

      it("$ne matches documents without the field, and on arrays means no element equals", async function () {
        expect(await ids(c, { active: { $ne: true } })).to.deep.equal(["b", "c", "d"]);
        expect(await ids(c, { tags: { $ne: "y" } })).to.deep.equal(["c", "d", "e"]);
      });

      it("$gt $gte $lt $lte compare numbers with numbers and strings with strings only", async function () {
        expect(await ids(c, { n: { $gt: 7 } })).to.deep.equal(["b", "e"]);
        expect(await ids(c, { n: { $gte: 7 } })).to.deep.equal(["b", "c", "e"]);
        expect(await ids(c, { n: { $lt: 7 } })).to.deep.equal(["a"]);
        expect(await ids(c, { n: { $gte: 5, $lte: 12 } })).to.deep.equal(["a", "b", "c"]);
        expect(await ids(c, { name: { $gte: "c" } })).to.deep.equal(["c", "d"]);
        // "9" is a string: it never satisfies a numeric bound
        expect(await ids(c, { name: { $gt: 0 } })).to.deep.equal([]);
      });

      it("$in and $nin, with $nin matching documents that lack the field", async function () {
        expect(await ids(c, { city: { $in: ["rome", "oslo"] } })).to.deep.equal(["b", "d", "e"]);
        expect(await ids(c, { tags: { $in: ["x", "z"] } })).to.deep.equal(["a", "e"]);
        expect(await ids(c, { n: { $nin: [5, 12] } })).to.deep.equal(["c", "d", "e"]);
        expect(await ids(c, { tags: { $nin: ["y"] } })).to.deep.equal(["c", "d", "e"]);
        expect(await ids(c, { _id: { $in: [] } })).to.deep.equal([]);
      });

      it("$exists: an empty array exists, null exists, an absent field does not", async function () {
        expect(await ids(c, { tags: { $exists: true } })).to.deep.equal(["a", "b", "c", "e"]);
        expect(await ids(c, { tags: { $exists: false } })).to.deep.equal(["d"]);
        expect(await ids(c, { note: { $exists: true } })).to.deep.equal(["d"]);
        expect(await ids(c, { "profile.score": { $exists: true } })).to.deep.equal(["a", "b", "e"]);
      });

      it("dotted paths reach nested objects and fields of array elements", async function () {
        expect(await ids(c, { "profile.address.city": "paris" })).to.deep.equal(["a"]);
        expect(await ids(c, { "profile.score": { $gte: 10 } })).to.deep.equal(["a", "b"]);
        expect(await ids(c, { "items.sku": "k2" })).to.deep.equal(["c"]);
      });

      it("$or and $and combine, also with plain fields next to them", async function () {
        expect(await ids(c, { $or: [{ city: "oslo" }, { n: { $gt: 20 } }] })).to.deep.equal(["d", "e"]);
        expect(await ids(c, { $and: [{ city: "rome" }, { active: true }] })).to.deep.equal(["e"]);
        expect(await ids(c, { city: "paris", $or: [{ n: 5 }, { n: 30 }] })).to.deep.equal(["a"]);
        expect(await ids(c, { $and: [{ $or: [{ city: "paris" }, { city: "rome" }] }, { tags: { $ne: "y" } }] })).to.deep.equal(["c", "e"]);
      });

      it("count uses the same filters", async function () {
        expect(await c.count()).to.equal(5);
        expect(await c.count({ city: "paris" })).to.equal(2);
        expect(await c.count({ $or: [{ tags: "x" }, { note: { $exists: true } }] })).to.equal(2);
      });

      it("rejects operators and values outside the subset with INVALID_STORE_QUERY, naming them", async function () {
        const outside: { filter: unknown; names: string }[] = [
          { filter: { name: { $regex: "^a" } }, names: "$regex" },
          { filter: { $where: "this.n > 1" }, names: "$where" },
          { filter: { $nor: [{ n: 1 }] }, names: "$nor" },
          { filter: { n: { $not: { $gt: 1 } } }, names: "$not" },
          { filter: { items: { $elemMatch: { qty: 1 } } }, names: "$elemMatch" },
          { filter: { tags: { $size: 1 } }, names: "$size" },
          { filter: { note: null }, names: "null" },
          { filter: { profile: { score: 10 } }, names: "dotted paths" },
          { filter: { tags: ["x", "y"] }, names: "arrays" },
          { filter: { n: { $gt: 1, lt: 2 } }, names: "mixes" },
          { filter: { n: { $gt: true } }, names: "$gt" },
          { filter: { n: { $in: "x" } }, names: "$in" },
          { filter: { n: { $exists: 1 } }, names: "$exists" },
          { filter: { $or: [] }, names: "$or" },
          { filter: { "a..b": 1 }, names: "empty segment" },
          { filter: { n: undefined }, names: "undefined" },
        ];
        for (const { filter, names } of outside) {
          const err = await expectStoreError(() => c.find(filter as Filter), "INVALID_STORE_QUERY");
          expect(err.message, JSON.stringify(filter)).to.include(names);
        }
      });
    });

    describe("find options", function () {
      let c: Collection<Item>;
      before(async function () {
        c = await seeded();
      });

      it("sorts ascending and descending on one or more keys, breaking ties by _id", async function () {
        expect((await c.find({ n: { $exists: true } }, { sort: { n: -1 } })).map((d) => d._id)).to.deep.equal(["e", "b", "c", "a"]);
        expect((await c.find({}, { sort: { city: 1 } })).map((d) => d._id)).to.deep.equal(["d", "a", "c", "b", "e"]);
        expect((await c.find({}, { sort: { city: 1, name: -1 } })).map((d) => d._id)).to.deep.equal(["d", "c", "a", "b", "e"]);
      });

      it("reads a page in key then _id order from an index that ends with the sort keys and _id, many rows sharing a key", async function () {
        const c = fresh();
        await c.ensureIndexes([{ fields: { city: 1, n: 1, name: 1, _id: 1 } }]);
        // ids inserted out of order; 300 share n = 1 (a page's deliveries sharing one due time), a few differ in name
        const ids = Array.from({ length: 330 }, (_, i) => `id${String((i * 7919) % 1000).padStart(3, "0")}`);
        await c.insertMany(
          ids.map((_id, i) => ({ _id, city: i % 11 === 0 ? "lyon" : "paris", n: i < 300 ? 1 : i, name: i % 3 === 0 ? "b" : "a" })),
        );
        // a boolean is no number: a numeric range leaves it out
        await c.insertOne({ _id: "id000a", city: "paris", n: true as unknown as number, name: "a" });
        const all = (await c.find({ city: "paris" })).filter((d) => typeof d.n === "number" && d.n <= 320);
        const order = (d: Item) => [d.n!, d.name!, d._id] as const;
        const compare = (x: Item, y: Item) => {
          const [a, b] = [order(x), order(y)];
          for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
          return 0;
        };
        const expected = all.sort(compare).map((d) => d._id);
        const filter: Filter = { city: "paris", n: { $lte: 320 } };
        const ascending = { sort: { n: 1, name: 1 } } as const;
        expect((await c.find(filter, { ...ascending, limit: 7 })).map((d) => d._id)).to.deep.equal(expected.slice(0, 7));
        expect((await c.find(filter, { ...ascending, skip: 100, limit: 50 })).map((d) => d._id)).to.deep.equal(expected.slice(100, 150));
        expect((await c.find(filter, ascending)).map((d) => d._id)).to.deep.equal(expected);
        const descending = { sort: { n: -1, name: -1, _id: -1 } } as const;
        expect((await c.find(filter, { ...descending, skip: 3, limit: 20 })).map((d) => d._id)).to.deep.equal(
          [...expected].reverse().slice(3, 23),
        );
        expect((await c.findProjected(filter, { n: 1 }, { ...ascending, limit: 2 })).map((d) => d._id)).to.deep.equal(expected.slice(0, 2));
      });

      it("skips and limits after sorting, so pages do not overlap", async function () {
        const page1 = await c.find({}, { sort: { name: 1 }, limit: 2 });
        const page2 = await c.find({}, { sort: { name: 1 }, skip: 2, limit: 2 });
        const page3 = await c.find({}, { sort: { name: 1 }, skip: 4, limit: 2 });
        expect([...page1, ...page2, ...page3].map((d) => d.name)).to.deep.equal(["9", "alice", "bob", "carol", "dave"]);
      });

      it("projects by inclusion or exclusion, keeping _id unless told otherwise", async function () {
        expect(await c.findProjected({ _id: "a" }, { name: 1, "profile.score": 1 })).to.deep.equal([
          { _id: "a", name: "alice", profile: { score: 10 } },
        ]);
        expect(await c.findProjected({ _id: "b" }, { name: 1, _id: 0 })).to.deep.equal([{ name: "bob" }]);
        expect(await c.findProjected({ _id: "d" }, { note: 0, city: 0 })).to.deep.equal([{ _id: "d", name: "dave" }]);
        // `_id: 1` alone keeps only the id (as MongoDB does), `_id: 0` alone drops only the id
        expect(await c.findProjected({ _id: "b" }, { _id: 1 })).to.deep.equal([{ _id: "b" }]);
        const [withoutId] = await c.findProjected({ _id: "b" }, { _id: 0 });
        expect(withoutId).to.not.have.property("_id");
        expect(withoutId).to.include({ name: "bob" });
      });

      it("rejects a projection that mixes keep and omit, and bad skip/limit/sort values", async function () {
        await expectStoreError(() => c.findProjected({}, { name: 1, city: 0 }), "INVALID_STORE_QUERY");
        await expectStoreError(() => c.find({}, { limit: -1 }), "INVALID_STORE_QUERY");
        await expectStoreError(() => c.find({}, { skip: 1.5 }), "INVALID_STORE_QUERY");
        await expectStoreError(() => c.find({}, { sort: { n: 2 as 1 } }), "INVALID_STORE_QUERY");
      });
    });

    describe("updates", function () {
      it("$set creates nested paths, $unset removes, $inc adds (starting from 0 when missing)", async function () {
        const c = fresh();
        await c.insertOne({ _id: "1", name: "a", n: 1, city: "x" });
        const r = await c.updateOne(
          { _id: "1" },
          { $set: { "profile.address.city": "lyon" }, $unset: { city: true }, $inc: { n: 2, "profile.score": 5 } },
        );
        expect(r).to.deep.equal({ matchedCount: 1, modifiedCount: 1 });
        expect(await c.findOne({ _id: "1" })).to.deep.equal({
          _id: "1",
          name: "a",
          n: 3,
          profile: { address: { city: "lyon" }, score: 5 },
        });
      });

      it("$push appends one value or $each; on a missing field it creates the array", async function () {
        const c = fresh();
        await c.insertOne({ _id: "1", tags: ["a"] });
        await c.updateOne({ _id: "1" }, { $push: { tags: "b", items: { sku: "s", qty: 1 } } });
        await c.updateOne({ _id: "1" }, { $push: { tags: { $each: ["c", "a"] } } });
        expect(await c.findOne({ _id: "1" })).to.deep.equal({ _id: "1", tags: ["a", "b", "c", "a"], items: [{ sku: "s", qty: 1 }] });
      });

      it("$addToSet adds only absent values, also with $each", async function () {
        const c = fresh();
        await c.insertOne({ _id: "1", tags: ["a"] });
        await c.updateOne({ _id: "1" }, { $addToSet: { tags: { $each: ["a", "b", "b", "c"] } } });
        const again = await c.updateOne({ _id: "1" }, { $addToSet: { tags: "c" } });
        expect(again).to.deep.equal({ matchedCount: 1, modifiedCount: 0 });
        expect((await c.findOne({ _id: "1" }))?.tags).to.deep.equal(["a", "b", "c"]);
      });

      it("$pull removes equal elements, $in lists, matching sub-documents; a missing field is a no-op", async function () {
        const c = fresh();
        await c.insertOne({
          _id: "1",
          tags: ["a", "b", "a", "c", "d"],
          items: [
            { sku: "k1", qty: 1 },
            { sku: "k2", qty: 2 },
          ],
        });
        await c.insertOne({ _id: "2", name: "no arrays" });
        await c.updateOne({ _id: "1" }, { $pull: { tags: "a", items: { sku: "k2" } } });
        await c.updateOne({ _id: "1" }, { $pull: { tags: { $in: ["c", "zz"] } } });
        expect(await c.findOne({ _id: "1" })).to.deep.equal({ _id: "1", tags: ["b", "d"], items: [{ sku: "k1", qty: 1 }] });
        expect(await c.updateOne({ _id: "2" }, { $pull: { tags: "a" } })).to.deep.equal({ matchedCount: 1, modifiedCount: 0 });
        expect(await c.findOne({ _id: "2" })).to.deep.equal({ _id: "2", name: "no arrays" });
      });

      it("counts a match that changes nothing as matched but not modified", async function () {
        const c = fresh();
        await c.insertOne({ _id: "1", name: "same" });
        expect(await c.updateOne({ _id: "1" }, { $set: { name: "same" } })).to.deep.equal({ matchedCount: 1, modifiedCount: 0 });
        expect(await c.updateOne({ _id: "nope" }, { $set: { name: "x" } })).to.deep.equal({ matchedCount: 0, modifiedCount: 0 });
      });

      it("updateOne changes one matching document, updateMany all of them", async function () {
        const c = await seeded();
        expect((await c.updateOne({ city: "rome" }, { $set: { note: "one" } })).matchedCount).to.equal(1);
        expect(await c.count({ note: "one" })).to.equal(1);
        expect(await c.updateMany({ city: { $in: ["paris", "rome"] } }, { $inc: { n: 100 } })).to.deep.equal({
          matchedCount: 4,
          modifiedCount: 4,
        });
        expect((await c.find({ n: { $gte: 100 } })).map((d) => [d._id, d.n])).to.deep.equal([
          ["a", 105],
          ["b", 112],
          ["c", 107],
          ["e", 130],
        ]);
      });

      it("refuses an update the document's shape forbids, leaving it unchanged", async function () {
        const c = fresh();
        await c.insertOne({ _id: "1", name: "text", n: 1 });
        await expectStoreError(() => c.updateOne({ _id: "1" }, { $inc: { name: 1 } }), "INVALID_STORE_QUERY");
        await expectStoreError(() => c.updateOne({ _id: "1" }, { $push: { n: 2 } }), "INVALID_STORE_QUERY");
        await expectStoreError(() => c.updateOne({ _id: "1" }, { $set: { "n.deeper": 2 } }), "INVALID_STORE_QUERY");
        expect(await c.findOne({ _id: "1" })).to.deep.equal({ _id: "1", name: "text", n: 1 });
      });

      it("rejects updates outside the subset, _id changes, replacements and conflicting paths", async function () {
        const c = fresh();
        await c.insertOne({ _id: "1", n: 1 });
        const bad: unknown[] = [
          { $rename: { n: "m" } },
          { $min: { n: 0 } },
          { n: 2 },
          {},
          { $set: { _id: "2" } },
          { $set: { n: 2 }, $inc: { n: 1 } },
          { $set: { profile: {} }, $unset: { "profile.score": 1 } },
          { $inc: { n: "1" } },
          { $push: { tags: { $each: ["a"], $slice: 1 } } },
          { $pull: { tags: { $gt: 1 } } },
          { $set: { amount: 1n } },
        ];
        for (const update of bad) {
          await expectStoreError(() => c.updateOne({ _id: "1" }, update as never), "INVALID_STORE_QUERY");
        }
        expect(await c.findOne({ _id: "1" })).to.deep.equal({ _id: "1", n: 1 });
      });

      it("applies 40 concurrent $inc to one document without losing any", async function () {
        const c = fresh();
        await c.insertOne({ _id: "counter", n: 0 });
        await Promise.all(Array.from({ length: 40 }, () => c.updateOne({ _id: "counter" }, { $inc: { n: 1 } })));
        expect((await c.findOne({ _id: "counter" }))?.n).to.equal(40);
      });
    });

    describe("upsert and findOneAndUpdate", function () {
      it("upsert inserts a document seeded from the filter's equalities with a generated string _id", async function () {
        const c = fresh();
        const r = await c.updateOne(
          { city: "kyiv", "profile.score": 3, n: { $gt: 0 } },
          { $set: { name: "new" }, $inc: { "profile.score": 1 } },
          { upsert: true },
        );
        expect(r.matchedCount).to.equal(0);
        expect(r.upsertedId).to.be.a("string").with.length.greaterThan(0);
        const doc = await c.findOne({ _id: r.upsertedId as string });
        expect(doc).to.deep.equal({ _id: r.upsertedId, city: "kyiv", profile: { score: 4 }, name: "new" });
      });

      it("upsert uses the filter's _id, and updates the document when it exists", async function () {
        const c = fresh();
        const first = await c.updateOne({ _id: "stats:certificates" }, { $inc: { n: 1 } }, { upsert: true });
        const second = await c.updateOne({ _id: "stats:certificates" }, { $inc: { n: 1 } }, { upsert: true });
        expect(first).to.deep.equal({ matchedCount: 0, modifiedCount: 0, upsertedId: "stats:certificates" });
        expect(second).to.deep.equal({ matchedCount: 1, modifiedCount: 1 });
        expect(await c.find({})).to.deep.equal([{ _id: "stats:certificates", n: 2 }]);
      });

      it("concurrent upserts on a uniquely indexed key create exactly one document", async function () {
        const c = fresh();
        await c.ensureIndexes([{ fields: { name: 1 }, unique: true }]);
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, () => c.updateOne({ name: "policy-1" }, { $inc: { n: 1 } }, { upsert: true })),
        );
        const fulfilled = results.filter((r) => r.status === "fulfilled").length;
        const doc = await c.findOne({ name: "policy-1" });
        expect(await c.count()).to.equal(1);
        expect(doc?.n).to.equal(fulfilled);
        expect(fulfilled).to.be.at.least(1);
      });

      it("findOneAndUpdate returns the document after the update, or undefined without a match", async function () {
        const c = fresh();
        await c.insertOne({ _id: "seq", n: 41 });
        expect(await c.findOneAndUpdate({ _id: "seq" }, { $inc: { n: 1 } })).to.deep.equal({ _id: "seq", n: 42 });
        expect(await c.findOneAndUpdate({ _id: "other" }, { $inc: { n: 1 } })).to.equal(undefined);
        expect(await c.count()).to.equal(1);
        expect(await c.findOneAndUpdate({ _id: "other" }, { $inc: { n: 1 } }, { upsert: true })).to.deep.equal({ _id: "other", n: 1 });
      });
    });

    describe("deletes", function () {
      it("deleteOne removes one matching document, deleteMany all and both report the count", async function () {
        const c = await seeded();
        expect(await c.deleteOne({ city: "paris" })).to.equal(1);
        expect(await c.count({ city: "paris" })).to.equal(1);
        expect(await c.deleteMany({ city: { $in: ["paris", "rome"] } })).to.equal(3);
        expect(await ids(c, {})).to.deep.equal(["d"]);
        expect(await c.deleteOne({ city: "nowhere" })).to.equal(0);
      });
    });

    describe("lease table (cross-replica claims)", function () {
      let now = 1_000_000;
      const clock = (): number => now;

      it("acquires all keys or none, reporting who holds the conflicting ones", async function () {
        const leases = await createLeaseTable(fresh<LeaseDocument>(), clock);
        expect(await leases.acquire(["u#0", "u#1"], "tx-a", 60_000)).to.deep.equal({ acquired: true, expiresAt: now + 60_000 });
        const second = await leases.acquire(["u#2", "u#1", "u#3"], "tx-b", 60_000);
        expect(second).to.deep.equal({ acquired: false, conflicts: [{ key: "u#1", holder: "tx-a", expiresAt: now + 60_000 }] });
        expect((await leases.findActive()).map((l) => `${l.key}:${l.holder}`)).to.deep.equal(["u#0:tx-a", "u#1:tx-a"]);
      });

      it("lets an expired lease be taken by another holder, and purges expired ones", async function () {
        const leases = await createLeaseTable(fresh<LeaseDocument>(), clock);
        await leases.acquire(["k"], "old", 1_000);
        expect((await leases.acquire(["k"], "new", 1_000)).acquired).to.equal(false);
        now += 1_000; // the lease is void from its expiresAt on
        expect(await leases.acquire(["k"], "new", 5_000)).to.deep.equal({ acquired: true, expiresAt: now + 5_000 });
        await leases.acquire(["j"], "short", 10);
        now += 10;
        expect(await leases.findActive()).to.deep.equal([{ key: "k", holder: "new", expiresAt: now - 10 + 5_000 }]);
        expect(await leases.purgeExpired()).to.equal(1);
      });

      it("releases and renews only the holder's own leases", async function () {
        const leases = await createLeaseTable(fresh<LeaseDocument>(), clock);
        await leases.acquire(["a", "b"], "h1", 1_000);
        await leases.acquire(["c"], "h2", 1_000);
        expect(await leases.renew(["a", "c"], "h1", 9_000)).to.equal(1);
        expect(await leases.release("h1", ["b"])).to.equal(1);
        expect(await leases.release("h3")).to.equal(0);
        expect(await leases.findActive()).to.deep.equal([
          { key: "a", holder: "h1", expiresAt: now + 9_000 },
          { key: "c", holder: "h2", expiresAt: now + 1_000 },
        ]);
        expect(await leases.release("h1")).to.equal(1);
        expect((await leases.acquire(["a", "b"], "h2", 1_000)).acquired).to.equal(true);
      });

      it("never grants one key to two holders when 30 overlapping claims race", async function () {
        const leases = await createLeaseTable(fresh<LeaseDocument>(), clock);
        // holder i wants keys i, i+1, i+2 (mod 12): neighbours always overlap
        const wanted = Array.from({ length: 30 }, (_, i) => [0, 1, 2].map((d) => `utxo#${(i + d) % 12}`));
        const results = await Promise.all(wanted.map((keys, i) => leases.acquire(keys, `h${i}`, 60_000)));
        const winners = results.flatMap((r, i) => (r.acquired ? [i] : []));
        const active = await leases.findActive();
        const holderOf = new Map(active.map((l) => [l.key, l.holder]));
        expect(winners.length).to.be.at.least(1);
        expect(active).to.have.length(winners.length * 3); // winners hold all their keys, losers hold none
        for (const i of winners) for (const key of wanted[i] as string[]) expect(holderOf.get(key)).to.equal(`h${i}`);
        for (const [i, r] of results.entries()) {
          if (!r.acquired) expect(r.conflicts.length, `h${i}`).to.be.greaterThan(0);
        }
      });

      if (options.openPeer !== undefined) {
        const openPeer = options.openPeer;
        it("never grants one key to two holders when two clients (replicas) race for overlapping keys", async function () {
          const peer = await openPeer();
          try {
            const name = `t_${randomUUID().slice(0, 12)}`;
            const tables = [
              await createLeaseTable(store.collection<LeaseDocument>(name), clock),
              await createLeaseTable(peer.collection<LeaseDocument>(name), clock),
            ];
            const wanted = Array.from({ length: 40 }, (_, i) => [0, 1].map((d) => `ref#${(i + d) % 10}`));
            const results = await Promise.all(
              wanted.map((keys, i) => (tables[i % 2] as (typeof tables)[0]).acquire(keys, `r${i}`, 60_000)),
            );
            const winners = results.flatMap((r, i) => (r.acquired ? [i] : []));
            const active = await tables[1]!.findActive();
            const holderOf = new Map(active.map((l) => [l.key, l.holder]));
            expect(active).to.have.length(winners.length * 2);
            for (const i of winners) for (const key of wanted[i] as string[]) expect(holderOf.get(key)).to.equal(`r${i}`);
          } finally {
            await peer.close();
          }
        });
      }

      it("rejects an empty key list, an empty holder and a non-positive ttl", async function () {
        const leases = await createLeaseTable(fresh<LeaseDocument>(), clock);
        await expectStoreError(() => leases.acquire([], "h", 1), "INVALID_STORE_QUERY");
        await expectStoreError(() => leases.acquire(["k"], "", 1), "INVALID_STORE_QUERY");
        await expectStoreError(() => leases.acquire(["k"], "h", 0), "INVALID_STORE_QUERY");
      });
    });
  });
}
