/**
 * Self-contained batch proofs (issue #17): `GET /proof/{hash}` carries the anchoring transaction's signed CBOR as
 * the chain has it, its block and the point before that block, the language views its script_data_hash covers and
 * the deployment (proxy policy id); `verify-proof` checks offline that the transaction has the proof's id and
 * anchors the proof's root and tree through a state output of that deployment, signed by the certificate's issuer,
 * and with `--ogmios` that the devnet's Ogmios server holds the block with the transaction in it. Tampered
 * transactions, roots, blocks, redeemers, signatures, another deployment, rolled-back anchors, and a plain payment
 * submitted to the devnet with a forged state redeemer added to its witness set all fail.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { verifyProofCli } from "../../fixtures/merkle/verify-proof-cli";
import { IssuanceWorld, type BuildBody } from "../../fixtures/issuance/issuance-world";
import { buildTree, checkAnchorOnChain, checkAnchorTransaction, inclusionPath, MERKLE_SCHEME } from "../../shared/merkle";
import { buildTx, stripVkeyWitnesses } from "../../shared/csl";
import { arrayElements, concatBytes, encodeHeader, mapEntries } from "../../shared/csl/cbor";
import { CSL } from "../../shared/csl/lib";
import { dataToCborHex } from "../../shared/csl/plutus-data";
import { createChainClient } from "../../shared/chain";
import { certificateDataHash, encodeStateDatum, encodeStateRedeemer, makeCertificate } from "../../shared/protocol";
import type { AnchoredProof } from "../../shared/verifier/batch-lookup";
import { DataHash } from "../../shared/domain/hex";

type BatchBody = BuildBody & { merkleRoot: string; treeId: string; leafCount: number };
type Line = Record<string, unknown>;

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** The transaction with its witness-set entry `key` replaced (or added) by `value`; every other byte kept. */
function withWitnessEntry(txHex: string, key: number, value: Uint8Array): string {
  const tx = Buffer.from(txHex, "hex");
  const [, [start, end]] = arrayElements(tx) as [number, number][] as [[number, number], [number, number]];
  const ws = tx.subarray(start, end);
  const kept = mapEntries(ws).filter((e) => e.key !== key);
  const entries = [...kept.map((e) => ws.subarray(e.keyStart, e.end)), concatBytes([encodeHeader(0, key), value])];
  return hex(concatBytes([tx.subarray(0, start), encodeHeader(5, entries.length), ...entries, tx.subarray(end)]));
}

/** The redeemers entry (witness-set key 5) of a transaction, as carried. */
function redeemersOf(txHex: string): Uint8Array {
  const tx = Buffer.from(txHex, "hex");
  const [, [start, end]] = arrayElements(tx) as [number, number][] as [[number, number], [number, number]];
  const ws = tx.subarray(start, end);
  const entry = mapEntries(ws).find((e) => e.key === 5)!;
  return ws.subarray(entry.valueStart, entry.end);
}

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
    expect(p.proxyPolicyId).to.equal(w.f.scripts.proxy.policyId);
    expect(p.languageViews).to.match(/^a1[0-9a-f]+$/); // one language: the protocol's scripts are Plutus V3
    expect(checkAnchorTransaction(p as unknown as Record<string, unknown>)).to.deep.equal({
      valid: true,
      issuer: w.f.actors.alice.paymentKeyHash,
      deployment: w.f.scripts.proxy.policyId,
    });
    // /verify stays lean: the path, not the transaction.
    const verified = (await http(`${api()}/verify/${hex(a.leaves[123]!)}`)).json as Line[];
    expect(verified[0]).to.include({ transactionHash: a.txId, leafIndex: 123 });
    expect(verified[0]).to.not.have.property("transactionCbor");
  });

  it("verify-proof checks path and transaction offline, and refuses a tampered transaction, root, size or another batch's transaction", async () => {
    const ok = await verifyProofCli([a.proof]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.lines).to.deep.equal([
      {
        leaf: a.proof.leaf,
        root: a.body.merkleRoot,
        valid: true,
        checked: ["path", "transaction"],
        issuer: w.f.actors.alice.paymentKeyHash,
        deployment: w.f.scripts.proxy.policyId,
      },
    ]);

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

  it("verify-proof --deployment holds for the deployment the proof's transaction binds to and refuses any other", async () => {
    const genuine = w.f.scripts.proxy.policyId;
    const pinned = await verifyProofCli([a.proof], ["--deployment", genuine.toUpperCase()]);
    expect(pinned.status, pinned.stderr).to.equal(0);
    expect(pinned.lines[0]).to.include({ valid: true, deployment: genuine });

    const other = hex(randomBytes(28));
    const wrongPin = await verifyProofCli([a.proof], ["--deployment", other]);
    expect(wrongPin.status).to.equal(1);
    expect(wrongPin.lines[0]).to.deep.include({ valid: false, checked: ["path"] });
    expect(wrongPin.lines[0]!["reason"]).to.equal(`the proof names deployment ${genuine}, not the required deployment ${other}`);

    // A proof that names the pinned deployment while its transaction went through another one (here the genuine
    // one plays the look-alike): no state output of the pinned deployment commits to the root.
    const renamed = await verifyProofCli([{ ...a.proof, proxyPolicyId: other }], ["--deployment", other]);
    expect(renamed.status).to.equal(1);
    expect(renamed.lines[0]!["reason"]).to.equal(
      `no state datum of the transaction sits at the proxy address of deployment ${other} (payment credential: that script)`,
    );

    expect((await verifyProofCli([a.proof], ["--deployment", "abc"])).status).to.equal(2);
  });

  it("refuses the genuine transaction carrying redeemers its script_data_hash does not cover, or without the issuer's signature", async () => {
    const cbor = a.proof.transactionCbor!;
    // Same certificates, same commitment: only the ex-units of the redeemers changed.
    const redeemers = CSL.Redeemers.from_bytes(redeemersOf(cbor));
    const changed = CSL.Redeemers.new();
    for (let i = 0; i < redeemers.len(); i++) {
      const r = redeemers.get(i);
      const mem = CSL.BigNum.from_str(String(BigInt(r.ex_units().mem().to_str()) + 1n));
      changed.add(CSL.Redeemer.new(r.tag(), r.index(), r.data(), CSL.ExUnits.new(mem, r.ex_units().steps())));
    }
    const otherRedeemers = { ...a.proof, transactionCbor: withWitnessEntry(cbor, 5, changed.to_bytes()) };
    expect(checkAnchorTransaction(otherRedeemers)).to.deep.include({ valid: false });
    const cli = await verifyProofCli([otherRedeemers]);
    expect(cli.status).to.equal(1);
    expect(cli.lines[0]!["reason"]).to.match(
      /^the witness set's redeemers and datums with languageViews hash to [0-9a-f]{64}, not to the body's script_data_hash [0-9a-f]{64}$/,
    );

    const unsigned = checkAnchorTransaction({ ...a.proof, transactionCbor: stripVkeyWitnesses(cbor) });
    expect(unsigned).to.deep.equal({
      valid: false,
      reason: `the witness set holds no valid signature of the transaction by the issuer ${w.f.actors.alice.paymentKeyHash}`,
    });
  });

  it("refuses a plain payment on chain whose output holds a state datum, with a forged state redeemer added to its witness set", async () => {
    // Bob pays himself, with an inline state datum committing to a certificate of a forged tree in Alice's name; no
    // script runs and Alice signs nothing. The transaction is really on the devnet's chain.
    const { alice, bob } = w.f.actors;
    const forgedTree = buildTree(Buffer.concat(Array.from({ length: 4 }, () => randomBytes(32))));
    const forgedCert = makeCertificate({
      hash: DataHash(hex(forgedTree.root)),
      algorithm: MERKLE_SCHEME,
      issuer: alice.paymentKeyHash,
      metadata: JSON.stringify({ merkle: { treeId: forgedTree.treeId, leafCount: 4 } }),
    });
    const datum = encodeStateDatum({
      id: hex(randomBytes(32)),
      owner: alice.paymentKeyHash,
      fee: 0n,
      feeInterval: 0n,
      feeReceivers: [],
      ttl: 1_900_000_000_000n,
      countdown: 5n,
      certificateDataHash: certificateDataHash([forgedCert]),
      batchSize: 10n,
      bootstrapDatumName: "64656661756c74",
      keepAsOracle: false,
    });
    const payment = buildTx({
      protocolParameters: w.f.chain.devnet.protocolParameters(),
      utxos: w.f.chain.utxosAt(bob.address),
      changeAddress: bob.address,
      outputs: [{ address: bob.address, lovelace: 2_000_000n, inlineDatum: dataToCborHex(datum) }],
    });
    const signed = bob.signTxFull(payment.cborHex);
    const txId = await w.signAndSubmit(signed, []);
    await w.confirm(txId);
    const devnet = w.f.chain.devnet;
    let height = devnet.height;
    while (!devnet.blockAt(height)!.transactions!.some((t) => t.id === txId)) height--;
    const block = devnet.blockAt(height)!;
    const before = height > 1 ? devnet.blockAt(height - 1)! : undefined;

    // The prover's witness set: the signed payment's, plus a state redeemer carrying the forged certificate.
    const forgedRedeemers = CSL.Redeemers.new();
    forgedRedeemers.add(
      CSL.Redeemer.new(
        CSL.RedeemerTag.new_reward(),
        CSL.BigNum.zero(),
        CSL.PlutusData.from_hex(dataToCborHex(encodeStateRedeemer({ purpose: "UPDATE_STATE", certificates: [forgedCert] }))),
        CSL.ExUnits.new(CSL.BigNum.from_str("1000"), CSL.BigNum.from_str("1000")),
      ),
    );
    const forged = {
      scheme: MERKLE_SCHEME,
      leaf: forgedTree.leaves.toString("hex", 64, 96),
      leafIndex: 2,
      treeSize: 4,
      path: inclusionPath(forgedTree.levels, 2).map(hex),
      root: hex(forgedTree.root),
      treeId: forgedTree.treeId,
      transactionHash: txId,
      blockHash: block.id,
      blockNumber: Number(block.height),
      slot: Number(block.slot),
      creationTime: w.f.chain.slotToPosixMs(Number(block.slot)),
      transactionCbor: withWitnessEntry(signed, 5, forgedRedeemers.to_bytes()),
      previousBlock: before ? { slot: Number(before.slot), id: before.id } : "origin",
      // what a genuine proof of the service carries, copied
      languageViews: a.proof.languageViews,
      proxyPolicyId: a.proof.proxyPolicyId,
    };

    // The chain does hold that transaction in that block: the chain check alone would pass.
    const chain = createChainClient({ url: w.server.url, requestTimeoutMs: 15_000, reconnect: { maxAttempts: 1 } });
    try {
      expect(await checkAnchorOnChain(chain, forged)).to.include({ valid: true });
    } finally {
      await chain.close();
    }

    const offline = await verifyProofCli([forged]);
    expect(offline.status, JSON.stringify(offline.lines)).to.equal(1);
    expect(offline.lines[0]).to.deep.include({ valid: false, checked: ["path"] });
    expect(offline.lines[0]!["reason"]).to.equal(
      "the transaction body has no script_data_hash: nothing binds the witness set's redeemers to the transaction id",
    );
    const online = await verifyProofCli([forged], ["--ogmios", w.server.url, "--deployment", w.f.scripts.proxy.policyId]);
    expect(online.status).to.equal(1);
    expect(online.lines[0]).to.deep.include({ valid: false, checked: ["path"], reason: offline.lines[0]!["reason"] });
  });

  it("with --ogmios, a confirmed proof holds against the devnet's Ogmios server; another block, slot or transaction fails", async () => {
    const url = w.server.url;
    const ok = await verifyProofCli([a.proof, b.proof], ["--ogmios", url, "--deployment", w.f.scripts.proxy.policyId]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.lines.map((l) => l["checked"])).to.deep.equal([
      ["path", "transaction", "chain"],
      ["path", "transaction", "chain"],
    ]);
    for (const line of ok.lines)
      expect(line).to.include({ issuer: w.f.actors.alice.paymentKeyHash, deployment: w.f.scripts.proxy.policyId });
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
