/**
 * Merkle batches at scale (docs/merkle-batches.md#figures). BATCHES batches of LEAVES random leaves each (default
 * 10 × 1,000,000) are built and saved one after another through `MerkleTreeStore.save`, the code path of
 * `POST /batch/build`, in the store that `createStore` gives for the environment (`readStoreConfig`: MONGO_URL,
 * DATA_DIR, STORE_IN_MEMORY; without any, SQLite files in a fresh temporary directory, removed afterwards; an
 * explicit DATA_DIR is kept). After each batch: the process's RSS and live heap (after a collection when node runs
 * with --expose-gc) and the store's bytes on disk, so memory can be seen not to grow with the leaves stored.
 *
 *   npm run bench merkle-proof                                   10 batches of 1,000,000 (10 million leaves)
 *   npm run bench merkle-proof -- --batches=100 --leaves=1000000 the scale mode of issue 17
 *   DATA_DIR=dir npm run bench merkle-proof -- --batches=0        only the lookups, on the trees already stored in dir
 *   (also PROOF_BENCH_BATCHES, PROOF_BENCH_TREE_LEAVES, PROOF_BENCH_LOOKUPS, PROOF_BENCH_MAX_MINUTES: storing
 *   stops after that many minutes and the figures are for what was stored)
 *
 * Then LOOKUPS leaves drawn at random from all stored batches (a random stored chunk of a random tree, read back
 * from the store) are looked up as `GET /proof/{hash}` does, each proof checked, beside the floor of one document
 * read by `_id` in the same store; and the same leaves are asked over HTTP, `GET /api/v1/proof/{hash}` through the
 * embedded gateway and verifier on that store (each tree's root anchored by a certificate record written into the
 * verifier's projection), one request at a time, alternating with `GET /api/v1/extensions` as the ceiling of a
 * trivial route through the same gateway.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes, randomInt } from "node:crypto";
import { performance } from "node:perf_hooks";
import { round2 } from "./figures";
import { percentile } from "./percentile";
import { buildTree, CHUNK_LEAVES, checkInclusionProof, MERKLE_SCHEME, MerkleTreeStore } from "../shared/merkle";
import { createStore, readStoreConfig, type Store } from "../shared/store";
import { FactLog } from "../shared/indexer/fact-log";
import { gatewayBroker } from "./read-path.bench";
import type { Ratio } from "./run";
import { DataHash } from "../shared/domain/hex";

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** `--name=value` or `--name value` from the command line, else the environment variable, else the default. */
function option(name: string, envName: string, fallback: number): number {
  const args = process.argv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}` && args[i + 1] !== undefined) return Number(args[i + 1]);
    if (args[i]!.startsWith(`--${name}=`)) return Number(args[i]!.slice(name.length + 3));
  }
  const env = process.env[envName];
  return env === undefined || env === "" ? fallback : Number(env);
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

interface TreeRow {
  _id: string;
  root: string;
  leafCount: number;
}

/** A leaf drawn at random from all stored trees: a random chunk of a random tree, read back from the store. */
async function randomStoredLeaf(store: Store, trees: TreeRow[]): Promise<string> {
  const tree = trees[randomInt(trees.length)]!;
  const chunk = randomInt(Math.ceil(tree.leafCount / CHUNK_LEAVES));
  const doc = await store.collection<{ _id: string; leaves: string }>("merkle_leaf_chunks").findOne({ _id: `${tree._id}:${chunk}` });
  if (!doc) throw new Error(`chunk ${chunk} of tree ${tree._id} is not stored`);
  const k = randomInt(doc.leaves.length / 64);
  return doc.leaves.slice(k * 64, k * 64 + 64);
}

/** One certificate fact per tree anchoring its root, in its own block, as the indexer records a confirmed batch. */
async function anchorAll(store: Store, trees: TreeRow[]): Promise<void> {
  const log = await FactLog.open(store);
  for (const [i, t] of trees.entries()) {
    const txId = randomBytes(32).toString("hex");
    const block = {
      point: { slot: i + 1, id: randomBytes(32).toString("hex") },
      height: i + 1,
      time: 1_700_000_000_000 + i * 1000,
      transactions: [{ id: txId, fee: 200_000n, valid: true }],
      facts: [
        {
          txId,
          fact: {
            type: "certificate.issued" as const,
            position: 0,
            hash: t.root,
            algorithm: MERKLE_SCHEME,
            issuer: "d4".repeat(28),
            metadata: JSON.stringify({ merkle: { treeId: t._id, leafCount: t.leafCount } }),
            stateId: "f6".repeat(32),
            bootstrapName: "default",
            purpose: "UPDATE_STATE" as const,
          },
        },
      ],
    };
    log.stageTransactions(block);
    log.stageBlock(block);
  }
  await log.flush();
}

export default async function (): Promise<Record<string, unknown>> {
  const batches = option("batches", "PROOF_BENCH_BATCHES", 10);
  const perBatch = option("leaves", "PROOF_BENCH_TREE_LEAVES", 1_000_000);
  const lookups = option("lookups", "PROOF_BENCH_LOOKUPS", 1_000);
  const maxMinutes = option("max-minutes", "PROOF_BENCH_MAX_MINUTES", Infinity);
  const config = readStoreConfig(process.env);
  const explicit = config.mongoUrl !== undefined || config.inMemory === true || config.dataDir !== undefined;
  const tempDir = explicit ? undefined : mkdtempSync(join(tmpdir(), "merkle-proof-bench-"));
  const dataDir = tempDir ?? config.dataDir;
  const store = await createStore(tempDir ? { ...config, dataDir: tempDir } : config);
  const gc = (globalThis as { gc?: () => void }).gc;
  try {
    const trees = await MerkleTreeStore.open(store);
    const treeDocs = store.collection<TreeRow>("merkle_trees");
    const perBatchFigures: { batch: number; ms: number; rssMb: number; heapMb: number; diskMb?: number }[] = [];
    const t0 = performance.now();
    for (let b = 0; b < batches; b++) {
      if ((performance.now() - t0) / 60_000 >= maxMinutes) break;
      const started = performance.now();
      // saved as the build saves it, then indexed as the verifier does once the root is anchored
      const tree = buildTree(randomBytes(perBatch * 32));
      await trees.save(tree, { expiresAt: Date.now() + 3_600_000, owner: "bench" });
      await trees.markAnchored(tree.treeId, DataHash(tree.root.toString("hex")), tree.leafCount);
      const ms = Math.round(performance.now() - started);
      gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      const row = { batch: b + 1, ms, rssMb: mb(rss), heapMb: mb(heapUsed), ...(dataDir ? { diskMb: mb(bytesUnder(dataDir)) } : {}) };
      perBatchFigures.push(row);
      process.stderr.write(`merkle-proof: ${JSON.stringify(row)}\n`);
    }
    const storeMs = Math.round(performance.now() - t0);
    const stored = await treeDocs.find({});
    const leavesStored = stored.reduce((s, t) => s + t.leafCount, 0);
    const diskBytes = dataDir ? bytesUnder(dataDir) : undefined;

    const sample: string[] = [];
    for (let i = 0; i < lookups; i++) sample.push(await randomStoredLeaf(store, stored));
    const lookupMs: number[] = [];
    const floorMs: number[] = [];
    for (const leaf of sample) {
      let t = performance.now();
      const [found] = await trees.findLeaf(DataHash(leaf));
      lookupMs.push(performance.now() - t);
      if (!found) throw new Error(`leaf ${leaf} not found`);
      const proof = {
        scheme: MERKLE_SCHEME,
        leaf,
        leafIndex: found.leafIndex,
        treeSize: found.treeSize,
        path: found.path,
        root: found.root,
      };
      if (!checkInclusionProof(proof).valid) throw new Error(`the proof of ${leaf} does not check`);
      t = performance.now();
      await treeDocs.findOne({ _id: stored[0]!._id });
      floorMs.push(performance.now() - t);
    }

    // Over HTTP: the embedded gateway and verifier on the same store.
    await anchorAll(store, stored);
    const gw = await gatewayBroker({}, ["gateway", "verifier"], store, await FactLog.open(store));
    const httpMs: number[] = [];
    const trivialMs: number[] = [];
    try {
      const get = async (url: string, into: number[]) => {
        const t = performance.now();
        const res = await fetch(url);
        const body = (await res.json()) as unknown;
        into.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${JSON.stringify(body)}`);
        return body;
      };
      // Other random leaves than the store-side lookups read, so their pages are not freshly cached.
      const httpSample: string[] = [];
      for (let i = 0; i < lookups; i++) httpSample.push(await randomStoredLeaf(store, stored));
      for (const leaf of httpSample.slice(0, 20)) await get(`${gw.api}/proof/${leaf}`, []); // warm-up
      for (const leaf of httpSample) {
        const body = (await get(`${gw.api}/proof/${leaf}`, httpMs)) as { path: string[] }[];
        if (!Array.isArray(body) || body.length === 0) throw new Error(`no proof for ${leaf}`);
        await get(`${gw.api}/extensions`, trivialMs);
      }
    } finally {
      await gw.broker.stop();
    }

    const p = (xs: number[], q: number) => round2(percentile(xs, q));
    const rss = perBatchFigures.map((r) => r.rssMb);
    const heap = perBatchFigures.map((r) => r.heapMb);
    const half = Math.floor(perBatchFigures.length / 2);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
    const leaves = leavesStored.toLocaleString("en");
    const ratios: Record<string, Ratio> = {
      proofLookupP99VsDocumentRead: {
        value: round2(p(lookupMs, 99) / Math.max(p(floorMs, 99), 0.01)),
        lowerIsBetter: true,
        figure: `p99 ${p(lookupMs, 99)} ms per proof lookup with ${leaves} leaves stored (${store.kind})`,
        reference: `p99 ${p(floorMs, 99)} ms, one document read by _id in the same store`,
      },
      httpProofP99VsTrivialRoute: {
        value: round2(p(httpMs, 99) / Math.max(p(trivialMs, 99), 0.01)),
        lowerIsBetter: true,
        figure: `p99 ${p(httpMs, 99)} ms per GET /api/v1/proof/{hash} with ${leaves} leaves stored (embedded gateway, ${store.kind})`,
        reference: `p99 ${p(trivialMs, 99)} ms, GET /api/v1/extensions through the same gateway`,
      },
    };
    if (perBatchFigures.length >= 4)
      ratios["rssLastHalfVsFirstHalf"] = {
        value: round2(mean(rss.slice(half)) / mean(rss.slice(0, half))),
        lowerIsBetter: true,
        figure: `mean RSS ${Math.round(mean(rss.slice(half)))} MB after batches ${half + 1}–${rss.length}`,
        reference: `mean RSS ${Math.round(mean(rss.slice(0, half)))} MB after batches 1–${half} (flat memory: ≈ 1)`,
      };
    return {
      storeKind: store.kind,
      batchesStored: perBatchFigures.length,
      leavesPerBatch: perBatch,
      leavesStored,
      buildAndStoreMs: storeMs,
      msPerBatch: { mean: Math.round(mean(perBatchFigures.map((r) => r.ms))), max: Math.max(0, ...perBatchFigures.map((r) => r.ms)) },
      ...(perBatchFigures.length === 0
        ? {}
        : {
            rssMb: { min: Math.min(...rss), max: Math.max(...rss), first: rss[0], last: rss[rss.length - 1] },
            heapUsedMb: { min: Math.min(...heap), max: Math.max(...heap), first: heap[0], last: heap[heap.length - 1] },
          }),
      ...(diskBytes === undefined ? {} : { diskMb: mb(diskBytes), diskBytesPerLeaf: round2(diskBytes / Math.max(1, leavesStored)) }),
      perBatch: perBatchFigures,
      lookups: sample.length,
      proofLookupMs: { p50: p(lookupMs, 50), p99: p(lookupMs, 99), max: round2(Math.max(...lookupMs)) },
      documentReadMs: { p50: p(floorMs, 50), p99: p(floorMs, 99) },
      httpProofMs: { p50: p(httpMs, 50), p99: p(httpMs, 99), max: round2(Math.max(...httpMs)) },
      httpTrivialRouteMs: { p50: p(trivialMs, 50), p99: p(trivialMs, 99) },
      ratios,
    };
  } finally {
    await store.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}
