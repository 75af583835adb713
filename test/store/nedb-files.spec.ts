import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore, type StoredDocument } from "../../shared/store";
import { describeFileStoreDurability } from "./file-store.contract";
import { describeRepositoryContract } from "./repository.contract";
import { expectStoreError } from "./support";

const tempDirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "store-test-"));
  tempDirs.push(dir);
  return dir;
}

describeRepositoryContract("NeDB files", async () => createStore({ dataDir: await freshDir(), engine: "nedb" }));
describeFileStoreDurability("NeDB files", "nedb", freshDir);

interface Cert extends StoredDocument {
  hash: string;
  n?: number;
  tags?: string[];
}

describe("NeDB files: durability and the one-process guard", function () {
  after(async function () {
    await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
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
});
