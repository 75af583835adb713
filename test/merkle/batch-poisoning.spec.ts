/**
 * The leaf-index poisoning attack on Merkle batches, end to end on the embedded mesh and the devnet: a funded
 * stranger builds (and never signs) a batch whose leaves all share the first hex digits of a hash anchored by
 * someone else, to make every lookup of that prefix scan their leaves, and leaves it in the store for good.
 * - an unsigned build takes no part in lookups: a lookup of the victim's hash reads no more of the stored trees
 *   than before the attack (what a lookup reads is counted on the store, not timed);
 * - once the attacker pays and anchors it, a lookup still reads one bounded bucket of their tree;
 * - what one client may have hashed and waiting is bounded (429 BATCH_QUOTA_EXCEEDED, before any hashing);
 * - an unsigned build's tree is dropped once the chain is past its transaction's validity.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { IssuanceWorld, type BuildBody } from "../../fixtures/issuance/issuance-world";
import { readCountingStore, type ReadCountingStore } from "../../fixtures/merkle/read-counting-store";
import { checkInclusionProof, MERKLE_SCHEME } from "../../shared/merkle";
import { createStore } from "../../shared/store";
import type { AnchoredProof, BatchRecord } from "../../shared/verifier/batch-lookup";

type BatchBody = BuildBody & { merkleRoot?: string; treeId?: string; leafCount?: number };

const hex = (b: Buffer) => b.toString("hex");

/** `count` random leaves whose first two bytes (four hex digits) are those of `like`. */
function sharingPrefix(count: number, like: Buffer): Buffer {
  const leaves = randomBytes(32 * count);
  for (let i = 0; i < count; i++) like.copy(leaves, i * 32, 0, 2);
  return leaves;
}

const ATTACK_LEAVES = 200_000;
const LEAVES_PER_CLIENT = 450_000;

describe("merkle batches: leaf-index poisoning by unsigned builds", function () {
  this.timeout(300_000);
  let w: IssuanceWorld;
  let reads: ReadCountingStore;
  const api = () => w.mesh.api;
  const buildBatchBytes = (bytes: Buffer, address: string): Promise<HttpResult> =>
    http(`${api()}/batch/build?address=${address}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: bytes,
    });
  const verify = (hash: string) => http(`${api()}/verify/${hash}`);
  const proof = (hash: string) => http(`${api()}/proof/${hash}`);
  /** Characters of stored trees read by one proof of `hash` (the gateway may answer a verify from memory). */
  const lookupReads = async (hash: string): Promise<number> => {
    reads.reset();
    expect((await proof(hash)).status).to.equal(200);
    return reads.charactersRead();
  };
  let victimLeaf: Buffer;
  let readsBefore: number;

  before(async () => {
    w = await IssuanceWorld.create(undefined, { BATCH_LEAVES_PER_CLIENT: String(LEAVES_PER_CLIENT) }, async () => {
      reads = readCountingStore(await createStore({ inMemory: true }), (name) => name.startsWith("merkle_"));
      return reads.store;
    });
    await w.mintDefaultBootstrap();
    await w.ensureCollateral(w.f.actors.alice);
    await w.ensureCollateral(w.f.actors.bob);
    // the victim: alice anchors 2,000 hashes
    const leaves = randomBytes(32 * 2_000);
    victimLeaf = leaves.subarray(32 * 1_234, 32 * 1_235);
    const body = (await buildBatchBytes(leaves, w.f.actors.alice.address)).json as BatchBody;
    await w.confirm(await w.signAndSubmit(body.unsignedTransaction!, [w.f.actors.alice]));
    await pollUntil(async () => ((await proof(hex(victimLeaf))).status === 200 ? true : undefined), "the victim's leaf proves");
    readsBefore = await lookupReads(hex(victimLeaf));
  });
  after(() => w?.close());

  it("an unsigned build of 200,000 leaves sharing the victim's prefix takes no part in lookups: they read what they read before", async () => {
    const attack = Buffer.concat([sharingPrefix(ATTACK_LEAVES, victimLeaf), victimLeaf]);
    const res = await buildBatchBytes(attack, w.f.actors.bob.address);
    expect(res.status, res.text).to.equal(200);
    const after = await lookupReads(hex(victimLeaf));
    expect(after, `read ${after} characters of stored trees, ${readsBefore} before the attack`).to.equal(readsBefore);
    const answer = (await verify(hex(victimLeaf))).json as BatchRecord[];
    expect(answer.map((r) => r.issuer)).to.deep.equal([w.f.actors.alice.paymentKeyHash]);
  });

  it("once the attacker pays and anchors it, a lookup reads one bounded bucket of their tree and proves both batches", async () => {
    const attack = Buffer.concat([sharingPrefix(ATTACK_LEAVES, victimLeaf), victimLeaf]);
    const body = (await buildBatchBytes(attack, w.f.actors.bob.address)).json as BatchBody;
    expect(body.status.code, body.status.message).to.equal("SUCCESS");
    await w.confirm(await w.signAndSubmit(body.unsignedTransaction!, [w.f.actors.bob]));
    const proofs = await pollUntil(async () => {
      const res = await proof(hex(victimLeaf));
      return res.status === 200 && (res.json as AnchoredProof[]).length === 2 ? (res.json as AnchoredProof[]) : undefined;
    }, "both batches prove the leaf");
    for (const p of proofs) {
      expect(p.scheme).to.equal(MERKLE_SCHEME);
      expect(checkInclusionProof(p).valid).to.equal(true);
    }
    expect(proofs.map((p) => p.leafIndex).sort((a, b) => a - b)).to.deep.equal([1_234, ATTACK_LEAVES]);
    // the attacker's tree adds one bucket (≤ 1,024 leaves of 72 characters) and one chunk to what a lookup reads
    const after = await lookupReads(hex(victimLeaf));
    expect(after - readsBefore, `read ${after} characters of stored trees, ${readsBefore} before`).to.be.below(2 * 200_000);
  });

  it("refuses a batch over what one client may have hashed and waiting with 429 BATCH_QUOTA_EXCEEDED, before hashing it", async () => {
    // this client (127.0.0.1) hashed 2,001 + 2 × 200,001 leaves in this window; 200,001 of them wait unsigned
    const res = await buildBatchBytes(randomBytes(32 * 60_000), w.f.actors.bob.address);
    expect(res.status, res.text).to.equal(429);
    const e = errorBody(res);
    expect(e.error).to.equal("BATCH_QUOTA_EXCEEDED");
    expect(e.message).to.match(/450,000/);
    expect(res.headers.get("retry-after")).to.match(/^\d+$/);
    const small = await postJson(`${api()}/batch/build`, { address: w.f.actors.bob.address, hashes: [hex(randomBytes(32))] });
    expect(small.status, small.text).to.equal(200);
  });

  it("drops an unsigned build's tree once the chain is past its transaction's validity, with its leaves", async () => {
    const res = await buildBatchBytes(randomBytes(32 * 300), w.f.actors.alice.address);
    const { treeId } = res.json as BatchBody;
    const trees = w.store.collection("merkle_trees");
    const chunks = w.store.collection("merkle_leaf_chunks");
    expect(await trees.findOne({ _id: treeId! })).to.not.equal(undefined);
    // 600 slots of validity, the 10 minutes' grace, and a minute to spare
    w.f.chain.advanceSlots(600 + 600 + 60);
    w.f.chain.devnet.produceEmptyBlocks(1);
    await pollUntil(async () => ((await trees.findOne({ _id: treeId! })) === undefined ? true : undefined), "the expired tree dropped");
    expect(await chunks.count({ treeId: treeId! })).to.equal(0);
    // anchored trees stay
    expect((await proof(hex(victimLeaf))).status).to.equal(200);
  });
});
