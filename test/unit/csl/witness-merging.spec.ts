import { expect } from "chai";
import {
  buildPayment,
  buildWithEvaluation,
  decodeTx,
  expectedScriptDataHash,
  costModels,
  mergeWitnesses,
  plutusScriptHash,
  rawBodyOf,
  scriptAddress,
  singleWrapFlat,
  stripVkeyWitnesses,
  txIdOf,
  vkeySignatures,
  withoutWitnessEntries,
} from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { DATA_42, PP, REDEEMER_42_FLAT, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";
import { uplcEvaluator } from "../../../fixtures/csl/uplc-evaluator";

/** A body whose bytes CSL would NOT reproduce: inputs as a plain array instead of CSL's tag-258 set. */
function reencodingSensitiveTx(): string {
  const wallet = aWallet();
  const built = buildPayment({
    protocolParameters: PP,
    utxos: [aUtxo({ address: wallet.address, lovelace: 20_000_000n })],
    changeAddress: wallet.address,
    outputs: [{ address: aWallet().address, lovelace: 2_000_000n }],
  });
  const hex = built.cborHex;
  // CSL writes the inputs set as d90102 (tag 258) + array; strip the tag to get valid non-canonical bytes
  const tagged = hex.indexOf("00d90102");
  expect(tagged, "CSL writes the inputs set with tag 258").to.be.greaterThan(0);
  const body = Buffer.from(rawBodyOf(hex)).toString("hex");
  const untaggedBody = body.replace("00d90102", "00");
  return hex.replace(body, untaggedBody);
}

describe("csl: witness merging keeps the body bytes (tx id) and other witness bytes", () => {
  it("signTx + mergeWitnesses keeps the tx id and adds one valid vkey witness", () => {
    const wallet = aWallet();
    const built = buildPayment({
      protocolParameters: PP,
      utxos: [aUtxo({ address: wallet.address, lovelace: 20_000_000n })],
      changeAddress: wallet.address,
      outputs: [{ address: aWallet().address, lovelace: 2_000_000n }],
    });
    const signed = mergeWitnesses(built.cborHex, wallet.signTx(built.cborHex));
    expect(txIdOf(signed)).to.equal(built.txId);
    expect(Buffer.from(rawBodyOf(signed)).equals(Buffer.from(rawBodyOf(built.cborHex)))).to.equal(true);
    const sigs = vkeySignatures(signed);
    expect(sigs).to.deep.equal([{ publicKey: wallet.paymentPublicKeyHex, keyHash: wallet.paymentKeyHash, valid: true }]);
  });

  it("keeps a non-canonical body byte for byte, where a CSL decode/encode round trip changes the tx id", () => {
    const tx = reencodingSensitiveTx();
    const id = txIdOf(tx);
    // the trap: Transaction.from_hex(...).to_hex() re-encodes the body
    const roundTripped = CSL.Transaction.from_hex(tx).to_hex();
    expect(txIdOf(roundTripped)).to.not.equal(id);
    const wallet = aWallet();
    const merged = mergeWitnesses(tx, wallet.signTx(tx));
    expect(txIdOf(merged)).to.equal(id);
    expect(vkeySignatures(merged).every((s) => s.valid)).to.equal(true);
  });

  it("merging twice, or merging the same key twice, does not duplicate witnesses", () => {
    const a = aWallet();
    const b = aWallet();
    const built = buildPayment({
      protocolParameters: PP,
      utxos: [aUtxo({ address: a.address, lovelace: 20_000_000n })],
      changeAddress: a.address,
      outputs: [{ address: b.address, lovelace: 2_000_000n }],
    });
    let tx = mergeWitnesses(built.cborHex, a.signTx(built.cborHex));
    tx = mergeWitnesses(tx, a.signTx(built.cborHex));
    tx = mergeWitnesses(tx, b.signTx(built.cborHex));
    expect(
      vkeySignatures(tx)
        .map((s) => s.keyHash)
        .sort(),
    ).to.deep.equal([a.paymentKeyHash, b.paymentKeyHash].sort());
    expect(txIdOf(tx)).to.equal(built.txId);
  });

  it("keeps redeemers, datums and scripts byte-identical, so script_data_hash still matches", async () => {
    const wallet = aWallet();
    const script = singleWrapFlat(REDEEMER_42_FLAT);
    const lock = aUtxo({
      address: scriptAddress(plutusScriptHash(script), 0),
      lovelace: 5_000_000n,
      datumHash: CSL.hash_plutus_data(CSL.PlutusData.from_hex(DATA_42)).to_hex(),
    });
    const funds = [aUtxo({ address: wallet.address, lovelace: 30_000_000n })];
    const tx = await buildWithEvaluation(
      {
        protocolParameters: PP,
        utxos: funds,
        changeAddress: wallet.address,
        scriptInputs: [{ utxo: lock, script: { language: "plutus:v3", cbor: script }, redeemer: DATA_42, datum: DATA_42 }],
      },
      uplcEvaluator([...funds, lock]),
    );
    const before = decodeTx(tx.cborHex);
    expect(before.datumHashes).to.have.length(1);
    const signed = wallet.signTxFull(tx.cborHex);
    const after = decodeTx(signed);
    expect(after.id).to.equal(before.id);
    expect(after.scriptDataHash).to.equal(expectedScriptDataHash(signed, costModels(PP)));
    expect(after.redeemers).to.deep.equal(before.redeemers);
    expect(after.datumHashes).to.deep.equal(before.datumHashes);
    // the witness set grew by exactly the vkey entry; every other entry is a byte-for-byte suffix match
    expect(stripVkeyWitnesses(signed)).to.equal(stripVkeyWitnesses(tx.cborHex));
  });
});

describe("csl: witness-set surgery", () => {
  it("withoutWitnessEntries drops only the named entries", async () => {
    const wallet = aWallet();
    const script = singleWrapFlat(REDEEMER_42_FLAT);
    const lock = aUtxo({ address: scriptAddress(plutusScriptHash(script), 0), lovelace: 5_000_000n, datum: DATA_42 });
    const funds = [aUtxo({ address: wallet.address, lovelace: 30_000_000n })];
    const tx = await buildWithEvaluation(
      {
        protocolParameters: PP,
        utxos: funds,
        changeAddress: wallet.address,
        scriptInputs: [{ utxo: lock, script: { language: "plutus:v3", cbor: script }, redeemer: DATA_42 }],
      },
      uplcEvaluator([...funds, lock]),
    );
    const noRedeemers = withoutWitnessEntries(tx.cborHex, [5]);
    expect(decodeTx(noRedeemers).redeemers).to.deep.equal([]);
    expect(decodeTx(noRedeemers).plutusScriptHashes).to.deep.equal(decodeTx(tx.cborHex).plutusScriptHashes);
    expect(txIdOf(noRedeemers)).to.equal(tx.txId);
  });
});
