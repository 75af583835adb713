/**
 * Self-contained batch proofs (issue #17): `GET /proof/{hash}` carries the anchoring transaction's signed CBOR as
 * the chain has it, its block and the point before that block; `verify-proof` checks offline that the transaction
 * has the proof's id and anchors the proof's root and tree, and with `--ogmios` that the devnet's Ogmios server
 * holds the block with the transaction in it. Tampered transactions, roots, blocks and rolled-back anchors fail.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { verifyProofCli } from "../../fixtures/merkle/verify-proof-cli";
import { IssuanceWorld, type BuildBody } from "../../fixtures/issuance/issuance-world";
import { buildTree, checkAnchorTransaction, inclusionPath, MERKLE_SCHEME } from "../../shared/merkle";
import { CSL } from "../../shared/csl/lib";
import type { AnchoredProof } from "../../shared/verifier/batch-lookup";

type BatchBody = BuildBody & { merkleRoot: string; treeId: string; leafCount: number };
type Line = Record<string, unknown>;

const hex = (b: Buffer) => b.toString("hex");

describe("merkle batch proofs carry their anchoring transaction, checked offline and against the chain", function () {
  this.timeout(240_000);
  let w: IssuanceWorld;
  const api = () => w.mesh.api;
  const proofOf = async (hash: string): Promise<AnchoredProof> =>
    pollUntil(async () => {
      const res = await http(`${api()}/proof/${hash}`);
      return res.status === 200 ? (res.json as AnchoredProof[])[0] : undefined;
    }, `proof of ${hash}`);

  /** Builds a batch of `n` random hashes for alice, signs, submits and confirms it. */
  const anchorBatch = async (n: number): Promise<{ leaves: Buffer[]; body: BatchBody; txId: string }> => {
    const alice = w.f.actors.alice;
    const leaves = Array.from({ length: n }, () => randomBytes(32));
    const res = await postJson(`${api()}/batch/build`, { address: alice.address, hashes: leaves.map(hex) });
    expect(res.status, res.text).to.equal(200);
    const body = res.json as BatchBody;
    const txId = await w.signAndSubmit(body.unsignedTransaction!, [alice]);
    await w.confirm(txId);
    return { leaves, body, txId };
  };

  let a: { leaves: Buffer[]; body: BatchBody; txId: string; proof: AnchoredProof };
  let b: { leaves: Buffer[]; body: BatchBody; txId: string; proof: AnchoredProof };

  before(async () => {
    w = await IssuanceWorld.create();
    await w.mintDefaultBootstrap();
    await w.ensureCollateral(w.f.actors.alice);
    const first = await anchorBatch(300);
    a = { ...first, proof: await proofOf(hex(first.leaves[123]!)) };
    const second = await anchorBatch(5);
    b = { ...second, proof: await proofOf(hex(second.leaves[2]!)) };
  });
  after(() => w?.close());

  it("serves the signed transaction as on chain, its block and the point of the block before it", async () => {
    const p = a.proof;
    expect(p).to.include({ scheme: MERKLE_SCHEME, leafIndex: 123, treeSize: 300, root: a.body.merkleRoot, transactionHash: a.txId });
    const tx = CSL.FixedTransaction.from_hex(p.transactionCbor!);
    expect(tx.transaction_hash().to_hex()).to.equal(a.txId);
    expect(tx.witness_set().vkeys()?.len(), "signed").to.be.greaterThan(0);
    expect(p.previousBlock).to.not.equal(undefined);
    const prev = p.previousBlock as { slot: number; id: string };
    expect(prev.slot).to.be.below(p.slot);
    expect(prev.id)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(p.blockHash);
    expect(checkAnchorTransaction(p as unknown as Record<string, unknown>)).to.deep.equal({ valid: true });
    // /verify stays lean: the path, not the transaction.
    const verified = (await http(`${api()}/verify/${hex(a.leaves[123]!)}`)).json as Line[];
    expect(verified[0]).to.include({ transactionHash: a.txId, leafIndex: 123 });
    expect(verified[0]).to.not.have.property("transactionCbor");
  });

  it("verify-proof checks path and transaction offline, and refuses a tampered transaction, root, size or another batch's transaction", async () => {
    const ok = await verifyProofCli([a.proof]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.lines).to.deep.equal([{ leaf: a.proof.leaf, root: a.body.merkleRoot, valid: true, checked: ["path", "transaction"] }]);

    // One byte of the body changed (the fee's last byte sits inside the body): the id no longer matches.
    const cbor = Buffer.from(a.proof.transactionCbor!, "hex");
    const fee = CSL.FixedTransaction.from_hex(a.proof.transactionCbor!).body().fee().to_str();
    const feeBytes = Buffer.from(CSL.BigNum.from_str(fee).to_hex(), "hex");
    const at = cbor.indexOf(feeBytes);
    expect(at).to.be.greaterThan(0);
    cbor[at + feeBytes.length - 1]! ^= 1;
    const tamperedTx = await verifyProofCli([{ ...a.proof, transactionCbor: hex(cbor) }]);
    expect(tamperedTx.status).to.equal(1);
    expect(tamperedTx.lines[0]!["reason"]).to.match(/^the transaction body hashes to [0-9a-f]{64}, not to transactionHash/);

    // A consistent tree of other leaves (its path holds) claimed to be anchored by a's transaction.
    const forged = buildTree(Buffer.concat(Array.from({ length: 300 }, () => randomBytes(32))));
    const forgedProof = {
      ...a.proof,
      leaf: forged.leaves.toString("hex", 0, 32),
      leafIndex: 0,
      path: inclusionPath(forged.levels, 0).map(hex),
      root: hex(forged.root),
      treeId: forged.treeId,
    };
    const otherRoot = await verifyProofCli([forgedProof]);
    expect(otherRoot.status).to.equal(1);
    expect(otherRoot.lines[0]).to.deep.include({ valid: false, checked: ["path"] });
    expect(otherRoot.lines[0]!["reason"]).to.equal(
      `the transaction anchors no certificate of the root ${hex(forged.root)} with algorithm ${MERKLE_SCHEME}`,
    );

    // Another batch's genuine transaction does not anchor this root either.
    const otherTx = await verifyProofCli([{ ...a.proof, transactionHash: b.txId, transactionCbor: b.proof.transactionCbor }]);
    expect(otherTx.status).to.equal(1);
    expect(otherTx.lines[0]!["reason"]).to.match(/anchors no certificate of the root/);

    // The tree id binds the size: a proof claiming another size or tree fails before any hashing of the path matters.
    expect(checkAnchorTransaction({ ...a.proof, treeId: b.proof.treeId })).to.deep.equal({
      valid: false,
      reason: "treeId is not the id of this root and treeSize",
    });
  });

  it("with --ogmios, a confirmed proof holds against the devnet's Ogmios server; another block, slot or transaction fails", async () => {
    const url = w.server.url;
    const ok = await verifyProofCli([a.proof, b.proof], ["--ogmios", url]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.lines.map((l) => l["checked"])).to.deep.equal([
      ["path", "transaction", "chain"],
      ["path", "transaction", "chain"],
    ]);
    expect(ok.lines[0]!["confirmations"]).to.be.a("number").and.at.least(2); // b's block came after a's
    expect(ok.lines[1]!["confirmations"]).to.be.a("number").and.at.least(1);

    // a's transaction claimed to sit in b's block: the chain's block after b's previous point lacks it.
    const { blockHash, blockNumber, slot, previousBlock } = b.proof;
    const wrongBlock = await verifyProofCli([{ ...a.proof, blockHash, blockNumber, slot, previousBlock }], ["--ogmios", url]);
    expect(wrongBlock.status).to.equal(1);
    expect(wrongBlock.lines[0]!["reason"]).to.equal(`the chain's block ${b.proof.blockHash} does not hold the transaction ${a.txId}`);

    const wrongSlot = await verifyProofCli([{ ...a.proof, slot: a.proof.slot + 1 }], ["--ogmios", url]);
    expect(wrongSlot.status).to.equal(1);
    expect(wrongSlot.lines[0]!["reason"]).to.match(/is at slot \d+, height \d+, not the proof's slot/);

    const otherBlockId = await verifyProofCli([{ ...a.proof, blockHash: b.proof.blockHash }], ["--ogmios", url]);
    expect(otherBlockId.status).to.equal(1);
    expect(otherBlockId.lines[0]!["reason"]).to.match(/^the chain's block after previousBlock is [0-9a-f]{64}, not the proof's block/);

    const unknownPrevious = await verifyProofCli([{ ...a.proof, previousBlock: { slot: 1, id: hex(randomBytes(32)) } }], ["--ogmios", url]);
    expect(unknownPrevious.status, unknownPrevious.stderr).to.equal(1);
    expect(unknownPrevious.lines[0]!["reason"]).to.equal("the chain does not hold previousBlock: the anchoring block is not on it");

    const bad = await verifyProofCli([a.proof], ["--ogmios", "http://x"]);
    expect(bad.status).to.equal(2);
    // A chain that cannot be asked proves nothing either way: exit 2, not 1.
    const unreachable = await verifyProofCli([a.proof], ["--ogmios", "ws://127.0.0.1:1"]);
    expect(unreachable.status, JSON.stringify(unreachable.lines)).to.equal(2);
    expect(unreachable.lines[0]).to.include({ valid: false, chainUnreachable: true });
    expect(unreachable.lines[0]!["reason"]).to.match(/^the chain could not be asked/);
  });

  it("with --ogmios, a proof whose anchoring block was rolled back fails, while it still checks offline", async () => {
    const c = await anchorBatch(3);
    const proof = await proofOf(hex(c.leaves[1]!));
    expect((await verifyProofCli([proof], ["--ogmios", w.server.url])).status).to.equal(0);
    w.f.chain.devnet.rollback(1);
    const gone = await verifyProofCli([proof], ["--ogmios", w.server.url]);
    expect(gone.status).to.equal(1);
    expect(gone.lines[0]!["reason"]).to.equal("the chain has no block after previousBlock: the anchoring block is not on it");
    expect((await verifyProofCli([proof])).status, "offline, nothing changed").to.equal(0);
  });
});
