/**
 * Merkle batches (docs/merkle-batches.md) with 1,000,000 hashes, each figure beside its floor measured in the same
 * run:
 * - tree: the whole tree (leaf and node hashes, levels, tree id), against the same SHA-256 inputs hashed with nothing
 *   else by node:crypto's one-shot `hash` and by @noble/hashes' `sha256` (the tree hashes with its own fixed-length
 *   SHA-256, sha256-fixed.ts, kept while the audited library costs more than a fifth of the build rate:
 *   docs/merkle-batches.md#figures);
 * - store: saving the tree (chunks, leaf index, upper levels) in the embedded store, and proof lookups by hash;
 * - build over HTTP: `POST /batch/build` with the hashes as application/octet-stream on the embedded mesh (tree,
 *   storage and the anchoring transaction), against the floor of a one-certificate `/transaction/build`; then the
 *   same size as JSON (the body built outside the timing);
 * - memory: the process's peak RSS (the benchmark, the embedded mesh and devnet together) before and after each
 *   HTTP build, and the heap at the end.
 * MERKLE_BENCH_LEAVES overrides the leaf count.
 */
import { sha256 } from "@noble/hashes/sha2";
import { createHash, hash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { percentile } from "./percentile";
import { buildTree, checkInclusionProof, MERKLE_SCHEME, MerkleTreeStore } from "../shared/merkle";
import { createStore } from "../shared/store";
import { http } from "../fixtures/mesh/helpers";
import { IssuanceWorld } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import { DataHash } from "../shared/domain/hex";

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const ms = (t0: number) => Math.round(performance.now() - t0);

/** The SHA-256 calls of a tree of these leaves (n leaves of 33 bytes, n − 1 nodes of 65), through `sha`, in ms. */
function treeHashing(leaves: Buffer, sha: (message: Uint8Array) => Uint8Array): number {
  const n = leaves.length / 32;
  const t0 = performance.now();
  const leafInput = Buffer.alloc(33);
  for (let i = 0; i < n; i++) {
    leaves.copy(leafInput, 1, i * 32, i * 32 + 32);
    sha(leafInput);
  }
  const nodeInput = Buffer.alloc(65);
  for (let i = 0; i < n - 1; i++) sha(nodeInput);
  return ms(t0);
}

export default async function (): Promise<Record<string, unknown>> {
  const n = Number(process.env["MERKLE_BENCH_LEAVES"] ?? 1_000_000);
  const leaves = randomBytes(n * 32);

  // Tree alone, and the same hashing through node:crypto and through @noble/hashes.
  const nodeCryptoMs = treeHashing(leaves, (message) => hash("sha256", message, "buffer"));
  const nobleMs = treeHashing(leaves, sha256);
  let t0 = performance.now();
  const tree = buildTree(leaves);
  const treeMs = ms(t0);
  const pathLength = tree.levels.length - 1;

  // Storage and lookups on the in-memory store.
  const store = await createStore({ inMemory: true });
  const trees = await MerkleTreeStore.open(store);
  t0 = performance.now();
  // saved as the build saves it, then indexed as the verifier does once the root is anchored
  await trees.save(tree, { expiresAt: Date.now() + 3_600_000, owner: "bench" });
  await trees.markAnchored(tree.treeId, DataHash(tree.root.toString("hex")), tree.leafCount);
  const saveMs = ms(t0);
  const lookupMs: number[] = [];
  let proofBytes = 0;
  for (let k = 0; k < 200; k++) {
    const i = (k * 7919 * 131) % n;
    const leaf = leaves.subarray(i * 32, i * 32 + 32).toString("hex");
    const t = performance.now();
    const [found] = await trees.findLeaf(DataHash(leaf));
    lookupMs.push(performance.now() - t);
    const proof = { scheme: MERKLE_SCHEME, leaf, leafIndex: found!.leafIndex, treeSize: n, path: found!.path, root: found!.root };
    if (!checkInclusionProof(proof).valid) throw new Error(`proof of leaf ${i} does not check`);
    proofBytes = Math.max(proofBytes, Buffer.byteLength(JSON.stringify(proof)));
  }
  await store.close();

  // The whole route over HTTP on the embedded mesh.
  const w = await IssuanceWorld.create();
  try {
    const alice = w.f.actors.alice;
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 100_000n }));
    await w.ensureCollateral(alice);
    const single = async () => {
      const t = performance.now();
      const res = await http(`${w.mesh.api}/transaction/build`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          address: alice.address,
          certificates: [{ hash: createHash("sha256").update(randomBytes(8)).digest("hex") }],
        }),
      });
      if (res.status !== 200) throw new Error(`single build: ${res.status} ${res.text}`);
      return performance.now() - t;
    };
    const singleMs = [await single(), await single(), await single()];
    const rssBefore = process.resourceUsage().maxRSS * 1024;
    t0 = performance.now();
    const res = await http(`${w.mesh.api}/batch/build?address=${alice.address}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: leaves,
    });
    const httpMs = ms(t0);
    if (res.status !== 200) throw new Error(`batch build: ${res.status} ${res.text.slice(0, 300)}`);
    const rssAfter = process.resourceUsage().maxRSS * 1024;

    // The same size as JSON (68 MB of quoted hex), from another wallet so the two builds do not share inputs.
    const bob = w.f.actors.bob;
    await w.ensureCollateral(bob);
    const other = randomBytes(n * 32);
    const hexes: string[] = [];
    for (let i = 0; i < n; i++) hexes.push(other.toString("hex", i * 32, i * 32 + 32));
    const jsonBody = JSON.stringify({ address: bob.address, hashes: hexes });
    t0 = performance.now();
    let jsonMs: number | string;
    try {
      const jsonRes = await http(`${w.mesh.api}/batch/build`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: jsonBody,
      });
      jsonMs = jsonRes.status === 200 ? ms(t0) : `status ${jsonRes.status}: ${jsonRes.text.slice(0, 200)}`;
    } catch (err) {
      // Reported, not thrown: the byte figures above stand on their own.
      jsonMs = `failed after ${ms(t0)} ms: ${String((err as { cause?: unknown }).cause ?? err)}`;
    }
    const rssAfterJson = process.resourceUsage().maxRSS * 1024;
    return {
      leaves: n,
      tree: {
        ms: treeMs,
        nodeCryptoSha256Ms: nodeCryptoMs,
        ratioToNodeCrypto: Math.round((treeMs / Math.max(nodeCryptoMs, 1)) * 100) / 100,
        nobleSha256Ms: nobleMs,
        ratioToNoble: Math.round((treeMs / Math.max(nobleMs, 1)) * 100) / 100,
      },
      store: {
        saveMs,
        proofLookupP50Ms: percentile(lookupMs, 50),
        proofLookupP99Ms: percentile(lookupMs, 99),
        maxPathHashes: pathLength,
        maxProofJsonBytes: proofBytes,
      },
      buildOverHttp: {
        ms: httpMs,
        jsonMs,
        jsonBodyMb: mb(Buffer.byteLength(jsonBody)),
        oneCertificateBuildFloorMs: Math.round(percentile(singleMs, 50)),
        ratioToFloor: Math.round((httpMs / Math.max(percentile(singleMs, 50), 1)) * 10) / 10,
      },
      memory: {
        peakRssBeforeMb: mb(rssBefore),
        peakRssAfterBytesBuildMb: mb(rssAfter),
        peakRssAfterJsonBuildMb: mb(rssAfterJson),
        heapUsedAfterMb: mb(process.memoryUsage().heapUsed),
      },
    };
  } finally {
    await w.close();
  }
}
