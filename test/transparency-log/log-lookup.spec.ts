/**
 * The log's lookups (hash → index) over a real embedded store: every indexed hash is found at its index with its
 * nonce, a hash never submitted is not, a hash submitted again is found where it was first; blocks merge level by
 * level so a lookup reads a few documents per level; indexing interrupted at any write (a crash) and run again
 * loses nothing. Blocks of 4 entries here, so 1,100 entries reach three levels (4, 64, 1,024 entries).
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { createStore, type Collection, type Store } from "../../shared/store";
import { LogLookup } from "../../shared/transparency-log/log-lookup";
import { LogStore } from "../../shared/transparency-log/log-store";

const BLOCK = 4;

describe("transparency log: lookups of submitted hashes", function () {
  this.timeout(60_000);
  let store: Store;
  let log: LogStore;
  const records: Buffer[] = [];

  /** Appends records (nonce ‖ hash) of these hashes to the log's store, as the sequencer does. */
  async function append(hashes: Buffer[]): Promise<void> {
    const added = hashes.map((h) => Buffer.concat([randomBytes(16), h]));
    await log.saveRecords(records.length, Buffer.concat(added));
    records.push(...added);
  }
  const hashOf = (index: number) => records[index]!.subarray(16);

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    log = await LogStore.open(store);
    records.length = 0;
  });
  afterEach(() => store.close());

  it("finds every hash at its index with its nonce, across partial blocks and merges of three levels; never an unknown hash", async () => {
    const lookup = await LogLookup.open(store, log, BLOCK);
    await append(Array.from({ length: 1_100 }, () => randomBytes(32)));
    // indexed in uneven steps, as anchoring rounds come (a partial block is extended, a full one merges up)
    for (const size of [1, 3, 4, 9, 63, 64, 65, 700, 1_023, 1_024, 1_100]) await lookup.indexUpTo(size);
    expect(await lookup.indexed()).to.equal(1_100);
    for (let index = 0; index < 1_100; index++) {
      const found = await lookup.find(hashOf(index));
      expect(
        found.map((f) => f.index),
        `entry ${index}`,
      ).to.deep.equal([index]);
      expect(found[0]!.nonce.equals(records[index]!.subarray(0, 16))).to.equal(true);
    }
    expect(await lookup.find(randomBytes(32))).to.deep.equal([]);
    // 1,100 = one level-2 block (1,024) + one level-1 block (64) + three level-0 blocks (12): five blocks in all
    const docs = await store.collection<{ _id: string; level: number; block: number }>("tlog_lookup").find({});
    const blocks = new Set(docs.map((d) => `${d.level}:${d.block}`));
    expect([...blocks].sort()).to.deep.equal(["0:272", "0:273", "0:274", "1:16", "2:0"]);
  });

  it("finds a hash submitted again where it was first (one index per block after merges), and not beyond what is indexed", async () => {
    const lookup = await LogLookup.open(store, log, BLOCK);
    const again = randomBytes(32);
    await append([again, randomBytes(32), again, randomBytes(32)]); // block 0 holds it twice
    await append([randomBytes(32), again, ...Array.from({ length: 58 }, () => randomBytes(32))]); // and block 1
    await lookup.indexUpTo(8);
    expect(
      (await lookup.find(again)).map((f) => f.index),
      "one per block: blocks 0 and 1",
    ).to.deep.equal([0, 5]);
    await lookup.indexUpTo(64); // blocks 0 to 15 merge into one block of the next level
    expect((await lookup.find(again)).map((f) => f.index)).to.deep.equal([0]);
    await append([randomBytes(32), randomBytes(32)]);
    await lookup.indexUpTo(64);
    expect(await lookup.find(hashOf(64)), "entry 64 is not indexed yet").to.deep.equal([]);
  });

  it("loses nothing when indexing stops at any write (a crash) and runs again", async () => {
    await append(Array.from({ length: 130 }, () => randomBytes(32)));
    for (const crashAt of [1, 2, 5, 17, 40, 63, 64, 65, 80]) {
      const crashing = await createStore({ inMemory: true });
      const crashLog = await LogStore.open(crashing);
      await crashLog.saveRecords(0, Buffer.concat(records));
      // the store as a replica that dies sees it: every write after the crash point fails
      let writes = 0;
      const dying = new Proxy(crashing, {
        get(target, prop, receiver) {
          if (prop !== "collection") return Reflect.get(target, prop, receiver) as unknown;
          return (name: string) => {
            const c = target.collection(name) as Collection<never>;
            return new Proxy(c, {
              get(ct, p, r) {
                const v = Reflect.get(ct, p, r) as unknown;
                if (typeof v !== "function") return v;
                const fn = v as (...args: unknown[]) => unknown;
                if (!["updateOne", "insertOne", "deleteMany"].includes(String(p))) return fn.bind(ct);
                return (...args: unknown[]) => {
                  if (++writes > crashAt) return Promise.reject(new Error("killed"));
                  return fn.apply(ct, args);
                };
              },
            });
          };
        },
      });
      const first = await LogLookup.open(dying, crashLog, BLOCK);
      await first.indexUpTo(130).then(
        () => undefined,
        (err: Error) => expect(err.message).to.equal("killed"),
      );
      const again = await LogLookup.open(crashing, crashLog, BLOCK);
      await again.indexUpTo(130);
      for (let index = 0; index < 130; index++)
        expect(
          (await again.find(hashOf(index))).map((f) => f.index),
          `crash after ${crashAt} writes, entry ${index}`,
        ).to.deep.equal([index]);
      await crashing.close();
    }
  });
});
