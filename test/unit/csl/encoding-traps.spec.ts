import { expect } from "chai";
import { buildPayment, costModels, decodeTx, scriptDataHash, stripVkeyWitnesses, txIdOf } from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { DATA_42, PP, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";

function aRedeemers(): CSL.Redeemers {
  const reds = CSL.Redeemers.new();
  reds.add(
    CSL.Redeemer.new(
      CSL.RedeemerTag.new_spend(),
      CSL.BigNum.zero(),
      CSL.PlutusData.from_hex(DATA_42),
      CSL.ExUnits.new(CSL.BigNum.from_str("1000"), CSL.BigNum.from_str("100000")),
    ),
  );
  return reds;
}

function aDatumList(): CSL.PlutusList {
  const l = CSL.PlutusList.new();
  l.add(CSL.PlutusData.from_hex(DATA_42));
  return l;
}

describe("csl encoding traps 4–6 (docs/architecture.md#csl)", () => {
  const wallet = aWallet();
  const payee = aWallet();
  const signedPayment = (): { unsigned: string; signed: string; fee: bigint } => {
    const built = buildPayment({
      protocolParameters: PP,
      utxos: [aUtxo({ address: wallet.address, lovelace: 20_000_000n })],
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 2_000_000n }],
    });
    return { unsigned: built.cborHex, signed: wallet.signTxFull(built.cborHex), fee: built.fee };
  };

  it("§1.3 standalone hash_script_data does not filter languages; scriptDataHash keeps only the used ones", () => {
    const all = costModels(PP);
    const v3only = CSL.Costmdls.new();
    v3only.insert(CSL.Language.new_plutus_v3(), all.get(CSL.Language.new_plutus_v3())!);
    const unfiltered = CSL.hash_script_data(aRedeemers(), CSL.Costmdls.from_bytes(all.to_bytes()), aDatumList()).to_hex();
    const v3 = CSL.hash_script_data(aRedeemers(), v3only, aDatumList()).to_hex();
    expect(unfiltered).to.not.equal(v3);
    expect(scriptDataHash({ redeemers: aRedeemers(), datums: aDatumList(), costModels: all, languages: ["plutus:v3"] })).to.equal(v3);
  });

  it("§1.4 wasm-bindgen moves by-value arguments: reuse throws, and a moved optional argument is silently dropped", () => {
    const redeemers = aRedeemers();
    const datums = aDatumList();
    const models = costModels(PP);
    const first = CSL.hash_script_data(redeemers, CSL.Costmdls.from_bytes(models.to_bytes()), datums).to_hex();
    expect(() => datums.len()).to.throw(/null pointer passed to rust/);
    // the moved `datums` now reads as "absent": the hash changes without any error
    const second = CSL.hash_script_data(aRedeemers(), CSL.Costmdls.from_bytes(models.to_bytes()), datums).to_hex();
    expect(second).to.not.equal(first);
  });

  it("§1.4 scriptDataHash clones its inputs: the caller's objects stay usable and the hash is stable", () => {
    const redeemers = aRedeemers();
    const datums = aDatumList();
    const models = costModels(PP);
    const a = scriptDataHash({ redeemers, datums, costModels: models, languages: ["plutus:v3"] });
    const b = scriptDataHash({ redeemers, datums, costModels: models, languages: ["plutus:v3"] });
    expect(b).to.equal(a);
    expect(datums.len()).to.equal(1);
    expect(redeemers.len()).to.equal(1);
    expect(models.len()).to.equal(3);
  });

  it("§1.5 set_vkeys / set_plutus_data with an empty set do not remove the entries", () => {
    const { signed } = signedPayment();
    const tx = CSL.Transaction.from_hex(signed);
    const ws = tx.witness_set();
    ws.set_vkeys(CSL.Vkeywitnesses.new());
    const reread = CSL.Transaction.from_hex(CSL.Transaction.new(tx.body(), ws, tx.auxiliary_data()).to_hex());
    expect(reread.witness_set().vkeys()?.len()).to.equal(1);

    const ws2 = CSL.TransactionWitnessSet.new();
    ws2.set_plutus_data(aDatumList());
    ws2.set_plutus_data(CSL.PlutusList.new());
    expect(CSL.TransactionWitnessSet.from_bytes(ws2.to_bytes()).plutus_data()?.len()).to.equal(1);
  });

  it("§1.5 stripVkeyWitnesses really removes them and gives back the unsigned bytes", () => {
    const { unsigned, signed } = signedPayment();
    const stripped = stripVkeyWitnesses(signed);
    expect(decodeTx(stripped).vkeyWitnesses).to.deep.equal([]);
    expect(stripped).to.equal(unsigned);
    expect(txIdOf(stripped)).to.equal(txIdOf(signed));
  });

  it("§1.6 CSL min_fee is exactly 44 lovelace (one byte) above the ledger's, which ignores the is_valid byte", () => {
    const { signed, fee } = signedPayment();
    const a = BigInt(PP.minFeeCoefficient);
    const b = BigInt(PP.minFeeConstant.ada.lovelace);
    const size = BigInt(signed.length / 2);
    const cslMin = BigInt(
      CSL.min_fee(
        CSL.Transaction.from_hex(signed),
        CSL.LinearFee.new(CSL.BigNum.from_str(String(a)), CSL.BigNum.from_str(String(b))),
      ).to_str(),
    );
    const ledgerMin = a * (size - 1n) + b;
    expect(cslMin - ledgerMin).to.equal(44n);
    // our built fee covers the conservative figure, so it is always accepted
    expect(fee >= cslMin).to.equal(true);
  });
});
