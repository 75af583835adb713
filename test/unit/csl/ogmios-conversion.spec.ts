import { expect } from "chai";
import {
  costModels,
  nativeScriptFromOgmios,
  nativeScriptToOgmios,
  outputFromOgmios,
  outputToOgmios,
  plutusScriptHash,
  singleWrapFlat,
  txBuilderConfig,
  utxoFromOgmios,
  valueFromOgmios,
  valueToOgmios,
  CslError,
} from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { ALWAYS_SUCCEEDS_FLAT, DATA_42, PP, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";

const POLICY = "cd".repeat(28);

describe("csl: Ogmios JSON ↔ CSL", () => {
  const wallet = aWallet();

  it("converts values with native assets both ways, quantities as bigint", () => {
    const v = { ada: { lovelace: 1_234_567n }, [POLICY]: { "": 1n, "74657374": 9_007_199_254_740_993n } };
    const csl = valueFromOgmios(v as never);
    expect(csl.coin().to_str()).to.equal("1234567");
    expect(valueToOgmios(csl)).to.deep.equal(v);
  });

  it("converts a UTxO with inline datum and a Plutus reference script (single-wrapped cbor, as Ogmios sends it)", () => {
    const script = singleWrapFlat(ALWAYS_SUCCEEDS_FLAT);
    const u = aUtxo({ address: wallet.address, lovelace: 20_000_000n, datum: DATA_42, script: { language: "plutus:v3", cbor: script } });
    const out = outputFromOgmios(u);
    expect(out.plutus_data()?.to_hex()).to.equal(DATA_42);
    expect(out.script_ref()?.plutus_script()?.hash().to_hex()).to.equal(plutusScriptHash(script));
    const back = outputToOgmios(out);
    expect(back).to.deep.equal({ address: u.address, value: u.value, datum: DATA_42, script: { language: "plutus:v3", cbor: script } });
    const tuo = utxoFromOgmios(u);
    expect(tuo.input().transaction_id().to_hex()).to.equal(u.transaction.id);
    expect(tuo.input().index()).to.equal(0);
  });

  it("converts a datum-hash UTxO", () => {
    const hash = "ee".repeat(32);
    const out = outputFromOgmios(aUtxo({ address: wallet.address, datumHash: hash }));
    expect(out.data_hash()?.to_hex()).to.equal(hash);
    expect(out.plutus_data()).to.equal(undefined);
  });

  it("converts native scripts from Ogmios clauses (before = expiry, after = start) and back", () => {
    const json = {
      clause: "all" as const,
      from: [
        { clause: "signature" as const, from: wallet.paymentKeyHash },
        { clause: "before" as const, slot: 5000 },
        { clause: "some" as const, atLeast: 1n, from: [{ clause: "after" as const, slot: 10 }] },
      ],
    };
    const native = nativeScriptFromOgmios(json);
    expect(native.as_script_all()!.native_scripts().get(1).as_timelock_expiry()!.slot_bignum().to_str()).to.equal("5000");
    expect(nativeScriptToOgmios(native)).to.deep.equal(json);
    const ref = outputFromOgmios(aUtxo({ address: wallet.address, script: { language: "native", json } }));
    expect(ref.script_ref()?.native_script()?.hash().to_hex()).to.equal(native.hash().to_hex());
  });

  it("rejects a bad address with INVALID_ADDRESS", () => {
    expect(() => outputFromOgmios(aUtxo({ address: "addr_test1xyz" })))
      .to.throw(CslError)
      .with.property("type", "INVALID_ADDRESS");
  });

  it("reads protocol parameters: fee algorithm, cost models of all three languages", () => {
    const cfg = txBuilderConfig(PP);
    expect(cfg).to.be.instanceOf(CSL.TransactionBuilderConfig);
    const cms = costModels(PP);
    expect(cms.len()).to.equal(3);
    expect(cms.get(CSL.Language.new_plutus_v3())!.len()).to.equal(PP.plutusCostModels!["plutus:v3"]!.length);
    expect(() => txBuilderConfig({ ...PP, scriptExecutionPrices: { memory: "0.0577", cpu: "1/2" } }))
      .to.throw(CslError)
      .with.property("type", "INVALID_PROTOCOL_PARAMETERS");
  });
});
