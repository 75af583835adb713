/**
 * Merkle batches end to end on the embedded mesh (issue #17), up to 100,000 hashes: POST /batch/build builds the anchoring of a tree's
 * root as one ordinary certificate, a real wallet signs, the devnet confirms, the indexer decodes; then
 * GET /verify/{hash} and GET /proof/{hash} answer for hashes inside the batch, with proofs that check offline and
 * fail when tampered with. A hash is not anchored before its root's transaction is on chain, nor after a rollback.
 * Malformed batches are 4xx JSON naming the problem.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { verifyProofCli } from "../../fixtures/merkle/verify-proof-cli";
import { IssuanceWorld, type BuildBody } from "../../fixtures/issuance/issuance-world";
import { checkInclusionProof, MAX_BATCH_HASHES, MERKLE_SCHEME, rootOfLevels, treeLevels, hashPackedLeaves } from "../../shared/merkle";
import { batchOfMetadata } from "../../shared/merkle/batch-metadata";
import { type AnchoredProof, type BatchRecord } from "../../shared/verifier/batch-lookup";

type BatchBody = BuildBody & { merkleRoot?: string; treeId?: string; leafCount?: number; maxHashes?: number };

const hashes = (n: number) => Array.from({ length: n }, () => randomBytes(32));

const hex = (b: Buffer) => b.toString("hex");

describe("merkle batches: build, anchor, verify and prove hashes inside a batch", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  const api = () => w.mesh.api;
  const buildBatch = async (body: unknown): Promise<HttpResult> => postJson(`${api()}/batch/build`, body);
  const buildBatchBytes = async (bytes: Buffer, query: string): Promise<HttpResult> =>
    http(`${api()}/batch/build?${query}`, { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: bytes });
  const verify = (hash: string) => http(`${api()}/verify/${hash}`);
  const proof = (hash: string) => http(`${api()}/proof/${hash}`);
  const anchored = (hash: string) =>
    pollUntil(async () => {
      const res = await verify(hash);
      const batch = res.status === 200 ? (res.json as BatchRecord[]).filter((r) => r.merkleRoot !== undefined) : [];
      return batch.length > 0 ? batch : undefined;
    }, `${hash} anchored in a batch`);

  before(async () => {
    w = await IssuanceWorld.create();
    await w.mintDefaultBootstrap();
    await w.ensureCollateral(w.f.actors.alice);
    await w.ensureCollateral(w.f.actors.bob);
  });
  after(() => w?.close());

  it("anchors 1,000 hashes in one certificate (the root); every sampled leaf verifies with a proof that checks offline", async () => {
    const alice = w.f.actors.alice;
    const leaves = hashes(1000);
    const res = await buildBatch({ address: alice.address, hashes: leaves.map(hex), metadata: { uv_tid: "archive", title: "invoices" } });
    expect(res.status, res.text).to.equal(200);
    const body = res.json as BatchBody;
    expect(body.status.code).to.equal("SUCCESS");
    const root = hex(rootOfLevels(treeLevels(hashPackedLeaves(Buffer.concat(leaves)))));
    expect(body.merkleRoot).to.equal(root);
    expect(body.leafCount).to.equal(1000);

    // Built and stored, but not on chain: not anchored.
    expect((await verify(hex(leaves[0]!))).status).to.equal(404);
    expect((await proof(hex(leaves[0]!))).status).to.equal(404);

    const txId = await w.signAndSubmit(body.unsignedTransaction!, [alice]);
    await w.confirm(txId);
    // The root itself is an ordinary certificate, with the scheme as its algorithm and the tree in its metadata.
    const rootRecords = await pollUntil(async () => {
      const r = await verify(root);
      return r.status === 200 ? (r.json as BatchRecord[]) : undefined;
    }, "root certificate");
    expect(rootRecords[0]).to.include({ hash: root, algorithm: MERKLE_SCHEME, transactionHash: txId });
    expect(batchOfMetadata(rootRecords[0]!.metadata)).to.deep.equal({ treeId: body.treeId, leafCount: 1000 });
    expect(JSON.parse(rootRecords[0]!.metadata)).to.include({ uv_tid: "archive", title: "invoices" });

    for (const i of [0, 1, 511, 998, 999, Math.floor(Math.random() * 1000)]) {
      const leaf = hex(leaves[i]!);
      const [record] = await anchored(leaf);
      expect(record).to.include({ merkleRoot: root, leafIndex: i, treeSize: 1000, transactionHash: txId, algorithm: MERKLE_SCHEME });
      // ceil(log2 1000) = 10 siblings at most; leaves of the last, ragged subtree have fewer.
      expect(record!.proof.length).to.be.at.most(10);
      if (i < 512) expect(record!.proof).to.have.length(10);

      const proofs = (await proof(leaf)).json as AnchoredProof[];
      expect(proofs).to.have.length(1);
      expect(proofs[0]).to.include({ scheme: MERKLE_SCHEME, leaf, leafIndex: i, treeSize: 1000, root, transactionHash: txId });
      expect(proofs[0]!.path).to.deep.equal(record!.proof);
      expect(checkInclusionProof(proofs[0]), `leaf ${i}`).to.deep.equal({ valid: true });

      const tampered = { ...proofs[0]!, path: [...proofs[0]!.path] };
      tampered.path[3] = hex(randomBytes(32));
      expect(checkInclusionProof(tampered)).to.deep.equal({ valid: false, reason: "the path does not lead to the root" });
      expect(checkInclusionProof({ ...proofs[0]!, leaf: hex(randomBytes(32)) }).valid).to.equal(false);
    }
    // The command line checks the /proof answer as served, and refuses it tampered.
    const served = (await proof(hex(leaves[42]!))).json as AnchoredProof[];
    const ok = await verifyProofCli(served);
    expect(ok.status).to.equal(0);
    expect(ok.lines).to.deep.equal([
      {
        leaf: hex(leaves[42]!),
        root,
        valid: true,
        checked: ["path", "transaction"],
        issuer: alice.paymentKeyHash,
        deployment: w.f.scripts.proxy.policyId,
      },
    ]);
    const bad = await verifyProofCli([{ ...served[0]!, leafIndex: 43 }]);
    expect(bad.status).to.equal(1);
    expect(bad.lines[0]).to.include({ valid: false, reason: "the path does not lead to the root" });
    // A hash of no batch stays unknown.
    expect((await verify(hex(randomBytes(32)))).status).to.equal(404);
  });

  it("anchors 100,000 hashes sent as application/octet-stream (address in the query); random leaves and chunk edges prove, duplicates allowed", async () => {
    const bob = w.f.actors.bob;
    const n = 100_000;
    const packed = randomBytes(32 * n);
    packed.copy(packed, 99_990 * 32, 7 * 32, 8 * 32); // a duplicate: both positions are leaves; lookups answer the first
    const leafAt = (i: number) => packed.toString("hex", i * 32, i * 32 + 32);
    const res = await buildBatchBytes(packed, `address=${bob.address}&metadata=${encodeURIComponent('{"lot":"7"}')}`);
    expect(res.status, res.text).to.equal(200);
    const body = res.json as BatchBody;
    expect(body.leafCount).to.equal(n);
    expect(body.merkleRoot).to.equal(hex(rootOfLevels(treeLevels(hashPackedLeaves(packed)))));
    const txId = await w.signAndSubmit(body.unsignedTransaction!, [bob]);
    await w.confirm(txId);
    const random = Array.from({ length: 12 }, () => Math.floor(Math.random() * n));
    for (const i of [7, 255, 256, 65_535, 65_536, 99_839, 99_840, n - 1, ...random]) {
      if (i === 99_990) continue;
      const leaf = leafAt(i);
      const [record] = await anchored(leaf);
      expect(record).to.include({ merkleRoot: body.merkleRoot, leafIndex: i, treeSize: n, transactionHash: txId });
      const [p] = (await proof(leaf)).json as AnchoredProof[];
      expect(checkInclusionProof(p), `leaf ${i}`).to.deep.equal({ valid: true });
      expect(p!.path.length).to.be.at.most(17);
    }
    expect((await anchored(leafAt(99_990)))[0]!.leafIndex).to.equal(7);

    // Three random leaves' proofs, as served, check with `verify-proof` offline and against the devnet's chain.
    const served = [];
    for (const i of random.slice(0, 3)) served.push(...((await proof(leafAt(i))).json as AnchoredProof[]));
    const checked = await verifyProofCli(served, ["--ogmios", w.server.url]);
    expect(checked.status, checked.stderr).to.equal(0);
    expect(checked.lines.map((l) => l["checked"])).to.deep.equal(served.map(() => ["path", "transaction", "chain"]));
  });

  it("says a leaf is not anchored while its root's transaction is rolled back, and anchored again once it is back", async () => {
    const alice = w.f.actors.alice;
    const leaves = hashes(40);
    const body = (await buildBatch({ address: alice.address, hashes: leaves.map(hex) })).json as BatchBody;
    const txId = await w.signAndSubmit(body.unsignedTransaction!, [alice]);
    await w.confirm(txId);
    const leaf = hex(leaves[17]!);
    await anchored(leaf);
    w.f.chain.devnet.rollback(1);
    await pollUntil(async () => ((await verify(leaf)).status === 404 ? true : undefined), "leaf not anchored after the rollback");
    expect((await proof(leaf)).status).to.equal(404);
    await w.confirm(txId);
    const [record] = await anchored(leaf);
    expect(record).to.include({ leafIndex: 17, transactionHash: txId });
  });

  describe("malformed batches are 4xx JSON naming the problem", () => {
    const address = () => w.f.actors.alice.address;
    const refused = async (res: HttpResult, status: number, message: RegExp) => {
      expect(res.status, res.text).to.equal(status);
      const e = errorBody(res);
      expect(e.message).to.match(message);
      return e;
    };

    it("refuses non-hex, short and non-string hashes, naming the index", async () => {
      const good = hex(randomBytes(32));
      await refused(await buildBatch({ address: address(), hashes: [good, "zz".repeat(32)] }), 400, /hashes\[1\] must be a 32-byte hash/);
      await refused(await buildBatch({ address: address(), hashes: [good.slice(2)] }), 400, /hashes\[0\]/);
      await refused(await buildBatch({ address: address(), hashes: [good, 7] }), 400, /hashes\[1\]/);
      await refused(await buildBatch({ address: address(), hashes: "abc" }), 400, /hashes must be an array/);
      await refused(await buildBatch({ address: address() }), 400, /hashes is required/);
    });

    it("refuses an empty batch, in JSON and as bytes", async () => {
      await refused(await buildBatch({ address: address(), hashes: [] }), 400, /empty/);
      await refused(await buildBatchBytes(Buffer.alloc(0), `address=${address()}`), 400, /empty|hashes is required/);
    });

    it("refuses a byte body whose length is not a multiple of 32", async () => {
      await refused(await buildBatchBytes(randomBytes(32 * 3 + 5), `address=${address()}`), 400, /101 bytes is not a multiple of 32/);
    });

    it("refuses more than 1,000,000 hashes with 400 naming the limit, and a byte body over the limit with 413", async () => {
      const tooMany = `{"address":"${address()}","hashes":[${"0,".repeat(MAX_BATCH_HASHES)}0]}`;
      const res = await http(`${api()}/batch/build`, { method: "POST", headers: { "Content-Type": "application/json" }, body: tooMany });
      const e = await refused(res, 400, /at most 1,000,000 hashes \(got 1000001\)/);
      expect(e).to.include({ maxHashes: MAX_BATCH_HASHES });
      const big = await buildBatchBytes(Buffer.alloc(32 * (MAX_BATCH_HASHES + 1)), `address=${address()}`);
      expect(errorBody(big).error).to.equal("PAYLOAD_TOO_LARGE");
      expect(big.status).to.equal(413);
    });

    it("keeps the default body limit on other routes", async () => {
      const res = await postJson(`${api()}/transaction/build`, { address: address(), padding: "x".repeat(600 * 1024) });
      expect(res.status).to.equal(413);
    });

    it("refuses other content types with 415, an unknown tree scheme and a reserved metadata key with 400", async () => {
      const text = await http(`${api()}/batch/build`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "abc" });
      await refused(text, 415, /application\/octet-stream/);
      const hs = [hex(randomBytes(32))];
      await refused(await buildBatch({ address: address(), hashes: hs, algorithm: "sha256-bitcoin" }), 400, /merkle-sha256-rfc9162/);
      await refused(await buildBatch({ address: address(), hashes: hs, metadata: { merkle: 1 } }), 400, /metadata\.merkle is reserved/);
      await refused(await buildBatch({ address: address(), hashes: hs, metadata: [1] }), 400, /metadata must be a JSON object/);
      await refused(await buildBatch({ hashes: hs }), 400, /address is required/);
    });

    it("answers 400 for a proof of something that is not a 32-byte hash", async () => {
      const res = await proof("abcd");
      expect(res.status).to.equal(400);
      expect(errorBody(res).error).to.equal("VALIDATION_ERROR");
    });
  });
});
