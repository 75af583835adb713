import { expect } from "chai";
import fc from "fast-check";
import {
  buildTx,
  buildWithEvaluation,
  costModels,
  decodeTx,
  expectedScriptDataHash,
  mintKey,
  nativeScriptHash,
  plutusScriptHash,
  scriptAddress,
  scriptRewardAddress,
  singleWrapFlat,
  spendKey,
  withdrawKey,
  CslError,
  type TxSpec,
} from "../../../shared/csl";
import { CSL } from "../../../shared/csl/lib";
import { ALWAYS_SUCCEEDS_FLAT, DATA_42, DATA_UNIT, PP, REDEEMER_42_FLAT, aUtxo, aWallet } from "../../../fixtures/csl/fixtures";
import { conservation } from "./support/conservation";
import { uplcEvaluator } from "../../../fixtures/csl/uplc-evaluator";

describe("csl: Plutus-aware builder", () => {
  const wallet = aWallet();
  const always = singleWrapFlat(ALWAYS_SUCCEEDS_FLAT);
  const r42 = singleWrapFlat(REDEEMER_42_FLAT);
  const alwaysHash = plutusScriptHash(always);
  const r42Hash = plutusScriptHash(r42);

  it("spend (inline datum) + Plutus mint + withdraw-zero + native mint + inline-datum output, all evaluated and conserved", async () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 50_000_000n }), aUtxo({ address: wallet.address, lovelace: 8_000_000n })];
    const lock = aUtxo({ address: scriptAddress(r42Hash, 0), lovelace: 4_000_000n, datum: DATA_42 });
    const native = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(CSL.Ed25519KeyHash.from_hex(wallet.paymentKeyHash))).to_hex();
    const nativePolicy = nativeScriptHash(native);
    const rewardAddress = scriptRewardAddress(alwaysHash, 0);
    const spec: TxSpec = {
      protocolParameters: PP,
      utxos: funds,
      changeAddress: wallet.address,
      scriptInputs: [{ utxo: lock, script: { language: "plutus:v3", cbor: r42 }, redeemer: DATA_42 }],
      mints: [
        { policy: { language: "plutus:v3", cbor: r42 }, redeemer: DATA_42, assets: { "6365727431": 1n } },
        { policy: { language: "native", cbor: native }, assets: { "6e6174": 5n } },
      ],
      withdrawals: [{ rewardAddress, script: { language: "plutus:v3", cbor: always }, redeemer: DATA_UNIT }],
      outputs: [{ address: scriptAddress(alwaysHash, 0), inlineDatum: DATA_UNIT, assets: { [r42Hash]: { "6365727431": 1n } } }],
      requiredSigners: [wallet.paymentKeyHash],
      validityStartSlot: 10,
      ttlSlot: 10_000,
    };
    const known = [...funds, lock];
    const tx = await buildWithEvaluation(spec, uplcEvaluator(known));
    const d = decodeTx(tx.cborHex);

    expect(new Set(tx.redeemers.map((r) => r.key))).to.deep.equal(
      new Set([spendKey(lock.transaction.id, 0), mintKey(r42Hash), withdrawKey(rewardAddress)]),
    );
    expect(d.mint).to.deep.equal({ [r42Hash]: { "6365727431": 1n }, [nativePolicy]: { "6e6174": 5n } });
    expect(d.withdrawals).to.deep.equal({ [rewardAddress]: 0n });
    expect(d.requiredSigners).to.deep.equal([wallet.paymentKeyHash]);
    expect(d.validityStartSlot).to.equal(10n);
    expect(d.ttlSlot).to.equal(10_000n);
    expect(d.outputs[0]?.datum).to.equal(DATA_UNIT);
    // no lovelace given: the output carries exactly its min-ADA
    const first = CSL.Transaction.from_hex(tx.cborHex).body().outputs().get(0);
    const minAda = CSL.min_ada_for_output(
      first,
      CSL.DataCost.new_coins_per_byte(CSL.BigNum.from_str(String(PP.minUtxoDepositCoefficient))),
    );
    expect(d.outputs[0]?.value.ada.lovelace).to.equal(BigInt(minAda.to_str()));
    expect(new Set(d.plutusScriptHashes)).to.deep.equal(new Set([r42Hash, alwaysHash]));
    expect(d.scriptDataHash).to.equal(expectedScriptDataHash(tx.cborHex, costModels(PP)));

    // collateral: one ADA-only key UTxO, total = ceil(fee * 150%), the rest returned
    expect(d.collateral).to.have.length(1);
    // ledger rule: total * 100 >= fee * collateralPercentage (CSL rounds up by at most a lovelace)
    expect(d.totalCollateral! * 100n >= tx.fee * 150n).to.equal(true);
    expect(d.totalCollateral! - (tx.fee * 150n) / 100n <= 2n).to.equal(true);
    const coll = known.find((u) => u.transaction.id === d.collateral[0]!.txHash)!;
    expect(BigInt(d.collateralReturn!.value.ada.lovelace)).to.equal(BigInt(coll.value.ada.lovelace) - d.totalCollateral!);

    const { consumed, produced } = conservation(tx.cborHex, known);
    expect(produced).to.deep.equal(consumed);

    // fee ≥ ledger minimum of the signed tx: size fee (without the is_valid byte) + script execution fee
    const signed = wallet.signTxFull(tx.cborHex);
    const sizeFee = BigInt(PP.minFeeCoefficient) * BigInt(signed.length / 2 - 1) + BigInt(PP.minFeeConstant.ada.lovelace);
    const mem = tx.redeemers.reduce((a, r) => a + r.memory, 0n);
    const cpu = tx.redeemers.reduce((a, r) => a + r.cpu, 0n);
    const scriptFee = (mem * 577n + 9_999n) / 10_000n + (cpu * 721n + 9_999_999n) / 10_000_000n;
    expect(tx.fee >= sizeFee + scriptFee).to.equal(true);
    expect(tx.fee - (sizeFee + scriptFee) < 2_000n).to.equal(true);
  });

  it("spends through a reference script: reference input added, no script in the witness set, smaller tx", async () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 30_000_000n })];
    const refHolder = aUtxo({ address: wallet.address, lovelace: 5_000_000n, script: { language: "plutus:v3", cbor: r42 } });
    const lock = aUtxo({ address: scriptAddress(r42Hash, 0), lovelace: 4_000_000n, datum: DATA_42 });
    const known = [...funds, refHolder, lock];
    const base = { protocolParameters: PP, utxos: funds, changeAddress: wallet.address } as const;
    const viaRef = await buildWithEvaluation(
      { ...base, scriptInputs: [{ utxo: lock, script: { language: "plutus:v3", referenceUtxo: refHolder }, redeemer: DATA_42 }] },
      uplcEvaluator(known),
    );
    const attached = await buildWithEvaluation(
      { ...base, scriptInputs: [{ utxo: lock, script: { language: "plutus:v3", cbor: r42 }, redeemer: DATA_42 }] },
      uplcEvaluator(known),
    );
    const d = decodeTx(viaRef.cborHex);
    expect(d.referenceInputs).to.deep.equal([{ txHash: refHolder.transaction.id, index: 0 }]);
    expect(d.plutusScriptHashes).to.deep.equal([]);
    expect(d.inputs.map((i) => i.txHash)).to.not.include(refHolder.transaction.id);
    expect(viaRef.cborHex.length < attached.cborHex.length).to.equal(true);
    // the script sits in a reference input, so the language must be named
    expect(d.scriptDataHash).to.equal(expectedScriptDataHash(viaRef.cborHex, costModels(PP), ["plutus:v3"]));
  });

  it("puts the datum of a datum-hash UTxO in the witness set, and demands it", () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 30_000_000n })];
    const datumHash = CSL.hash_plutus_data(CSL.PlutusData.from_hex(DATA_42)).to_hex();
    const lock = aUtxo({ address: scriptAddress(alwaysHash, 0), lovelace: 4_000_000n, datumHash });
    const base = { protocolParameters: PP, utxos: funds, changeAddress: wallet.address } as const;
    const tx = buildTx({
      ...base,
      scriptInputs: [{ utxo: lock, script: { language: "plutus:v3", cbor: always }, redeemer: DATA_UNIT, datum: DATA_42 }],
    });
    expect(decodeTx(tx.cborHex).datumHashes).to.deep.equal([datumHash]);
    expect(() => buildTx({ ...base, scriptInputs: [{ utxo: lock, script: { language: "plutus:v3", cbor: always }, redeemer: DATA_UNIT }] }))
      .to.throw(CslError)
      .with.property("type", "TX_BUILD_FAILED");
  });

  it("adds plain reference inputs and keeps them out of the spent inputs", () => {
    const funds = [aUtxo({ address: wallet.address, lovelace: 30_000_000n })];
    const ref = aUtxo({ address: scriptAddress(alwaysHash, 0), lovelace: 2_000_000n, datum: DATA_42 });
    const tx = buildTx({
      protocolParameters: PP,
      utxos: funds,
      changeAddress: wallet.address,
      referenceInputs: [ref],
      outputs: [{ address: aWallet().address, lovelace: 2_000_000n }],
    });
    const d = decodeTx(tx.cborHex);
    expect(d.referenceInputs).to.deep.equal([{ txHash: ref.transaction.id, index: 0 }]);
    expect(d.inputs.map((i) => i.txHash)).to.deep.equal([funds[0]!.transaction.id]);
  });

  it("refuses a Plutus tx without any ADA-only key UTxO for collateral (INSUFFICIENT_FUNDS)", () => {
    const tokenOnly = [aUtxo({ address: wallet.address, lovelace: 30_000_000n, assets: { [alwaysHash]: { "61": 1n } } })];
    let caught: unknown;
    try {
      buildTx({
        protocolParameters: PP,
        utxos: tokenOnly,
        changeAddress: wallet.address,
        mints: [{ policy: { language: "plutus:v3", cbor: always }, redeemer: DATA_UNIT, assets: { "62": 1n } }],
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(CslError);
    expect((caught as CslError).type).to.equal("INSUFFICIENT_FUNDS");
  });

  it("burns: negative mint quantities leave the tokens out of the outputs, conserving value", async () => {
    const funds = [
      aUtxo({ address: wallet.address, lovelace: 30_000_000n, assets: { [alwaysHash]: { "61": 3n } } }),
      aUtxo({ address: wallet.address, lovelace: 6_000_000n }),
    ];
    const tx = await buildWithEvaluation(
      {
        protocolParameters: PP,
        utxos: funds,
        changeAddress: wallet.address,
        mints: [{ policy: { language: "plutus:v3", cbor: always }, redeemer: DATA_UNIT, assets: { "61": -2n } }],
      },
      uplcEvaluator(funds),
    );
    const d = decodeTx(tx.cborHex);
    expect(d.mint).to.deep.equal({ [alwaysHash]: { "61": -2n } });
    const { consumed, produced } = conservation(tx.cborHex, funds);
    expect(produced).to.deep.equal(consumed);
    expect(d.outputs.reduce((n, o) => n + ((o.value[alwaysHash] as Record<string, bigint> | undefined)?.["61"] ?? 0n), 0n)).to.equal(1n);
  });
});

describe("csl: builder properties", () => {
  it("property: native mints/burns and multi-asset outputs conserve every token and all ADA", () => {
    const wallet = aWallet();
    const payee = aWallet().address;
    const native = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(CSL.Ed25519KeyHash.from_hex(wallet.paymentKeyHash))).to_hex();
    const policy = nativeScriptHash(native);
    const other = "cd".repeat(28);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 50n }), // held tokens of our policy
        fc.bigInt({ min: -50n, max: 50n }).filter((q) => q !== 0n), // mint (+) or burn (-)
        fc.bigInt({ min: 0n, max: 20n }), // foreign tokens held
        fc.bigInt({ min: 0n, max: 20n }), // foreign tokens sent away
        (held, delta, foreign, sent) => {
          fc.pre(held + delta >= 0n && sent <= foreign);
          const utxos = [
            aUtxo({
              address: wallet.address,
              lovelace: 20_000_000n,
              assets: { ...(held > 0n ? { [policy]: { "61": held } } : {}), ...(foreign > 0n ? { [other]: { "62": foreign } } : {}) },
            }),
            aUtxo({ address: wallet.address, lovelace: 7_000_000n }),
          ];
          const outputs = sent > 0n ? [{ address: payee, assets: { [other]: { "62": sent } } }] : [];
          const tx = buildTx({
            protocolParameters: PP,
            utxos,
            changeAddress: wallet.address,
            mints: [{ policy: { language: "native", cbor: native }, assets: { "61": delta } }],
            outputs,
          });
          const { consumed, produced } = conservation(tx.cborHex, utxos);
          expect(produced).to.deep.equal(consumed);
        },
      ),
      { numRuns: 20 },
    );
  });
});
