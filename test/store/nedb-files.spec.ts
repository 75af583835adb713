import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore, type StoredDocument } from "../../shared/store";
import { describeRepositoryContract } from "./repository.contract";
import { expectStoreError } from "./support";

const tempDirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "store-test-"));
  tempDirs.push(dir);
  return dir;
}

describeRepositoryContract("NeDB files", async () => createStore({ dataDir: await freshDir(), engine: "nedb" }));

interface Cert extends StoredDocument {
  hash: string;
  n?: number;
  tags?: string[];
}

describe("NeDB files: durability and the one-process guard", function () {
  after(async function () {
    await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("keeps documents, updates, deletes and unique indexes across close and reopen", async function () {
    const dir = await freshDir();
    const first = await createStore({ dataDir: dir, engine: "nedb" });
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

    const second = await createStore({ dataDir: dir, engine: "nedb" });
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
    const store = await createStore({ dataDir: dir, engine: "nedb" });
    const counters = store.collection<Cert>("counters");
    await counters.insertOne({ _id: "x", hash: "h", n: 0 });
    const pending = Array.from({ length: 25 }, () => counters.updateOne({ _id: "x" }, { $inc: { n: 1 } }));
    await store.close();
    await Promise.all(pending);
    const again = await createStore({ dataDir: dir, engine: "nedb" });
    expect((await again.collection<Cert>("counters").findOne({ _id: "x" }))?.n).to.equal(25);
    await again.close();
  });

  it("compacts on close: after many updates each document is one line of its file", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir, engine: "nedb" });
    const c = store.collection<Cert>("compacted");
    await c.insertMany([
      { _id: "a", hash: "1", n: 0 },
      { _id: "b", hash: "2", n: 0 },
    ]);
    for (let i = 0; i < 10; i++) await c.updateMany({}, { $inc: { n: 1 } });
    await store.close();
    const lines = (await readFile(join(dir, "compacted.db"), "utf8")).split("\n").filter((l) => l.length > 0);
    expect(lines.map((l) => JSON.parse(l) as Cert)).to.deep.equal([
      { _id: "a", hash: "1", n: 10 },
      { _id: "b", hash: "2", n: 10 },
    ]);
  });

  it("refuses a second open store on the same directory with DATA_DIR_LOCKED, and allows it after close", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir, engine: "nedb" });
    const err = await expectStoreError(() => createStore({ dataDir: dir, engine: "nedb" }), "DATA_DIR_LOCKED");
    expect(err.data).to.include({ pid: process.pid });
    await store.close();
    await (await createStore({ dataDir: dir, engine: "nedb" })).close();
  });

  it("refuses a directory whose LOCK names a live process, and takes over one left by a dead process", async function () {
    const live = await freshDir();
    await writeFile(join(live, "LOCK"), String(process.ppid));
    const err = await expectStoreError(() => createStore({ dataDir: live, engine: "nedb" }), "DATA_DIR_LOCKED");
    expect(err.data).to.include({ pid: process.ppid });

    const stale = await freshDir();
    const exited = spawnSync(process.execPath, ["-e", ""]);
    expect(exited.status).to.equal(0);
    await writeFile(join(stale, "LOCK"), String(exited.pid));
    const store = await createStore({ dataDir: stale, engine: "nedb" });
    expect(await readFile(join(stale, "LOCK"), "utf8")).to.equal(String(process.pid));
    await store.close();
  });

  it("answers STORE_CLOSED after close, and close is idempotent", async function () {
    const store = await createStore({ dataDir: await freshDir(), engine: "nedb" });
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
