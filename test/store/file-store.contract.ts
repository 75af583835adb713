/**
 * What every on-disk engine of the embedded store promises across close and reopen, run by each engine's spec
 * beside its own file-format checks.
 */
import { expect } from "chai";
import { createStore, type EmbeddedEngine, type StoredDocument } from "../../shared/store";
import { expectStoreError } from "./support";

interface Cert extends StoredDocument {
  hash: string;
  n?: number;
  tags?: string[];
}

export function describeFileStoreDurability(label: string, engine: EmbeddedEngine, freshDir: () => Promise<string>): void {
  describe(`${label}: durability across close and reopen`, function () {
    it("keeps documents, updates, deletes and unique indexes across close and reopen", async function () {
      const dir = await freshDir();
      const first = await createStore({ dataDir: dir, engine });
      const certs = first.collection<Cert>("certificates");
      await certs.ensureIndexes([{ fields: { hash: 1 }, unique: true }]);
      await certs.insertMany([
        { _id: "c1", hash: "aa", n: 1 },
        { _id: "c2", hash: "bb", n: 1 },
        { _id: "c3", hash: "cc" },
      ]);
      await certs.updateOne({ _id: "c1" }, { $inc: { n: 1 }, $push: { tags: "t" } });
      await certs.deleteOne({ _id: "c2" });
      await first.close();

      const second = await createStore({ dataDir: dir, engine });
      const reopened = second.collection<Cert>("certificates");
      expect(await reopened.find({})).to.deep.equal([
        { _id: "c1", hash: "aa", n: 2, tags: ["t"] },
        { _id: "c3", hash: "cc" },
      ]);
      await expectStoreError(() => reopened.insertOne({ _id: "c4", hash: "cc" }), "DUPLICATE_KEY");
      await second.close();
    });

    it("finishes writes issued before close, so they survive the reopen", async function () {
      const dir = await freshDir();
      const store = await createStore({ dataDir: dir, engine });
      const counters = store.collection<Cert>("counters");
      await counters.insertOne({ _id: "x", hash: "h", n: 0 });
      const pending = Array.from({ length: 25 }, () => counters.updateOne({ _id: "x" }, { $inc: { n: 1 } }));
      await store.close();
      await Promise.all(pending);
      const again = await createStore({ dataDir: dir, engine });
      expect((await again.collection<Cert>("counters").findOne({ _id: "x" }))?.n).to.equal(25);
      await again.close();
    });

    it("answers STORE_CLOSED after close, and close is idempotent", async function () {
      const store = await createStore({ dataDir: await freshDir(), engine });
      const c = store.collection<Cert>("any");
      await c.insertOne({ _id: "1", hash: "h" });
      await store.close();
      await store.close();
      await expectStoreError(() => c.findOne({ _id: "1" }), "STORE_CLOSED");
      await expectStoreError(() => c.insertOne({ _id: "2", hash: "g" }), "STORE_CLOSED");
      expect(() => store.collection("other"))
        .to.throw()
        .with.property("type", "STORE_CLOSED");
    });
  });
}
