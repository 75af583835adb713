/**
 * The offline check of a proof's anchoring transaction (shared/merkle/anchor-transaction.ts), one rule at a time,
 * on transactions assembled with CSL as the protocol's state transactions are: a state output at the deployment's
 * proxy address holding its state token, whose inline datum commits to the certificates; the state redeemer of the
 * zero withdrawal carrying them; the body's script_data_hash over the redeemers and the Plutus V3 language views
 * (computed by CSL's own `hash_script_data`); the issuer among the required signers and its signature. Each case
 * breaks exactly one link from the transaction id to the root; test/merkle/proof-anchor.spec.ts checks real
 * anchoring transactions from the devnet, and a forged one submitted to it.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { CSL } from "../../../shared/csl/lib";
import { costModels } from "../../../shared/csl/protocol-parameters";
import { languageViews } from "../../../shared/csl/script-data";
import { dataToCborHex } from "../../../shared/csl/plutus-data";
import { auxiliaryDataFrom } from "../../../shared/csl/metadata";
import { scriptAddress } from "../../../shared/csl/plutus-script";
import { ogmiosProtocolParameters } from "../../../shared/devnet/protocol-parameters";
import {
  blake2b,
  certificateDataHash,
  encodeStateDatum,
  encodeStateRedeemer,
  makeCertificate,
  type OnchainCertificate,
} from "../../../shared/protocol";
import { buildTree, checkAnchorTransaction, MERKLE_SCHEME } from "../../../shared/merkle";
import { DataHash, KeyHash, PolicyId } from "../../../shared/domain/hex";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const tree = buildTree(randomBytes(32 * 5));
const root = DataHash(hex(tree.root));
const issuerKey = CSL.PrivateKey.generate_ed25519();
const issuer = KeyHash(issuerKey.to_public().hash().to_hex());
const batchCert = (metadata: string, by = issuer) => makeCertificate({ hash: root, algorithm: MERKLE_SCHEME, issuer: by, metadata });
const treeMetadata = JSON.stringify({ merkle: { treeId: tree.treeId, leafCount: 5 } });
/** The deployment the transactions are built under: its proxy script hash (= policy id of its tokens). */
const deployment = PolicyId(hex(randomBytes(28)));
const models = costModels(ogmiosProtocolParameters());
const v3Views = hex(languageViews(models, ["plutus:v3"]));

interface TxOptions {
  /** the state redeemer's certificates */
  carried: OnchainCertificate[];
  /** what the state datum commits to (default: carried) */
  committed?: OnchainCertificate[];
  /** further withdrawal redeemers with these certificate lists */
  moreRedeemers?: OnchainCertificate[][];
  aux?: "good" | "wrong-hash";
  /** where the state output sits: the deployment's proxy address (default), a key address, another script's */
  at?: "proxy" | "key" | "other-script";
  /** the state token in the state output: the datum's (default), another name, none */
  token?: "state" | "other-name" | "none";
  requiredSigners?: string[];
  /** sign with the issuer's key (default), or not */
  signed?: boolean;
  /** script_data_hash: over the redeemers as built (default), none, or the redeemers changed after hashing */
  scriptData?: "good" | "absent" | "redeemers-changed";
  /** the transaction's is_valid flag (default true) */
  isValid?: boolean;
}

/** A state transaction of `deployment` as the validators would let it on chain, or with one link broken. */
function anchoringTx(opts: TxOptions): { cbor: string; id: string } {
  const stateId = hex(randomBytes(32));
  const datum = encodeStateDatum({
    id: stateId,
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
  const address =
    opts.at === "key"
      ? "addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz"
      : scriptAddress(opts.at === "other-script" ? hex(randomBytes(28)) : deployment, 0);
  const value = CSL.Value.new(CSL.BigNum.from_str("2000000"));
  if ((opts.token ?? "state") !== "none") {
    const assets = CSL.Assets.new();
    assets.insert(CSL.AssetName.new(opts.token === "other-name" ? randomBytes(32) : Buffer.from(stateId, "hex")), CSL.BigNum.one());
    const multi = CSL.MultiAsset.new();
    multi.insert(CSL.ScriptHash.from_hex(deployment), assets);
    value.set_multiasset(multi);
  }
  const out = CSL.TransactionOutput.new(CSL.Address.from_bech32(address), value);
  out.set_plutus_data(CSL.PlutusData.from_hex(dataToCborHex(datum)));
  outputs.add(out);
  const body = CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str("200000"));
  const signers = CSL.Ed25519KeyHashes.new();
  for (const k of opts.requiredSigners ?? [issuer]) signers.add(CSL.Ed25519KeyHash.from_hex(k));
  if (signers.len() > 0) body.set_required_signers(signers);
  const aux = opts.aux ? auxiliaryDataFrom({ 674: { msg: ["batch"] } }) : undefined;
  if (aux)
    body.set_auxiliary_data_hash(opts.aux === "good" ? CSL.hash_auxiliary_data(aux) : CSL.AuxiliaryDataHash.from_bytes(randomBytes(32)));
  const redeemersOf = (memory: string): CSL.Redeemers => {
    const redeemers = CSL.Redeemers.new();
    [opts.carried, ...(opts.moreRedeemers ?? [])].forEach((certificates, i) =>
      redeemers.add(
        CSL.Redeemer.new(
          CSL.RedeemerTag.new_reward(),
          CSL.BigNum.from_str(String(i)),
          CSL.PlutusData.from_hex(dataToCborHex(encodeStateRedeemer({ purpose: "UPDATE_STATE", certificates }))),
          CSL.ExUnits.new(CSL.BigNum.from_str(memory), CSL.BigNum.from_str("1000")),
        ),
      ),
    );
    return redeemers;
  };
  const v3 = CSL.Languages.new();
  v3.add(CSL.Language.new_plutus_v3());
  if ((opts.scriptData ?? "good") !== "absent")
    body.set_script_data_hash(
      CSL.hash_script_data(redeemersOf("1000"), CSL.Costmdls.from_bytes(models.to_bytes()).retain_language_versions(v3)),
    );
  const witnesses = CSL.TransactionWitnessSet.new();
  witnesses.set_redeemers(redeemersOf(opts.scriptData === "redeemers-changed" ? "1001" : "1000"));
  const id = blake2b(body.to_bytes(), 32);
  if (opts.signed ?? true) {
    const vkeys = CSL.Vkeywitnesses.new();
    vkeys.add(CSL.make_vkey_witness(CSL.TransactionHash.from_bytes(id), issuerKey));
    witnesses.set_vkeys(vkeys);
  }
  const tx = CSL.Transaction.new(body, witnesses, aux);
  if (opts.isValid === false) tx.set_is_valid(false);
  return { cbor: tx.to_hex(), id: hex(id) };
}

const proofFor = (tx: { cbor: string; id: string }) => ({
  transactionCbor: tx.cbor,
  transactionHash: tx.id,
  root,
  treeSize: 5,
  treeId: tree.treeId,
  languageViews: v3Views,
  proxyPolicyId: deployment,
});

const reasonOf = (check: ReturnType<typeof checkAnchorTransaction>): string => (check.valid ? "valid" : check.reason);

describe("merkle anchoring transaction: the offline check from transaction id to root", () => {
  it("holds for a state transaction of the deployment whose datum commits to a batch certificate naming the root, tree and size", () => {
    const tx = anchoringTx({
      carried: [makeCertificate({ hash: DataHash("ab"), algorithm: "SHA-256", issuer, metadata: "" }), batchCert(treeMetadata)],
    });
    expect(checkAnchorTransaction(proofFor(tx))).to.deep.equal({ valid: true, issuer, deployment });
    expect(checkAnchorTransaction(proofFor(tx), { deployment })).to.deep.equal({ valid: true, issuer, deployment });
    expect(checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], aux: "good" })))).to.deep.equal({
      valid: true,
      issuer,
      deployment,
    });
  });

  it("refuses an id that is not the body's hash", () => {
    const tx = anchoringTx({ carried: [batchCert(treeMetadata)] });
    const check = checkAnchorTransaction({ ...proofFor(tx), transactionHash: hex(randomBytes(32)) });
    expect(reasonOf(check)).to.match(/^the transaction body hashes to [0-9a-f]{64}, not to transactionHash/);
  });

  it("refuses auxiliary data that does not hash to the body's auxiliary-data hash", () => {
    const check = checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], aux: "wrong-hash" })));
    expect(reasonOf(check)).to.match(/^the auxiliary data hashes to [0-9a-f]{64}, not to the body's auxiliary-data hash/);
  });

  it("refuses redeemers that are not the ones the body's script_data_hash covers", () => {
    // Only the ex-units changed: same certificates, same commitment; the redeemers are simply not the ledger's.
    const changed = checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], scriptData: "redeemers-changed" })));
    expect(reasonOf(changed)).to.match(
      /^the witness set's redeemers and datums with languageViews hash to [0-9a-f]{64}, not to the body's script_data_hash [0-9a-f]{64}$/,
    );
    const absent = checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], scriptData: "absent" })));
    expect(reasonOf(absent)).to.equal(
      "the transaction body has no script_data_hash: nothing binds the witness set's redeemers to the transaction id",
    );
  });

  it("refuses a transaction marked invalid, whose outputs never existed", () => {
    expect(reasonOf(checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], isValid: false }))))).to.equal(
      "the transaction is marked invalid: its scripts failed, only its collateral was taken",
    );
  });

  it("refuses language views other than the ones the hash covers, and a proof without them", () => {
    const tx = anchoringTx({ carried: [batchCert(treeMetadata)] });
    expect(reasonOf(checkAnchorTransaction({ ...proofFor(tx), languageViews: hex(languageViews(models, ["plutus:v2"])) }))).to.match(
      /hash to [0-9a-f]{64}, not to the body's script_data_hash/,
    );
    for (const languageViews of [undefined, "zz", "00", `${v3Views}00`])
      expect(reasonOf(checkAnchorTransaction({ ...proofFor(tx), languageViews }))).to.equal(
        "languageViews must be hex of one CBOR map (the cost models the transaction's script_data_hash covers)",
      );
  });

  it("refuses certificates in the redeemer that no state datum of the deployment commits to", () => {
    const other = makeCertificate({ hash: DataHash(hex(randomBytes(32))), algorithm: MERKLE_SCHEME, issuer, metadata: treeMetadata });
    const check = checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], committed: [other] })));
    expect(reasonOf(check)).to.equal(
      "no state redeemer of the transaction holds certificates that the deployment's state datum commits to",
    );
  });

  it("refuses a committing datum that is not at the deployment's proxy address", () => {
    for (const at of ["key", "other-script"] as const)
      expect(reasonOf(checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], at }))))).to.equal(
        `no state datum of the transaction sits at the proxy address of deployment ${deployment} (payment credential: that script)`,
      );
  });

  it("refuses a committing datum at the proxy address whose output holds no state token of the deployment", () => {
    for (const token of ["none", "other-name"] as const)
      expect(reasonOf(checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], token }))))).to.equal(
        `the state datum at the proxy address of deployment ${deployment} is in an output without its state token`,
      );
  });

  it("refuses a deployment other than the required one, and a proof naming a deployment its transaction does not bind to", () => {
    const tx = anchoringTx({ carried: [batchCert(treeMetadata)] });
    const genuine = PolicyId(hex(randomBytes(28)));
    expect(reasonOf(checkAnchorTransaction(proofFor(tx), { deployment: genuine }))).to.equal(
      `the proof names deployment ${deployment}, not the required deployment ${genuine}`,
    );
    // A look-alike deployment's transaction presented as the genuine one's: its state output is not at the genuine proxy.
    expect(reasonOf(checkAnchorTransaction({ ...proofFor(tx), proxyPolicyId: genuine }, { deployment: genuine }))).to.equal(
      `no state datum of the transaction sits at the proxy address of deployment ${genuine} (payment credential: that script)`,
    );
    expect(reasonOf(checkAnchorTransaction({ ...proofFor(tx), proxyPolicyId: undefined }))).to.equal(
      "proxyPolicyId must be 56 lowercase hex digits (the deployment's proxy policy id)",
    );
  });

  it("refuses a root certificate whose issuer is not among the body's required signers", () => {
    for (const requiredSigners of [[], [hex(randomBytes(28))]])
      expect(reasonOf(checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], requiredSigners }))))).to.equal(
        `the issuer ${issuer} of the root's certificate is not among the transaction's required signers`,
      );
  });

  it("refuses a transaction the issuer did not sign", () => {
    expect(reasonOf(checkAnchorTransaction(proofFor(anchoringTx({ carried: [batchCert(treeMetadata)], signed: false }))))).to.equal(
      `the witness set holds no valid signature of the transaction by the issuer ${issuer}`,
    );
  });

  it("refuses a second redeemer that splits the committed bytes into other certificates", () => {
    // The commitment concatenates fields without lengths: moving the first byte of the second certificate's hash to
    // the end of the first one's metadata gives other certificates with the same certificate_data_hash.
    const second = makeCertificate({ hash: DataHash(`20${hex(randomBytes(31))}`), algorithm: "SHA-256", issuer, metadata: "" });
    const carried = [batchCert(treeMetadata), second];
    const resplit = [batchCert(`${treeMetadata} `), { ...second, hash: second.hash.slice(2) }];
    expect(certificateDataHash(resplit)).to.equal(certificateDataHash(carried));
    const check = checkAnchorTransaction(proofFor(anchoringTx({ carried, moreRedeemers: [resplit] })));
    expect(reasonOf(check)).to.equal(
      "several state redeemers hold different certificates with the same commitment: which ones the validator read is not known",
    );
  });

  it("refuses a transaction that anchors the root under another algorithm, or names another tree or size", () => {
    const sha = makeCertificate({ hash: root, algorithm: "SHA-256", issuer, metadata: treeMetadata });
    expect(reasonOf(checkAnchorTransaction(proofFor(anchoringTx({ carried: [sha] }))))).to.equal(
      `the transaction anchors no certificate of the root ${root} with algorithm ${MERKLE_SCHEME}`,
    );
    const wrongSize = batchCert(JSON.stringify({ merkle: { treeId: tree.treeId, leafCount: 6 } }));
    expect(reasonOf(checkAnchorTransaction(proofFor(anchoringTx({ carried: [wrongSize] }))))).to.equal(
      `the root's certificate does not name tree ${tree.treeId} of 5 leaves in its metadata`,
    );
  });

  it("refuses malformed fields and bytes that are not a transaction, without throwing", () => {
    const tx = anchoringTx({ carried: [batchCert(treeMetadata)] });
    expect(reasonOf(checkAnchorTransaction({ ...proofFor(tx), transactionCbor: "zz" }))).to.equal(
      "transactionCbor must be even-length hex",
    );
    expect(reasonOf(checkAnchorTransaction({ ...proofFor(tx), transactionCbor: "a0" }))).to.match(
      /^transactionCbor is not a Cardano transaction/,
    );
    expect(reasonOf(checkAnchorTransaction({ ...proofFor(tx), treeSize: 6 }))).to.equal("treeId is not the id of this root and treeSize");
  });
});
