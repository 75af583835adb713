/**
 * Proof lookups with many leaves stored (docs/merkle-batches.md#figures): PROOF_BENCH_LEAVES leaves (default
 * 10,000,000) saved as trees of PROOF_BENCH_TREE_LEAVES (default 1,000,000) in the store that `createStore` gives
 * for the environment (`readStoreConfig`: MONGO_URL, STORE_ENGINE, DATA_DIR, STORE_IN_MEMORY, …; without any, SQLite in a
 * fresh temporary directory), then PROOF_BENCH_LOOKUPS random stored leaves (default 1,000) looked up as
 * `GET /proof/{hash}` does (leaf index → tree → chunk → path), each proof checked. Beside it, the floor measured in
 * the same run on the same store: one document read by `_id`. Reported: p50 / p99 of both, and their ratio.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes, randomInt } from "node:crypto";
import { performance } from "node:perf_hooks";
import { percentile } from "./percentile";
import { buildTree, checkInclusionProof, MERKLE_SCHEME, MerkleTreeStore } from "../shared/merkle";
import { createStore, readStoreConfig } from "../shared/store";
import type { Ratio } from "./run";

const round2 = (x: number) => Math.round(x * 100) / 100;

export default async function (): Promise<Record<string, unknown>> {
  const total = Number(process.env["PROOF_BENCH_LEAVES"] ?? 10_000_000);
  const perTree = Math.min(total, Number(process.env["PROOF_BENCH_TREE_LEAVES"] ?? 1_000_000));
  const lookups = Number(process.env["PROOF_BENCH_LOOKUPS"] ?? 1_000);
  const config = readStoreConfig(process.env);
  const explicit = config.mongoUrl !== undefined || config.inMemory === true || config.dataDir !== undefined;
  const tempDir = explicit ? undefined : mkdtempSync(join(tmpdir(), "merkle-proof-bench-"));
  const store = await createStore(tempDir ? { ...config, dataDir: tempDir } : config);
  try {
    const trees = await MerkleTreeStore.open(store);
    // A sample of stored leaves to look up: kept as hashes, the trees themselves are dropped after saving.
    const sample: { leaf: string; tree: number }[] = [];
    const treeCount = Math.ceil(total / perTree);
    const t0 = performance.now();
    for (let t = 0; t < treeCount; t++) {
      const n = Math.min(perTree, total - t * perTree);
      const leaves = randomBytes(n * 32);
      const tree = buildTree(leaves);
      await trees.save(tree);
      for (let k = 0; k < Math.ceil(lookups / treeCount); k++) {
        const i = randomInt(n);
        sample.push({ leaf: leaves.toString("hex", i * 32, i * 32 + 32), tree: t });
      }
    }
    const storeMs = Math.round(performance.now() - t0);
    const heapMb = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);

    const lookupMs: number[] = [];
    const floorMs: number[] = [];
    const docs = store.collection<{ _id: string }>("merkle_trees");
    const [someTree] = await docs.find({}, { limit: 1 });
    for (const { leaf } of sample) {
      let t = performance.now();
      const [found] = await trees.findLeaf(leaf);
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
      await docs.findOne({ _id: someTree!._id });
      floorMs.push(performance.now() - t);
    }
    const p = (xs: number[], q: number) => round2(percentile(xs, q));
    const ratios: Record<string, Ratio> = {
      proofLookupP99VsDocumentRead: {
        value: round2(p(lookupMs, 99) / Math.max(p(floorMs, 99), 0.01)),
        lowerIsBetter: true,
        figure: `p99 ${p(lookupMs, 99)} ms per proof lookup with ${total.toLocaleString("en")} leaves stored (${store.kind})`,
        reference: `p99 ${p(floorMs, 99)} ms, one document read by _id in the same store`,
      },
    };
    return {
      storeKind: store.kind,
      leavesStored: total,
      trees: treeCount,
      buildAndStoreMs: storeMs,
      heapUsedMbAfterStoring: heapMb,
      lookups: sample.length,
      proofLookupMs: { p50: p(lookupMs, 50), p99: p(lookupMs, 99), max: round2(Math.max(...lookupMs)) },
      documentReadMs: { p50: p(floorMs, 50), p99: p(floorMs, 99) },
      ratios,
    };
  } finally {
    await store.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}
