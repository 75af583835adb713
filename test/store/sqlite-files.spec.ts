import { expect } from "chai";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore, type StoredDocument } from "../../shared/store";
import { describeFileStoreDurability } from "./file-store.contract";
import { describeRepositoryContract } from "./repository.contract";
import { expectStoreError } from "./support";

const tempDirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "sqlite-store-test-"));
  tempDirs.push(dir);
  return dir;
}

describeRepositoryContract("SQLite files", async () => createStore({ dataDir: await freshDir(), engine: "sqlite" }));
describeFileStoreDurability("SQLite files", "sqlite", freshDir);

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

  it("is the default engine on disk: one store.sqlite file in DATA_DIR", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    expect(store.kind).to.equal("sqlite-files");
    await store.collection<Cert>("certificates").insertOne({ _id: "c1", hash: "aa" });
    await store.close();
    expect((await readdir(dir)).filter((f) => !f.startsWith("store.sqlite-"))).to.deep.equal(["store.sqlite"]);
  });

  it("remembers after a reopen that an indexed field holds arrays, so equality still matches an element", async function () {
    const dir = await freshDir();
    const first = await createStore({ dataDir: dir, engine: "sqlite" });
    const certs = first.collection<Cert>("tagged");
    await certs.ensureIndexes([{ fields: { tags: 1 } }, { fields: { slot: 1 } }]);
    await certs.insertMany([
      { _id: "a", hash: "1", tags: ["x", "y"], slot: 5 },
      { _id: "b", hash: "2", tags: ["y"], slot: 9 },
    ]);
    await first.close();

    const second = await createStore({ dataDir: dir, engine: "sqlite" });
    const reopened = second.collection<Cert>("tagged");
    expect((await reopened.find({ tags: "y" })).map((d) => d._id)).to.deep.equal(["a", "b"]);
    expect((await reopened.find({ tags: { $in: ["x"] }, slot: { $lte: 5 } })).map((d) => d._id)).to.deep.equal(["a"]);
    expect(await reopened.deleteMany({ slot: { $gt: 6 } })).to.equal(1);
    expect(await reopened.count({})).to.equal(1);
    await second.close();
  });

  it("refuses a second open store on the same directory with DATA_DIR_LOCKED, whichever the engine, and allows it after close", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir, engine: "sqlite" });
    const err = await expectStoreError(() => createStore({ dataDir: dir, engine: "sqlite" }), "DATA_DIR_LOCKED");
    expect(err.data).to.include({ pid: process.pid });
    await expectStoreError(() => createStore({ dataDir: dir, engine: "nedb" }), "DATA_DIR_LOCKED");
    await store.close();
    await (await createStore({ dataDir: dir, engine: "sqlite" })).close();
  });

  it("refuses a directory whose LOCK names a live process", async function () {
    const live = await freshDir();
    await writeFile(join(live, "LOCK"), String(process.ppid));
    const err = await expectStoreError(() => createStore({ dataDir: live, engine: "sqlite" }), "DATA_DIR_LOCKED");
    expect(err.data).to.include({ pid: process.ppid });
  });
});
