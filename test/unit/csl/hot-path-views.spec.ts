import { expect } from "chai";
import {
  buildPayment,
  buildTx,
  buildWithEvaluation,
  costModels,
  decodeTx,
  decodeTxFlow,
  decodeTxSpend,
  plutusScriptHash,
  scriptAddress,
  singleWrapFlat,
  spendKey,
  CslError,
} from "../../../shared/csl";
import { ALWAYS_SUCCEEDS_FLAT, DATA_42, PP, REDEEMER_42_FLAT, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";
import { uplcEvaluator } from "../../../fixtures/csl/uplc-evaluator";

/** The shortcuts of the build and submit paths give what the full decode gives. */
describe("csl: hot-path views agree with the full decode", () => {
  const wallet = aWallet();
  const r42 = singleWrapFlat(REDEEMER_42_FLAT);
  const always = singleWrapFlat(ALWAYS_SUCCEEDS_FLAT);

  it("decodeTxFlow and decodeTxSpend of a signed transaction: the id, inputs, outputs, ttl and signers decodeTx reads", () => {
    const built = buildPayment({
      protocolParameters: PP,
      utxos: [aUtxo({ address: wallet.address, lovelace: 20_000_000n }), aUtxo({ address: wallet.address, lovelace: 3_000_000n })],
      changeAddress: wallet.address,
      outputs: [{ address: aWallet().address, lovelace: 15_000_000n }],
      ttlSlot: 12_345,
    });
    const signed = wallet.signTxFull(built.cborHex);
    const full = decodeTx(signed);
    const flow = decodeTxFlow(signed);
    expect(flow).to.deep.equal({
      id: full.id,
      inputs: full.inputs,
      outputs: full.outputs,
      ttlSlot: 12_345n,
      signers: full.vkeyWitnesses.map((w) => w.keyHash),
    });
    expect(flow.signers).to.deep.equal([wallet.paymentKeyHash]);
    expect(decodeTxSpend(signed)).to.deep.equal({ id: full.id, inputs: full.inputs, ttlSlot: 12_345n });
    expect(flow.id).to.equal(built.txId);
  });

  it("decodeTxFlow and decodeTxSpend refuse what decodeTx refuses, with the same error", () => {
    for (const bad of ["00", "84a0", "zz"]) {
      const errOf = (f: () => unknown) => {
        try {
          f();
        } catch (err) {
          return err as CslError;
        }
        throw new Error(`${bad} decoded`);
      };
      const a = errOf(() => decodeTx(bad));
      for (const light of [decodeTxFlow, decodeTxSpend]) {
        const b = errOf(() => light(bad));
        expect(b).to.be.instanceOf(CslError);
        expect(b.type).to.equal(a.type);
      }
    }
  });

  it("a built transaction names the inputs it spends, as the bytes hold them, after coin selection too", async () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 3_000_000n }), aUtxo({ address: wallet.address, lovelace: 40_000_000n })];
    const refHolder = aUtxo({ address: wallet.address, lovelace: 5_000_000n, script: { language: "plutus:v3", cbor: r42 } });
    const lock = aUtxo({ address: scriptAddress(plutusScriptHash(r42), 0), lovelace: 4_000_000n, datum: DATA_42 });
    const spec = {
      protocolParameters: PP,
      utxos: funds,
      changeAddress: wallet.address,
      scriptInputs: [{ utxo: lock, script: { language: "plutus:v3" as const, referenceUtxo: refHolder }, redeemer: DATA_42 }],
      outputs: [{ address: aWallet().address, lovelace: 30_000_000n }],
    };
    const tx = await buildWithEvaluation(spec, uplcEvaluator([...funds, refHolder, lock]));
    expect(tx.inputs).to.deep.equal(decodeTx(tx.cborHex).inputs);
    expect(tx.inputs.length).to.be.greaterThan(1);
    const draft = buildTx(spec);
    expect(draft.inputs).to.deep.equal(decodeTx(draft.cborHex).inputs);
  });

  it("reference scripts remembered across builds: the same bytes again, and another script at the same out-ref is not confused", () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 40_000_000n })];
    const txId = "ab".repeat(32);
    const build = (cbor: string) => {
      const hash = plutusScriptHash(cbor);
      const refHolder = aUtxo({ address: wallet.address, lovelace: 5_000_000n, txId, index: 1, script: { language: "plutus:v3", cbor } });
      const lock = aUtxo({ address: scriptAddress(hash, 0), lovelace: 4_000_000n, datum: DATA_42, txId: "cd".repeat(32) });
      const spec = {
        protocolParameters: PP,
        utxos: funds,
        changeAddress: wallet.address,
        scriptInputs: [{ utxo: lock, script: { language: "plutus:v3" as const, referenceUtxo: refHolder }, redeemer: DATA_42 }],
      };
      const budgets = new Map([[spendKey(lock.transaction.id, 0), { memory: 1_000_000n, cpu: 500_000_000n }]]);
      return buildTx(spec, budgets);
    };
    const first = build(r42);
    expect(build(r42).cborHex).to.equal(first.cborHex);
    // a different script behind the same reference: its own size enters the fee (reference-script fee)
    const other = build(always);
    expect(other.cborHex).to.not.equal(first.cborHex);
    expect(other.fee < first.fee).to.equal(always.length < r42.length);
  });

  it("cost models: the same parameters object gives the same bytes; new models in a new object are not served stale", () => {
    const v3 = (pp: typeof PP) => costModels(pp).to_hex();
    const a = v3(PP);
    expect(v3(PP)).to.equal(a);
    const changed = structuredClone(PP);
    changed.plutusCostModels!["plutus:v3"]![0] = Number(changed.plutusCostModels!["plutus:v3"]![0]) + 1;
    const b = v3(changed);
    expect(b).to.not.equal(a);
    expect(v3(PP)).to.equal(a);
    expect(v3(structuredClone(PP))).to.equal(a);
  });
});
