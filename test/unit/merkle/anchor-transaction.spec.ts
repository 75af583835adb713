/**
 * The offline check of a proof's anchoring transaction (shared/merkle/anchor-transaction.ts), one rule at a time,
 * on transactions assembled with CSL: a state output whose inline datum commits to the certificates, the state
 * redeemer carrying them, optional auxiliary data. Each case breaks exactly one link from the transaction id to the
 * root; test/merkle/proof-anchor.spec.ts checks real anchoring transactions from the devnet.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { CSL } from "../../../shared/csl/lib";
import { dataToCborHex } from "../../../shared/csl/plutus-data";
import { auxiliaryDataFrom } from "../../../shared/csl/metadata";
import {
  blake2b,
  certificateDataHash,
  encodeStateDatum,
  encodeStateRedeemer,
  makeCertificate,
  type OnchainCertificate,
} from "../../../shared/protocol";
import { buildTree, checkAnchorTransaction, MERKLE_SCHEME } from "../../../shared/merkle";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const tree = buildTree(randomBytes(32 * 5));
const root = hex(tree.root);
const issuer = hex(randomBytes(28));
const batchCert = (metadata: string) => makeCertificate({ hash: root, algorithm: MERKLE_SCHEME, issuer, metadata });
const treeMetadata = JSON.stringify({ merkle: { treeId: tree.treeId, leafCount: 5 } });

/** A transaction whose state datum commits to `committed` and whose state redeemer carries `carried`. */
function anchoringTx(opts: { carried: OnchainCertificate[]; committed?: OnchainCertificate[]; aux?: "good" | "wrong-hash" }): {
  cbor: string;
  id: string;
} {
  const datum = encodeStateDatum({
    id: hex(randomBytes(32)),
    owner: issuer,
    fee: 0n,
    feeInterval: 0n,
    feeReceivers: [],
    ttl: 0n,
    countdown: 10n,
    certificateDataHash: certificateDataHash(opts.committed ?? opts.carried),
    batchSize: 1n,
    bootstrapDatumName: "",
    keepAsOracle: false,
  });
  const inputs = CSL.TransactionInputs.new();
  inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_bytes(randomBytes(32)), 0));
  const outputs = CSL.TransactionOutputs.new();
  const out = CSL.TransactionOutput.new(
    CSL.Address.from_bech32("addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz"),
    CSL.Value.new(CSL.BigNum.from_str("2000000")),
  );
  out.set_plutus_data(CSL.PlutusData.from_hex(dataToCborHex(datum)));
  outputs.add(out);
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str("200000"));
  const aux = opts.aux ? auxiliaryDataFrom({ 674: { msg: ["batch"] } }) : undefined;
  if (aux)
    body.set_auxiliary_data_hash(opts.aux === "good" ? CSL.hash_auxiliary_data(aux) : CSL.AuxiliaryDataHash.from_bytes(randomBytes(32)));
  const redeemers = CSL.Redeemers.new();
  redeemers.add(
    CSL.Redeemer.new(
      CSL.RedeemerTag.new_reward(),
      CSL.BigNum.from_str("0"),
      CSL.PlutusData.from_hex(dataToCborHex(encodeStateRedeemer({ purpose: "UPDATE_STATE", certificates: opts.carried }))),
      CSL.ExUnits.new(CSL.BigNum.from_str("1000"), CSL.BigNum.from_str("1000")),
    ),
  );
  const witnesses = CSL.TransactionWitnessSet.new();
  witnesses.set_redeemers(redeemers);
  const tx = CSL.Transaction.new(body, witnesses, aux);
  return { cbor: tx.to_hex(), id: hex(blake2b(body.to_bytes(), 32)) };
}

const proofFor = (tx: { cbor: string; id: string }) => ({
  transactionCbor: tx.cbor,
  transactionHash: tx.id,
  root,
  treeSize: 5,
  treeId: tree.treeId,
});

describe("merkle anchoring transaction: the offline check from transaction id to root", () => {
  it("holds for a transaction whose state datum commits to a batch certificate naming the root, tree and size", () => {
    const tx = anchoringTx({
      carried: [makeCertificate({ hash: "ab", algorithm: "SHA-256", issuer, metadata: "" }), batchCert(treeMetadata)],
    });
    expect(checkAnchorTransaction(proofFor(tx))).to.deep.equal({ valid: true });
    expect(checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], aux: "good" })))).to.deep.equal({
      valid: true,
    });
  });

  it("refuses an id that is not the body's hash", () => {
    const tx = anchoringTx({ carried: [batchCert(treeMetadata)] });
    const check = checkAnchorTransaction({ ...proofFor(tx), transactionHash: hex(randomBytes(32)) });
    expect(check).to.deep.include({ valid: false });
    expect((check as { reason: string }).reason).to.match(/^the transaction body hashes to [0-9a-f]{64}, not to transactionHash/);
  });

  it("refuses auxiliary data that does not hash to the body's auxiliary-data hash", () => {
    const check = checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], aux: "wrong-hash" })));
    expect((check as { reason: string }).reason).to.match(
      /^the auxiliary data hashes to [0-9a-f]{64}, not to the body's auxiliary-data hash/,
    );
  });

  it("refuses certificates in the redeemer that no state datum of the body commits to", () => {
    const other = makeCertificate({ hash: hex(randomBytes(32)), algorithm: MERKLE_SCHEME, issuer, metadata: treeMetadata });
    const check = checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], committed: [other] })));
    expect(check).to.deep.equal({
      valid: false,
      reason: "no state redeemer of the transaction holds certificates that a state datum in its body commits to",
    });
  });

  it("refuses a transaction that anchors the root under another algorithm, or names another tree or size", () => {
    const sha = makeCertificate({ hash: root, algorithm: "SHA-256", issuer, metadata: treeMetadata });
    expect(checkAnchorTransaction(proofFor(anchoringTx({ carried: [sha] })))).to.deep.equal({
      valid: false,
      reason: `the transaction anchors no certificate of the root ${root} with algorithm ${MERKLE_SCHEME}`,
    });
    const wrongSize = batchCert(JSON.stringify({ merkle: { treeId: tree.treeId, leafCount: 6 } }));
    expect(checkAnchorTransaction(proofFor(anchoringTx({ carried: [wrongSize] })))).to.deep.equal({
      valid: false,
      reason: `the root's certificate does not name tree ${tree.treeId} of 5 leaves in its metadata`,
    });
  });

  it("refuses malformed fields and bytes that are not a transaction, without throwing", () => {
    const tx = anchoringTx({ carried: [batchCert(treeMetadata)] });
    expect(checkAnchorTransaction({ ...proofFor(tx), transactionCbor: "zz" })).to.deep.equal({
      valid: false,
      reason: "transactionCbor must be even-length hex",
    });
    expect((checkAnchorTransaction({ ...proofFor(tx), transactionCbor: "a0" }) as { reason: string }).reason).to.match(
      /^transactionCbor is not a Cardano transaction/,
    );
    expect(checkAnchorTransaction({ ...proofFor(tx), treeSize: 6 })).to.deep.equal({
      valid: false,
      reason: "treeId is not the id of this root and treeSize",
    });
  });
});
