// Store throughput on the embedded SQLite adapter, in memory and on files, through the port (checks included).
// Workload as in notes/moleculer-stack.md §4: ~300 B documents, a unique email index and a city index.
// STORE_BENCH_DOCS overrides the document count (default 100k).
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createLeaseTable, createStore, type LeaseDocument, type Store, type StoredDocument } from "../shared/store";

interface Person extends StoredDocument {
  email: string;
  age: number;
  city: string;
  tags: string[];
  profile: { score: number; bio: string };
  createdAt: number;
  lovelace: string;
}

const CITIES = ["paris", "rome", "oslo", "kyiv", "lima", "pune", "nara", "bonn"];

function person(i: number): Person {
  return {
    _id: `p${i}`,
    email: `user${i}@example.org`,
    age: 18 + (i % 60),
    city: CITIES[i % CITIES.length] as string,
    tags: [`t${i % 7}`, `t${i % 11}`],
    profile: { score: (i * 7919) % 1000, bio: "x".repeat(120) },
    createdAt: 1_700_000_000_000 + i,
    lovelace: String(1_000_000n * BigInt(i)),
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: Math.round(performance.now() - started), value };
}

const perSecond = (count: number, ms: number): number => Math.round((count / Math.max(ms, 1)) * 1000);

async function workload(store: Store, docs: number): Promise<Record<string, unknown>> {
  const people = store.collection<Person>("people");
  await people.ensureIndexes([{ fields: { email: 1 }, unique: true }, { fields: { city: 1 } }]);

  const bulk = await timed(async () => {
    for (let i = 0; i < docs; i += 1000) {
      await people.insertMany(Array.from({ length: Math.min(1000, docs - i) }, (_, j) => person(i + j)));
    }
  });
  const lookups = 10_000;
  const byEmail = await timed(async () => {
    for (let i = 0; i < lookups; i++) await people.findOne({ email: `user${(i * 37) % docs}@example.org` });
  });
  const rangeQueries = 200;
  const range = await timed(async () => {
    for (let i = 0; i < rangeQueries; i++) {
      await people.find({ city: CITIES[i % CITIES.length] as string, age: { $gte: 30 } }, { sort: { age: -1 }, limit: 20 });
    }
  });
  const scans = 20;
  const fullScan = await timed(async () => {
    for (let i = 0; i < scans; i++) await people.count({ "profile.score": { $gte: 990 - i } });
  });
  const updates = 10_000;
  const byId = await timed(async () => {
    for (let i = 0; i < updates; i++) await people.updateOne({ _id: `p${(i * 13) % docs}` }, { $set: { city: "lyon" }, $inc: { age: 1 } });
  });
  const singles = 5_000;
  const singleInserts = await timed(async () => {
    for (let i = 0; i < singles; i++) await people.insertOne(person(docs + i));
  });
  const leases = await createLeaseTable(store.collection<LeaseDocument>("leases"), () => 1_000_000);
  const claims = 2_000;
  const leaseClaims = await timed(async () => {
    for (let i = 0; i < claims; i++) await leases.acquire([`u${i}#0`, `u${i}#1`, `u${i}#2`], `tx${i}`, 60_000);
  });

  return {
    docs,
    bulkInsertMs: bulk.ms,
    bulkInsertPerSec: perSecond(docs, bulk.ms),
    indexedLookupsByEmail: { count: lookups, ms: byEmail.ms, perSec: perSecond(lookups, byEmail.ms) },
    indexedRangeSortedLimit20: { count: rangeQueries, ms: range.ms, perQueryMs: +(range.ms / rangeQueries).toFixed(2) },
    unindexedFullScanCount: { count: scans, ms: fullScan.ms, perQueryMs: +(fullScan.ms / scans).toFixed(1) },
    updatesById: { count: updates, ms: byId.ms, perSec: perSecond(updates, byId.ms) },
    singleInsertsAwaited: { count: singles, ms: singleInserts.ms, perSec: perSecond(singles, singleInserts.ms) },
    leaseAcquires3Keys: { count: claims, ms: leaseClaims.ms, perSec: perSecond(claims, leaseClaims.ms) },
  };
}

export default async function (): Promise<Record<string, unknown>> {
  const docs = Number(process.env.STORE_BENCH_DOCS ?? 100_000);

  const memory = await createStore({ inMemory: true });
  const inMemory = await workload(memory, docs);
  await memory.close();

  const dir = await mkdtemp(join(tmpdir(), "store-bench-"));
  try {
    const files = await createStore({ dataDir: dir });
    const onFiles = await workload(files, docs);
    const close = await timed(() => files.close()); // checkpoints the write-ahead log into store.sqlite
    let fileBytes = 0;
    for (const name of await readdir(dir)) if (name !== "LOCK") fileBytes += (await stat(join(dir, name))).size;
    const reopened = await createStore({ dataDir: dir });
    const reopen = await timed(() => reopened.collection<Person>("people").count());
    await reopened.close();
    return {
      sqliteInMemory: inMemory,
      sqliteFiles: { ...onFiles, closeMs: close.ms, storeFilesMB: +(fileBytes / 1e6).toFixed(1), reopenAndCountMs: reopen.ms },
      rssMB: Math.round(process.memoryUsage().rss / 1e6),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
