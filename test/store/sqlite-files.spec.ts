import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore, type StoredDocument } from "../../shared/store";
import { describeRepositoryContract } from "./repository.contract";
import { expectStoreError } from "./support";

const tempDirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "sqlite-store-test-"));
  tempDirs.push(dir);
  return dir;
}

describeRepositoryContract("SQLite files", async () => createStore({ dataDir: await freshDir() }));

interface Cert extends StoredDocument {
  hash: string;
  n?: number;
  tags?: string[];
  slot?: number;
}

describe("SQLite files: durability, indexes across reopen and the one-process guard", function () {
  after(async function () {
    await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("is the embedded store on disk: one store.sqlite file in DATA_DIR", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    expect(store.kind).to.equal("sqlite-files");
    await store.collection<Cert>("certificates").insertOne({ _id: "c1", hash: "aa" });
    await store.close();
    expect((await readdir(dir)).filter((f) => !f.startsWith("store.sqlite-"))).to.deep.equal(["store.sqlite"]);
  });

  it("keeps documents, updates, deletes and unique indexes across close and reopen", async function () {
    const dir = await freshDir();
    const first = await createStore({ dataDir: dir });
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

    const second = await createStore({ dataDir: dir });
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
    const store = await createStore({ dataDir: dir });
    const counters = store.collection<Cert>("counters");
    await counters.insertOne({ _id: "x", hash: "h", n: 0 });
    const pending = Array.from({ length: 25 }, () => counters.updateOne({ _id: "x" }, { $inc: { n: 1 } }));
    await store.close();
    await Promise.all(pending);
    const again = await createStore({ dataDir: dir });
    expect((await again.collection<Cert>("counters").findOne({ _id: "x" }))?.n).to.equal(25);
    await again.close();
  });

  it("answers STORE_CLOSED after close, and close is idempotent", async function () {
    const store = await createStore({ dataDir: await freshDir() });
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

  it("remembers after a reopen that an indexed field holds arrays, so equality still matches an element", async function () {
    const dir = await freshDir();
    const first = await createStore({ dataDir: dir });
    const certs = first.collection<Cert>("tagged");
    await certs.ensureIndexes([{ fields: { tags: 1 } }, { fields: { slot: 1 } }]);
    await certs.insertMany([
      { _id: "a", hash: "1", tags: ["x", "y"], slot: 5 },
      { _id: "b", hash: "2", tags: ["y"], slot: 9 },
    ]);
    await first.close();

    const second = await createStore({ dataDir: dir });
    const reopened = second.collection<Cert>("tagged");
    expect((await reopened.find({ tags: "y" })).map((d) => d._id)).to.deep.equal(["a", "b"]);
    expect((await reopened.find({ tags: { $in: ["x"] }, slot: { $lte: 5 } })).map((d) => d._id)).to.deep.equal(["a"]);
    expect(await reopened.deleteMany({ slot: { $gt: 6 } })).to.equal(1);
    expect(await reopened.count({})).to.equal(1);
    await second.close();
  });

  it("refuses a second open store on the same directory with DATA_DIR_LOCKED, and allows it after close", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    const err = await expectStoreError(() => createStore({ dataDir: dir }), "DATA_DIR_LOCKED");
    expect(err.data).to.include({ pid: process.pid });
    await store.close();
    await (await createStore({ dataDir: dir })).close();
  });

  it("refuses a directory whose LOCK names a live process, and takes over one left by a dead process", async function () {
    const live = await freshDir();
    await writeFile(join(live, "LOCK"), String(process.ppid));
    const err = await expectStoreError(() => createStore({ dataDir: live }), "DATA_DIR_LOCKED");
    expect(err.data).to.include({ pid: process.ppid });

    const stale = await freshDir();
    const exited = spawnSync(process.execPath, ["-e", ""]);
    expect(exited.status).to.equal(0);
    await writeFile(join(stale, "LOCK"), String(exited.pid));
    const store = await createStore({ dataDir: stale });
    expect(await readFile(join(stale, "LOCK"), "utf8")).to.equal(String(process.pid));
    await store.close();
  });
});
