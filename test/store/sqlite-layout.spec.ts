// The SQLite adapter's file layout: compressed documents, and indexed paths as columns (filled when an index is added
// to a collection that holds documents). Answers are compared with those of a collection without indexes on the same
// documents: there every filter is checked by the port's matcher (`matchesFilter`) and every sort done in JavaScript,
// none of it in SQL.
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createStore, type Filter, type FindOptions, type IndexSpec, type Store, type StoredDocument } from "../../shared/store";
import { LEARN_AFTER } from "../../shared/store/sqlite-dictionaries";
import { SQLITE_FILE } from "../../shared/store/sqlite-store";
import { expectStoreError } from "./support";

interface Doc extends StoredDocument {
  kind?: string;
  slot?: number;
  owner?: string;
  tags?: string[];
  nested?: { a: { b: number } };
  label?: string;
  code?: string;
  v?: unknown;
}

const tempDirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "sqlite-layout-test-"));
  tempDirs.push(dir);
  return dir;
}

function doc(n: number): Doc {
  return {
    _id: `d${String(n).padStart(5, "0")}`,
    kind: n % 4 === 0 ? "state.updated" : "certificate.issued",
    slot: 1_000 + Math.floor(n / 3),
    ...(n % 3 === 0 ? { owner: `owner-${n}` } : {}),
    ...(n % 5 === 0 ? { tags: n % 10 === 0 ? ["x", "y"] : ["y"] } : {}),
    nested: { a: { b: n % 7 } },
    label: `${"ü€😀".slice(0, 1 + (n % 3))} label ${n} ${"0123456789abcdef".repeat(4)}`,
    code: `c${n % 50}`,
  };
}

const INDEXES: IndexSpec[] = [
  { fields: { kind: 1 } },
  { fields: { slot: 1 } },
  { fields: { owner: 1 }, unique: true, sparse: true },
  { fields: { tags: 1 } },
  { fields: { kind: 1, slot: 1, _id: 1 } },
];

/** Queries whose answers must not change, as `[filter, options]` (find), plus counts. */
const QUERIES: [Filter, FindOptions][] = [
  [{}, {}],
  [{ kind: "state.updated" }, { sort: { slot: -1 }, limit: 5 }],
  [{ slot: { $gte: 1_010, $lt: 1_020 } }, {}],
  [{ owner: { $exists: true } }, { sort: { owner: 1 }, skip: 3, limit: 7 }],
  [{ owner: "owner-30" }, {}],
  [{ tags: "x" }, {}],
  [{ tags: { $in: ["y"] }, kind: "certificate.issued" }, { sort: { slot: 1 } }],
  [{ "nested.a.b": { $in: [1, 3] } }, { sort: { "nested.a.b": -1, slot: 1 } }],
  [{ $or: [{ kind: "state.updated" }, { slot: { $lte: 1_003 } }] }, { sort: { label: 1 } }],
  [{ code: "c7" }, { sort: { code: 1, slot: -1 } }],
  // read in order from the (kind, slot, _id) index, three documents sharing each slot
  [
    { kind: "certificate.issued", slot: { $gte: 1_100 } },
    { sort: { slot: 1 }, skip: 4, limit: 9 },
  ],
  [{ kind: "state.updated" }, { sort: { slot: -1, _id: -1 }, limit: 12 }],
];

async function answers(store: Store, name: string): Promise<unknown[]> {
  const c = store.collection<Doc>(name);
  const out: unknown[] = [];
  for (const [filter, options] of QUERIES) {
    out.push(await c.find(filter, options));
    out.push(await c.count(filter));
  }
  out.push(await c.findProjected({ kind: "state.updated" }, { slot: 1, "nested.a": 1 }, { sort: { slot: 1 } }));
  return out;
}

/** The answers of a collection without indexes (no columns: a full scan, filtered and sorted outside SQL). */
async function reference(docs: Doc[]): Promise<unknown[]> {
  const scan = await createStore({ inMemory: true });
  await scan.collection<Doc>("items").insertMany(docs);
  const found = await answers(scan, "items");
  await scan.close();
  return found;
}

function headers(file: string, table: string): number[] {
  const db = new DatabaseSync(file);
  try {
    return db
      .prepare(`SELECT doc FROM "${table}" ORDER BY rowid`)
      .all()
      .map((row) => (row.doc as Uint8Array)[0] as number);
  } finally {
    db.close();
  }
}

describe("SQLite layout: compressed documents, indexed paths as columns", function () {
  after(async function () {
    await Promise.all(tempDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("keeps a collection's first documents as JSON, then learns its dictionary once and compresses every row with it", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    const items = store.collection<Doc>("items");
    await items.insertMany(Array.from({ length: LEARN_AFTER - 1 }, (_, n) => doc(n)));
    await store.close();
    const file = join(dir, SQLITE_FILE);
    expect(new Set(headers(file, "items"))).to.deep.equal(new Set([0]));

    const reopened = await createStore({ dataDir: dir });
    for (let n = LEARN_AFTER - 1; n < 200; n++) await reopened.collection<Doc>("items").insertOne(doc(n));
    await reopened.collection<Doc>("items").updateOne({ _id: doc(0)._id }, { $set: { kind: "updated" } });
    await reopened.close();
    expect(new Set(headers(file, "items"))).to.deep.equal(new Set([1]));
    const db = new DatabaseSync(file);
    const stored = db.prepare("SELECT sum(length(doc)) AS packed, count(*) AS n FROM items").get() as { packed: number; n: number };
    expect(db.prepare("SELECT count(*) AS n FROM _store_dictionaries").get()?.n).to.equal(1);
    db.close();
    const json = Array.from({ length: 200 }, (_, n) => JSON.stringify(doc(n)).length).reduce((a, b) => a + b, 0);
    expect(stored.n).to.equal(200);
    expect(stored.packed).to.be.below(json * 0.6);

    const last = await createStore({ dataDir: dir });
    const all = await last.collection<Doc>("items").find({});
    expect(all).to.have.length(200);
    expect(all[0]).to.deep.equal({ ...doc(0), kind: "updated" });
    expect(all.slice(1)).to.deep.equal(Array.from({ length: 199 }, (_, n) => doc(n + 1)));
    await last.close();
  });

  it("gives back every document exactly, key order included, before and after its collection's dictionary is learned", async function () {
    let seed = 7;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const texts = ["", "a", "é", "漢字", "😀", '"quoted"', "back\\slash", "tab\tline\n", "\u0000", "0123456789abcdef".repeat(3)];
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
      if (kind === 0) return pick(texts) + String(Math.floor(random() * 1_000));
      if (kind === 1) return pick([0, -1, 1.5, -2.25e-7, 1e21, Number.MAX_SAFE_INTEGER, random() * 1e6 - 5e5]);
      if (kind === 2) return pick([true, false]);
      if (kind === 3) return null;
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, (_, i) => [`${pick(["k", "ü", "z", "a"])}${i}`, value(depth + 1)]),
      );
    };
    const docs = Array.from({ length: 3 * LEARN_AFTER }, (_, n) => ({ _id: `r${n}`, body: value(0), n, ...(value(1) as object) }));
    const store = await createStore({ inMemory: true });
    const items = store.collection<StoredDocument>("random");
    for (const d of docs) await items.insertOne(d);
    for (const d of docs) expect(JSON.stringify(await items.findOne({ _id: d._id }))).to.equal(JSON.stringify(d));
    await store.close();
  });

  it("keeps an indexed string once, in its column, and gives every document back exactly whatever its indexed paths hold", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    const items = store.collection<StoredDocument & Record<string, unknown>>("strings");
    await items.ensureIndexes([{ fields: { hash: 1 } }, { fields: { "fact.hash": 1 } }, { fields: { tags: 1 } }, { fields: { v: 1 } }]);
    const hash = "ab".repeat(32);
    const docs = [
      { _id: "a", hash, first: 1, fact: { type: "t", hash: "cd".repeat(32), after: true }, tags: ["x", "y"], v: { o: 1 } },
      { _id: "b", hash: 0, fact: { hash: 0 }, tags: "x", v: [1, "two"] },
      { _id: "c", fact: null, v: "0", hash: "" },
      { _id: "d", v: 0, tags: [], fact: { hash: null }, hash: "ü€😀" },
    ];
    await items.insertMany(docs);
    await items.updateOne({ _id: "c" }, { $set: { hash: "ef".repeat(32), fact: { x: 1 } } });
    const expected = docs.map((d) => (d._id === "c" ? { ...d, hash: "ef".repeat(32), fact: { x: 1 } } : d));
    const check = async (s: Store): Promise<void> => {
      const c = s.collection<StoredDocument>("strings");
      for (const d of expected) expect(JSON.stringify(await c.findOne({ _id: d._id }))).to.equal(JSON.stringify(d));
      expect((await c.find({ hash })).map((d) => d._id)).to.deep.equal(["a"]);
      expect((await c.find({ "fact.hash": { $gte: "cd", $lt: "cdg" } })).map((d) => d._id)).to.deep.equal(["a"]);
      expect((await c.find({}, { sort: { hash: -1 } })).map((d) => d._id)).to.deep.equal(["d", "c", "a", "b"]);
    };
    await check(store);
    await store.close();
    const db = new DatabaseSync(join(dir, SQLITE_FILE));
    const body = db.prepare("SELECT doc FROM strings WHERE _id = 'a'").get()?.doc as Uint8Array;
    db.close();
    const text = Buffer.from(body).subarray(1).toString();
    expect(body[0], "a collection this small stays plain JSON").to.equal(0);
    expect(text).to.equal('{"hash":0,"first":1,"fact":{"type":"t","hash":0,"after":true},"tags":["x","y"],"v":{"o":1}}');
    const reopened = await createStore({ dataDir: dir });
    await check(reopened);
    await reopened.close();
  });

  it("forgets a dictionary learned in a write that rolled back, and learns it again with the next documents", async function () {
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    const items = store.collection<Doc>("items");
    const batch = Array.from({ length: LEARN_AFTER + 10 }, (_, n) => doc(n));
    await expectStoreError(() => items.insertMany([...batch, doc(0)]), "DUPLICATE_KEY");
    expect(await items.count()).to.equal(0);
    await items.insertMany(batch.slice(0, 5));
    for (const d of batch.slice(5)) await items.insertOne(d);
    await store.close();
    expect(new Set(headers(join(dir, SQLITE_FILE), "items"))).to.deep.equal(new Set([1]));
    const reopened = await createStore({ dataDir: dir });
    expect(await reopened.collection<Doc>("items").find({})).to.deep.equal(batch);
    await reopened.close();
  });

  it("stores a 20 MB hex document among a collection's first 32, gives every document back exactly and keeps writing", async function () {
    // a Merkle leaf chunk of a large batch: one field holding a hex run of 20 million characters
    const chunk = (n: number, hexChars: number): StoredDocument & Record<string, unknown> => ({
      _id: `chunk-${String(n).padStart(3, "0")}`,
      treeId: createHash("sha256").update(`tree ${n}`).digest("hex").slice(0, 32),
      chunk: n,
      leaves: randomBytes(hexChars / 2).toString("hex"),
    });
    const docs = Array.from({ length: 40 }, (_, n) => chunk(n, n === 7 ? 20_000_000 : 64 * (1 + (n % 5))));
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    const chunks = store.collection<StoredDocument>("merkle_leaf_chunks");
    await chunks.ensureIndexes([{ fields: { treeId: 1 } }]);
    for (const d of docs) await chunks.insertOne(d); // the 32nd learns the dictionary
    const exact = async (s: Store, expected: readonly StoredDocument[]): Promise<void> => {
      const c = s.collection<StoredDocument>("merkle_leaf_chunks");
      for (const d of expected) expect(JSON.stringify(await c.findOne({ _id: d._id })) === JSON.stringify(d), d._id).to.equal(true);
    };
    await exact(store, docs);
    const later = Array.from({ length: 10 }, (_, n) => chunk(40 + n, 128));
    await chunks.insertMany(later);
    await chunks.updateOne({ _id: "chunk-007" }, { $set: { chunk: 700 } });
    const all = [...docs.map((d) => (d._id === "chunk-007" ? { ...d, chunk: 700 } : d)), ...later];
    await exact(store, all);
    await store.close();

    const file = join(dir, SQLITE_FILE);
    const db = new DatabaseSync(file);
    const dictionary = db.prepare("SELECT dictionary FROM _store_dictionaries WHERE collection = 'merkle_leaf_chunks'").get()
      ?.dictionary as Uint8Array;
    db.close();
    expect(dictionary.length).to.be.within(1, 4_096);
    expect(Buffer.from(dictionary).toString()).to.include('"chunk":');
    expect(headers(file, "merkle_leaf_chunks").filter((h) => h === 1)).to.have.length(all.length); // compressed, the large one too
    const reopened = await createStore({ dataDir: dir });
    await exact(reopened, all);
    await reopened.close();
  });

  it("stores documents plain when learning the dictionary fails (a damaged row among the first), warns once, and learns again on the next open", async function () {
    const dir = await freshDir();
    const file = join(dir, SQLITE_FILE);
    const first = await createStore({ dataDir: dir });
    await first.collection<Doc>("items").insertMany(Array.from({ length: 10 }, (_, n) => doc(n)));
    await first.close();
    // a row whose header names a dictionary the collection never had: it cannot be read, so it cannot be sampled
    const damage = new DatabaseSync(file);
    damage.prepare("UPDATE items SET doc = x'0500ff' WHERE _id = ?").run(doc(3)._id);
    damage.close();

    const warnings: Error[] = [];
    const listen = (warning: Error): void => {
      if ((warning as Error & { code?: string }).code === "STORE_DICTIONARY_NOT_LEARNED") warnings.push(warning);
    };
    process.on("warning", listen);
    try {
      const store = await createStore({ dataDir: dir });
      const items = store.collection<Doc>("items");
      for (let n = 10; n < 50; n++) await items.insertOne(doc(n)); // the 32nd tries to learn, and fails
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings).to.have.length(1);
      expect(warnings[0]?.message).to.include("collection items").and.to.include("STORE_CORRUPT");
      for (let n = 0; n < 50; n++) if (n !== 3) expect(await items.findOne({ _id: doc(n)._id })).to.deep.equal(doc(n));
      await store.close();
      expect(new Set(headers(file, "items"))).to.deep.equal(new Set([0, 5]));

      const repair = new DatabaseSync(file);
      repair.prepare("DELETE FROM items WHERE _id = ?").run(doc(3)._id);
      repair.close();
      const reopened = await createStore({ dataDir: dir });
      const again = reopened.collection<Doc>("items");
      await again.insertOne(doc(50)); // learns from the first 32 rows and compresses them
      await again.insertOne(doc(51)); // compressed when written
      expect(await again.find({})).to.deep.equal(Array.from({ length: 52 }, (_, n) => doc(n)).filter((_, n) => n !== 3));
      await reopened.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).to.have.length(1);
      // rows written plain before the dictionary, other than the 32 it was learned from, stay plain until rewritten
      expect(headers(file, "items")).to.deep.equal([...Array(32).fill(1), ...Array(18).fill(0), 1]);
    } finally {
      process.off("warning", listen);
    }
  });

  it("adds a column for an index declared on a collection holding documents, fills it from them and indexes it", async function () {
    const docs = Array.from({ length: 2_500 }, (_, n) => doc(n));
    const dir = await freshDir();
    const store = await createStore({ dataDir: dir });
    const items = store.collection<Doc>("items");
    await items.insertMany(docs);
    await expectStoreError(() => items.ensureIndexes([{ fields: { code: 1 }, unique: true }]), "DUPLICATE_KEY");
    await items.ensureIndexes(INDEXES);
    expect(await answers(store, "items")).to.deep.equal(await reference(docs));
    await store.close();

    const db = new DatabaseSync(join(dir, SQLITE_FILE));
    const columns = db
      .prepare("PRAGMA table_info(items)")
      .all()
      .map((c) => c.name);
    expect(columns).to.deep.equal(["_id", "doc", "@kind", "@slot", "@owner", "@tags"]); // no column left by the refused index
    expect(db.prepare('SELECT count(*) AS n FROM items WHERE "@slot" IS NULL OR "@kind" IS NULL').get()?.n).to.equal(0);
    expect(db.prepare('SELECT count(*) AS n FROM items WHERE "@owner" IS NOT NULL').get()?.n).to.equal(834);
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT _id FROM items WHERE "@slot" = 1005')
      .all()
      .map((row) => String(row.detail));
    expect(plan.join(" ")).to.include("items__slot");
    expect(
      db
        .prepare("SELECT path FROM _store_multikey")
        .all()
        .map((row) => row.path),
    ).to.deep.equal(["tags"]);
    db.close();
  });

  it("sorts on a path without a column in the order an indexed column gives, across types", async function () {
    const values: unknown[] = [
      undefined,
      null,
      -1,
      0,
      2.5,
      true,
      false,
      10,
      "",
      "a",
      "b",
      "B",
      "é",
      "😀",
      "\uffff",
      "z",
      { o: 1 },
      1e21,
      -0.5,
    ];
    const store = await createStore({ inMemory: true });
    const indexed = store.collection<Doc>("indexed");
    await indexed.ensureIndexes([{ fields: { v: 1 } }]);
    const plain = store.collection<Doc>("plain");
    const docs = values.map((v, i) => ({ _id: `v${String(values.length - i).padStart(2, "0")}`, ...(v === undefined ? {} : { v }) }));
    await indexed.insertMany([...docs, ...docs.map((d) => ({ ...d, _id: `${d._id}b` }))]);
    await plain.insertMany([...docs, ...docs.map((d) => ({ ...d, _id: `${d._id}b` }))]);
    for (const sort of [{ v: 1 }, { v: -1 }] as const) {
      const expected = (await indexed.find({}, { sort })).map((d) => d._id);
      expect((await plain.find({}, { sort })).map((d) => d._id)).to.deep.equal(expected);
      expect((await plain.find({}, { sort, skip: 5, limit: 9 })).map((d) => d._id)).to.deep.equal(expected.slice(5, 14));
    }
    await store.close();
  });
});
